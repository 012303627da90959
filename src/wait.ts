import type { Clock } from './clock.js';
import { formatElapsed } from './duration.js';
import { Aborted, DeadlineExceeded } from './service/client.js';
import type { FinishedRun, RunDriver } from './service/driver.js';

export type WaitResult =
  | { kind: 'finished'; run: FinishedRun }
  | { kind: 'timedout'; lastStatus?: string; serviceFailure?: string }
  | { kind: 'cancelled'; lastStatus?: string };

export interface WaitOptions {
  clock: Clock;
  signal: AbortSignal;
  /** When the start request was sent: elapsed times and the deadline count from here. */
  startedAt: number;
  deadline: number;
  pollIntervalMs: number;
  log: (line: string) => void;
}

const HEARTBEAT_MS = 60_000;

/** The poll delay with about ±10 % jitter, so that jobs started together do not poll in lockstep. */
export function jitteredInterval(pollIntervalMs: number, random: () => number): number {
  return Math.round(pollIntervalMs * (0.9 + 0.2 * random()));
}

/**
 * Polls a run until its status is final, the deadline passes or the job is cancelled. Service
 * errors propagate as ServiceError.
 */
export async function waitForFinish(
  driver: RunDriver,
  runId: string,
  options: WaitOptions,
): Promise<WaitResult> {
  const { clock, signal, deadline } = options;
  const context = { deadline, signal };
  const elapsed = () => formatElapsed(clock.now() - options.startedAt);
  let lastStatus: string | undefined;
  let lastLineAt = clock.now();
  try {
    for (;;) {
      if (signal.aborted) return { kind: 'cancelled', lastStatus };
      if (clock.now() >= deadline) return { kind: 'timedout', lastStatus };
      const poll = await driver.poll(runId, context);
      if (poll.status !== lastStatus) {
        const change = lastStatus ? `${lastStatus} -> ${poll.status}` : poll.status;
        options.log(`[${elapsed()}] ${driver.kind} ${runId}: ${change}`);
        lastStatus = poll.status;
        lastLineAt = clock.now();
      } else if (clock.now() - lastLineAt >= HEARTBEAT_MS) {
        options.log(`[${elapsed()}] ${driver.kind} ${runId}: still ${poll.status}`);
        lastLineAt = clock.now();
      }
      if (poll.final) return { kind: 'finished', run: await driver.finish(runId, context) };
      const delay = Math.min(jitteredInterval(options.pollIntervalMs, clock.random), deadline - clock.now());
      await clock.sleep(Math.max(0, delay), signal);
    }
  } catch (error) {
    if (error instanceof DeadlineExceeded) {
      return { kind: 'timedout', lastStatus, serviceFailure: error.serviceFailure };
    }
    if (error instanceof Aborted) return { kind: 'cancelled', lastStatus };
    throw error;
  }
}

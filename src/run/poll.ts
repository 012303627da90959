import { formatDuration } from '../report/format.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { Aborted, DeadlineExceeded } from '../service/errors.js';
import type { FinishedRun, RunDriver } from '../service/run-driver.js';

export type WaitResult =
  | { kind: 'finished'; run: FinishedRun }
  | { kind: 'timedout'; lastStatus?: string; serviceFailure?: string; gaveUpEarly?: boolean }
  | { kind: 'cancelled'; lastStatus?: string };

interface WaitOptions {
  clock: Clock;
  signal: AbortSignal;
  /** When the start request was sent: elapsed times and the deadline count from here. */
  startedAt: number;
  deadline: number;
  pollIntervalMs: number;
  requestTimeoutMs: number;
}

const HEARTBEAT_MS = 60_000;
/** The poll at the deadline may run this far past it (and no further than one request-timeout). */
const LAST_LOOK_MS = 5000;

/** The poll delay with about ±10 % jitter, so that jobs started together do not poll in lockstep. */
export function jitteredInterval(pollIntervalMs: number, random: () => number): number {
  return Math.round(pollIntervalMs * (0.9 + 0.2 * random()));
}

/**
 * Polls a run until its status is final, the deadline passes or the job is cancelled. When the
 * deadline comes between two polls, the run is polled once more before it counts as timed out,
 * so that a run that finished meanwhile is reported as finished (and never cancelled). Service
 * errors propagate as ServiceError.
 */
export async function waitForFinish(
  driver: RunDriver,
  runId: string,
  options: WaitOptions,
): Promise<WaitResult> {
  const { clock, signal, deadline } = options;
  const elapsed = () => formatDuration(clock.now() - options.startedAt);
  let lastStatus: string | undefined;
  let lastLineAt = clock.now();
  let atDeadline = false;
  try {
    for (;;) {
      if (signal.aborted) return { kind: 'cancelled', lastStatus };
      const context = {
        deadline: atDeadline ? clock.now() + Math.min(LAST_LOOK_MS, options.requestTimeoutMs) : deadline,
        signal,
      };
      const poll = await driver.poll(runId, context);
      if (poll.status !== lastStatus) {
        const change = lastStatus ? `${lastStatus} -> ${poll.status}` : poll.status;
        info(line`[${elapsed()}] ${driver.kind} ${runId}: ${change}`);
        lastStatus = poll.status;
        lastLineAt = clock.now();
      } else if (clock.now() - lastLineAt >= HEARTBEAT_MS) {
        info(line`[${elapsed()}] ${driver.kind} ${runId}: still ${poll.status}`);
        lastLineAt = clock.now();
      }
      if (poll.finished) return { kind: 'finished', run: poll.finished };
      if (atDeadline) return { kind: 'timedout', lastStatus };
      const delay = Math.min(jitteredInterval(options.pollIntervalMs, clock.random), deadline - clock.now());
      await clock.sleep(Math.max(0, delay), signal);
      atDeadline = clock.now() >= deadline;
    }
  } catch (error) {
    // A request cut by the deadline was the last look: the run did not finish in time.
    if (error instanceof DeadlineExceeded) {
      const { serviceFailure, gaveUpEarly } = error;
      return { kind: 'timedout', lastStatus, serviceFailure, gaveUpEarly };
    }
    if (error instanceof Aborted) return { kind: 'cancelled', lastStatus };
    throw error;
  }
}

import type { Settings } from '../inputs/settings.js';
import { formatDuration } from '../report/format.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { Aborted, DeadlineExceeded } from '../service/errors.js';
import type { FinishedRun, RunDriver } from '../service/run-driver.js';

/** Why a run did not finish, as its outcome says it. */
export interface Unfinished {
  status: 'TIMEDOUT' | 'CANCELLED' | 'ERROR';
  message: string;
}

interface Waiting {
  clock: Clock;
  signal: AbortSignal;
  /** When the start request was sent: elapsed times and the deadline count from here. */
  startedAt: number;
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
  settings: Pick<Settings, 'timeoutMs' | 'pollIntervalMs' | 'requestTimeoutMs'>,
  { clock, signal, startedAt }: Waiting,
): Promise<FinishedRun | Unfinished> {
  const deadline = startedAt + settings.timeoutMs;
  const run = `${driver.kind} ${runId}`;
  const elapsed = () => formatDuration(clock.now() - startedAt);
  let lastStatus: string | undefined;
  let lastLineAt = clock.now();
  let atDeadline = false;
  try {
    for (;;) {
      if (signal.aborted) break;
      const context = {
        deadline: atDeadline ? clock.now() + Math.min(LAST_LOOK_MS, settings.requestTimeoutMs) : deadline,
        signal,
      };
      const poll = await driver.poll(runId, context);
      if (poll.status !== lastStatus) {
        const change = lastStatus ? `${lastStatus} -> ${poll.status}` : poll.status;
        info(line`[${elapsed()}] ${run}: ${change}`);
        lastStatus = poll.status;
        lastLineAt = clock.now();
      } else if (clock.now() - lastLineAt >= HEARTBEAT_MS) {
        info(line`[${elapsed()}] ${run}: still ${poll.status}`);
        lastLineAt = clock.now();
      }
      if (poll.finished) return poll.finished;
      if (atDeadline) return timedOut(run, settings.timeoutMs, lastStatus);
      const delay = Math.min(jitteredInterval(settings.pollIntervalMs, clock.random), deadline - clock.now());
      await clock.sleep(Math.max(0, delay), signal);
      atDeadline = clock.now() >= deadline;
    }
  } catch (error) {
    // A request cut by the deadline was the last look: the run did not finish in time.
    if (error instanceof DeadlineExceeded) return timedOut(run, settings.timeoutMs, lastStatus, error);
    if (!(error instanceof Aborted)) throw error;
  }
  return { status: 'CANCELLED', message: `The job was cancelled while waiting for ${run}.` };
}

/** A run still going at the deadline; an ERROR when the service was failing then, not a slow run. */
function timedOut(run: string, timeoutMs: number, lastStatus?: string, error?: DeadlineExceeded): Unfinished {
  const timeout = `the time-out of ${formatDuration(timeoutMs)} ('timeout' input)`;
  if (error?.serviceFailure) {
    const message = error.gaveUpEarly
      ? error.serviceFailure
      : `${error.serviceFailure} Still failing when ${timeout} expired.`;
    return { status: 'ERROR', message };
  }
  const last = lastStatus ? `; its last status was ${lastStatus}` : '';
  return { status: 'TIMEDOUT', message: `${run} did not finish within ${timeout}${last}.` };
}

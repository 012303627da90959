import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';

/**
 * The runner sends SIGINT, SIGTERM 7.5 s later, and kills the step 2.5 s after that. Every
 * budget of a cancelled job comes from one deadline, set when the first signal arrives: all
 * requests end by it, which leaves two seconds to write the outputs and the summary and exit
 * before SIGTERM.
 */
export const CANCELLED_JOB_BUDGET_MS = 5500;
/** A start still unanswered 2 s before the deadline is given up, so the cancel has time. */
export const START_GRACE_MS = CANCELLED_JOB_BUDGET_MS - 2000;

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** What every step of a run needs: the clock and the job's cancellation (a step's `StepContext` has both). */
export interface RunContext {
  clock: Clock;
  job: JobCancellation;
}

export class JobCancellation {
  private readonly cancelled = new AbortController();
  private readonly startGivenUp = new AbortController();
  private readonly disposed = new AbortController();
  /** Nothing runs past it. */
  deadline: number | undefined;

  constructor(private readonly clock: Clock) {}

  /** Polls stop at once, a start stops retrying. */
  readonly signal = this.cancelled.signal;
  readonly startAbandoned = this.startGivenUp.signal;

  /** The first call sets the deadline; later signals (SIGTERM after SIGINT) change nothing. */
  cancel(): void {
    if (this.cancelled.signal.aborted || this.disposed.signal.aborted) return;
    this.deadline = this.clock.now() + CANCELLED_JOB_BUDGET_MS;
    this.cancelled.abort();
    void this.clock.sleep(START_GRACE_MS, this.disposed.signal).then(() => {
      if (!this.disposed.signal.aborted) this.startGivenUp.abort();
    });
  }

  /** `source` for tests that cancel in-process. The signal listeners keep Node from exiting at once. */
  listen(source?: AbortSignal): void {
    if (!source) for (const signal of SIGNALS) process.on(signal, this.onSignal);
    else if (source.aborted) this.cancel();
    else source.addEventListener('abort', () => this.cancel(), { signal: this.disposed.signal });
  }

  private readonly onSignal = (signal: NodeJS.Signals) => {
    info(line`Received ${signal}: the job is being cancelled.`);
    this.cancel();
  };

  /** So that nothing keeps Node alive after the step. */
  dispose(): void {
    this.disposed.abort();
    for (const signal of SIGNALS) process.off(signal, this.onSignal);
  }
}

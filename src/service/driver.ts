import type { CallContext } from './client.js';

export interface StartedRun {
  runId: string;
  testSuiteName?: string;
  /** Suite runs: the options the service applied, as it echoes them. */
  appliedOptions?: Record<string, unknown>;
}

export interface PollResult {
  status: string;
  final: boolean;
}

/** A test case as the service reports it. */
export interface TestCaseResult {
  title: string;
  /** Undefined when the service sent none. */
  status?: string;
  durationMs?: number;
}

export interface FinishedRun {
  /** The final status the service reported (suite runs: FINISHED). */
  serviceStatus: string;
  startedAt?: string;
  finishedAt?: string;
  branch?: string;
  testSuiteName?: string;
  testCases: TestCaseResult[];
}

/** One run kind: the only place where project runs and suite runs differ. */
export interface RunDriver {
  /** "project run" or "test suite run". */
  readonly kind: string;
  /** "project 'p'" or "test suite 's'". */
  readonly target: string;
  start(context: CallContext): Promise<StartedRun>;
  poll(runId: string, context: CallContext): Promise<PollResult>;
  /** The outcome of a run whose last poll was final. */
  finish(runId: string, context: CallContext): Promise<FinishedRun>;
  /** Absent where the interface has no cancel operation (suite runs). */
  cancel?(runId: string, context: CallContext): Promise<void>;
}

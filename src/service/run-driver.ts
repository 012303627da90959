import type { CallContext } from './client.js';

/** A test case as the service reports it (null where it sent null). */
export interface TestCaseResult {
  title: string;
  status?: string | null;
  durationMs?: number | null;
  /** Suite results: the test's own run and the test, which the service's pages are named by. */
  testRunId?: string | null;
  testId?: string | null;
}

export interface StartedRun {
  runId: string;
  /** Suite runs: the project the suite belongs to. */
  projectId?: string;
  testSuiteName?: string;
  /** Suite runs: the options the service applied, as it echoes them. */
  appliedOptions?: Record<string, unknown>;
}

/** A run whose status is final, with its test cases. */
export interface FinishedRun {
  /** The final status the service reported (suite runs: FINISHED). */
  serviceStatus: string;
  startedAt?: string;
  finishedAt?: string;
  branch?: string;
  /** Suite runs: the project the suite belongs to, when the result says. */
  projectId?: string;
  testSuiteName?: string;
  testCases: readonly TestCaseResult[];
}

/** One poll: the run's status, and the finished run once that status is final. */
export interface Poll {
  status: string;
  finished?: FinishedRun;
}

/** What the step does with a run of either kind once it has its id. Each driver also starts one. */
export interface RunDriver {
  /** "project run" or "test suite run". */
  readonly kind: string;
  /** "project 'p'" or "test suite 's'". */
  readonly target: string;
  poll(runId: string, context: CallContext): Promise<Poll>;
  /** Absent where the interface has no cancel operation (suite runs). */
  cancel?(runId: string, context: CallContext): Promise<void>;
}

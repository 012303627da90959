// Both run kinds produce it; everything that reports reads only these types.
import type { Mode } from '../inputs/settings.js';
import type { InProgress, RunStatus } from '../service/interface.js';
import type { History } from './history.js';
import type { Verdict } from './test-case-status.js';

export interface TestCase {
  title: string;
  /** As the service reported it. */
  status?: string;
  durationMs?: number;
  testRunId?: string;
  testId?: string;
  dashboardUrl?: string;
  /** Decided once (run/conclude.ts). */
  verdict: Verdict;
  /** What a failure is against the base branch's history, or the quarantine; decided once (run/compare.ts). */
  label?: FailureLabel;
}

export interface FailureLabel {
  kind: 'new' | 'flaky' | 'failing' | 'quarantined';
  /** For people: "flaky on main: failed 3 of the last 20". */
  text: string;
  /** Its results on the base branch, oldest first, then this run's: ✅✅❌✅❌. */
  record?: string;
}

export type OutputStatus = Exclude<RunStatus, InProgress> | 'ERROR' | 'STARTED';

/** A run that ended so has test cases to report: a result a later run may compare with. */
export const WITH_RESULTS: readonly OutputStatus[] = ['PASSED', 'FAILED', 'INTERRUPTED'];

export type Counts = Record<'total' | Verdict['count'], number>;

/** What changed since the baseline: the base branch's result, the branch's previous one, or the previous run on the pull request. */
export interface Comparison {
  /** What the run was compared with, for people: "main at abc1234 (the base branch)". */
  against: string;
  /** Failing now; passing, flaky, skipped or absent then. */
  newFailures: TestCase[];
  stillFailing: TestCase[];
  /** Failing then, passing now. */
  fixed: TestCase[];
  /** Failing now, and past what the previous run's digest holds: it may have failed then too. */
  notCompared: TestCase[];
  /** The previous run had more failing test cases than its digest holds. */
  partial: boolean;
  /** Failing now, and in some of the base branch's results (with its history): not new. */
  flaky: TestCase[];
  /** The base branch whose history labelled the failures, when one did. */
  labelledOn?: string;
}

export interface RunOutcome {
  mode: Mode;
  /** A suite run's is the service's. */
  projectId?: string;
  testSuiteId?: string;
  testSuiteName?: string;
  playwrightProjectName?: string;
  runId?: string;
  status: OutputStatus;
  /** Whether the step passes. */
  success: boolean;
  branch?: string;
  environment?: string;
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
  /** As the service listed them: the results file and the JUnit report keep this order. */
  testCases: TestCase[];
  /** Sorted once (run/conclude.ts): failures first, by rank, the service's order within a rank. */
  reportOrder: readonly TestCase[];
  counts: Counts;
  failOnFlaky: boolean;
  /** Why the step failed when no test case explains it (service error, time-out, cancellation). */
  message?: string;
  /** Extra lines for the log and summary, e.g. "suite runs cannot be cancelled". */
  notes: string[];
  comparison?: Comparison;
  dashboardUrl?: string;
  /** The check run written for this target on the commit tested, when one was. */
  checkRunUrl?: string;
  /** Sensitive values already hidden. */
  appliedOptions?: Record<string, unknown>;
  /** Failing test cases that the quarantine keeps from failing the step. */
  quarantined?: TestCase[];
  /** What this run's check run carries on for the branch's later runs (a run of the branch itself). */
  history?: History;
  /** With that history: the test cases of this run that changed most between passing and failing. */
  flakiest?: { title: string; changes: number; record: string }[];
}

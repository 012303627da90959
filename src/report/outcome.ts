/**
 * The normalised outcome that both run kinds produce. Everything that reports (outputs, summary,
 * annotations, JUnit, results file, pull-request comment) reads only these types.
 */

import type { Mode } from '../inputs/settings.js';
import type { RunStatus } from '../service/schemas.js';
import type { Digest } from './comment-digest.js';
import type { Verdict } from './test-case-status.js';

export interface TestCase {
  title: string;
  /** The status as the service reported it; undefined when the service sent none. */
  status?: string;
  durationMs?: number;
  /** Suite runs: the test's own run id and the test's id, when the service gave them. */
  testRunId?: string;
  testId?: string;
  /** The service's page for this test case (`dashboard-test-url`). */
  dashboardUrl?: string;
  /** How it counts and shows, decided once (run/conclude.ts). */
  verdict: Verdict;
}

/** The value of the `status` output. */
export type OutputStatus = Exclude<RunStatus, 'QUEUED' | 'RUNNING'> | 'ERROR' | 'STARTED';

/** How many test cases the run had, and how many count as each of the four. */
export type Counts = Record<'total' | Verdict['count'], number>;

/** What changed since the previous run of the same target: the comment's and the summary's news. */
export interface Comparison {
  /** Failing now; passing, flaky, skipped or absent then. */
  newFailures: TestCase[];
  /** Failing then and now. */
  stillFailing: TestCase[];
  /** Failing then, passing now. */
  fixed: TestCase[];
  /**
   * Failing now, but the previous run had more failing test cases than its digest holds, and this
   * title's hash lies past what it holds: it may have failed then too. Neither new nor known.
   */
  notCompared: TestCase[];
  /** The previous run had more failing test cases than its digest holds. */
  partial: boolean;
  /** The previous run's digest, carried into this run's comment for a re-run of the same commit. */
  baseline: Digest;
}

export interface RunOutcome {
  mode: Mode;
  /** The project run's project, or the project a suite belongs to (from the service). */
  projectId?: string;
  testSuiteId?: string;
  testSuiteName?: string;
  /** Project runs: the Playwright project run, when one was named. */
  playwrightProjectName?: string;
  runId?: string;
  /** The `status` output. */
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
  /**
   * The same test cases in report order, sorted once (run/conclude.ts): failures first, by rank,
   * the service's order within a rank. The log, annotations, summary and comment list them so.
   */
  reportOrder: readonly TestCase[];
  counts: Counts;
  failOnFlaky: boolean;
  /** Why the step failed when no test case explains it (service error, time-out, cancellation). */
  message?: string;
  /** Extra lines for the log and summary, e.g. "suite runs cannot be cancelled". */
  notes: string[];
  /** What changed since the previous run of this target, when its comment told (pull requests). */
  comparison?: Comparison;
  /** The service's page for the run (`dashboard-url`). */
  dashboardUrl?: string;
  /** Suite runs: the options the service applied, sensitive values already hidden. */
  appliedOptions?: Record<string, unknown>;
}

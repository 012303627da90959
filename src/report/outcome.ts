/**
 * The normalised outcome that both run kinds produce. Everything that reports (outputs, summary,
 * annotations, JUnit, results file, pull-request comment) reads only these types.
 */

import type { Mode } from '../inputs/settings.js';
import type { Comparison } from './comparison.js';
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
export type OutputStatus =
  | 'PASSED'
  | 'FAILED'
  | 'TIMEDOUT'
  | 'CANCELLED'
  | 'INTERRUPTED'
  | 'ERROR'
  | 'STARTED';

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
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
  testCases: TestCase[];
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

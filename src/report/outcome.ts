/**
 * The normalised outcome that both run kinds produce, and the contract's table of test case
 * statuses. Everything that reports (outputs, summary, annotations, JUnit, results file) reads
 * only these types.
 */

import type { Mode } from '../inputs/settings.js';

export interface TestCase {
  title: string;
  /** The status as the service reported it; undefined when the service sent none. */
  status?: string;
  durationMs?: number;
}

/** How a test case shows in the summary and in JUnit. */
export type Verdict = 'passed' | 'flaky' | 'skipped' | 'failure' | 'error' | 'unfinished';

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
  projectId?: string;
  testSuiteId?: string;
  testSuiteName?: string;
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
  /** Suite runs: the options the service applied, sensitive values already hidden. */
  appliedOptions?: Record<string, unknown>;
}

const FAILURE_STATUSES = new Set(['FAILED', 'TIMEDOUT', 'INTERRUPTED']);

export function verdictOf(status: string | undefined): Verdict {
  if (status === 'PASSED') return 'passed';
  if (status === 'FLAKY') return 'flaky';
  if (status === 'SKIPPED') return 'skipped';
  if (status === 'ERROR') return 'error';
  if (status !== undefined && FAILURE_STATUSES.has(status)) return 'failure';
  return 'unfinished';
}

/** Whether a test case makes the step fail. */
export function isFailing(testCase: TestCase, failOnFlaky: boolean): boolean {
  const verdict = verdictOf(testCase.status);
  if (verdict === 'flaky') return failOnFlaky;
  return verdict === 'failure' || verdict === 'error' || verdict === 'unfinished';
}

/** Flaky cases stay in `flaky` even with fail-on-flaky, so that `total` is the sum of the others. */
export function countCases(testCases: readonly TestCase[]): Counts {
  const counts: Counts = { total: testCases.length, passed: 0, failed: 0, flaky: 0, skipped: 0 };
  for (const testCase of testCases) {
    const verdict = verdictOf(testCase.status);
    if (verdict === 'passed') counts.passed++;
    else if (verdict === 'flaky') counts.flaky++;
    else if (verdict === 'skipped') counts.skipped++;
    else counts.failed++;
  }
  return counts;
}

/** Report order: failures, then timed-out, interrupted, flaky, skipped, passed. */
function reportRank(status: string | undefined): number {
  switch (status) {
    case 'TIMEDOUT':
      return 1;
    case 'INTERRUPTED':
      return 2;
    case 'FLAKY':
      return 3;
    case 'SKIPPED':
      return 4;
    case 'PASSED':
      return 5;
    default:
      return 0;
  }
}

/** A stable sort by report rank: the order within a group is the service's. */
export function inReportOrder(testCases: readonly TestCase[]): TestCase[] {
  return testCases
    .map((testCase, index) => ({ testCase, index, rank: reportRank(testCase.status) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.testCase);
}

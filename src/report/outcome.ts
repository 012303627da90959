// Both run kinds produce it; everything that reports reads only these types.
import type { Mode } from '../inputs/settings.js';
import type { InProgress, RunStatus } from '../service/interface.js';
import type { Column, ResultRecord } from './record.js';
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
  /** What a failure is against the base branch's record, or the quarantine; decided once (run/judgment.ts). */
  label?: FailureLabel;
  /** Its typical duration on the base branch, where its record knows one (run/judgment.ts). */
  typicalMs?: number;
}

export interface FailureLabel {
  kind: 'new' | 'flaky' | 'failing' | 'quarantined';
  /** For people: "flaky on main: failed 3 of the last 20". */
  text: string;
  /** Its results on the base branch, oldest first, then this run's: ✅✅❌✅❌. */
  record?: string;
}

export type OutputStatus = Exclude<RunStatus, InProgress> | 'ERROR' | 'STARTED';

/** A run that ended so finished: its test cases tell the step's result, and a later run may compare with them. */
export const FINISHED: readonly OutputStatus[] = ['PASSED', 'FAILED'];

export type Counts = Record<'total' | Verdict['count'], number>;

/**
 * The one judgment of a run against its baseline (run/judgment.ts): each failing test case in one
 * list, with its label; every report reads it, none re-derives it.
 */
export interface Judgment {
  /** What the run was compared with, for people ("main at abc1234"); undefined where nothing was. */
  against?: string;
  /** The branch the labels name: "failing on main". */
  base?: string;
  /** Why there was nothing to compare with. */
  whyNone?: string;
  /** Failing now, and in no result of the baseline. */
  newFailures: TestCase[];
  /** Failing now, and in some of the base branch's results, not at its newest. */
  flaky: TestCase[];
  /** Failing now, and at the baseline or the base branch's newest result. */
  failing: TestCase[];
  /** Failing now, and quarantined: never fails the step. */
  quarantined: TestCase[];
  /** Failing at the baseline, passing now. */
  fixed: TestCase[];
  /** The baseline's record had rows cut to fit: a failure without a row was judged new. */
  partial: boolean;
  /**
   * Markedly slower than typically on the base branch (`slowdown`); undefined where nothing is
   * known: no baseline, no typical duration, a run that did not finish, or `slowdown: off`.
   */
  slower?: TestCase[];
  /** The base branch's last results (its record's columns, with `history` of 2 or more), oldest first. */
  baseResults: Column[];
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
  /** Set once a baseline was looked for (run/judgment.ts). */
  judgment?: Judgment;
  dashboardUrl?: string;
  /** The check run written for this target on the commit tested, when one was. */
  checkRunUrl?: string;
  /** Sensitive values already hidden. */
  appliedOptions?: Record<string, unknown>;
  /** What this run's check run carries for later runs. */
  record?: ResultRecord;
  /** A run of the branch itself: the test cases of this run that changed most between passing and failing. */
  flakiest?: { title: string; changes: number; record: string }[];
}

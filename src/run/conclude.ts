import { plural } from '../report/format.js';
import type { Counts, OutputStatus, RunOutcome, TestCase } from '../report/outcome.js';
import { inReportOrder, judge } from '../report/test-case-status.js';
import type { FinishedRun } from '../service/run-driver.js';
import { isPlausibleDuration } from '../service/schemas.js';

/** What is known of a run before its outcome: who it is and where it runs. */
export type RunIdentity = Pick<
  RunOutcome,
  | 'mode'
  | 'projectId'
  | 'testSuiteId'
  | 'testSuiteName'
  | 'playwrightProjectName'
  | 'runId'
  | 'branch'
  | 'environment'
  | 'failOnFlaky'
  | 'appliedOptions'
>;

/** The run's duration, when its timestamps agree: a finish before the start, or months after it, is unknown. */
function durationOf(startedAt?: string, finishedAt?: string): number | undefined {
  if (!startedAt || !finishedAt) return undefined;
  const ms = Date.parse(finishedAt) - Date.parse(startedAt);
  return isPlausibleDuration(ms) ? ms : undefined;
}

const NO_TEST_CASES: Counts = { total: 0, passed: 0, failed: 0, flaky: 0, skipped: 0 };

/** The run's test cases, each with its verdict decided here, once; the counts follow from them. */
function judgeTestCases(
  run: FinishedRun,
  failOnFlaky: boolean,
): { testCases: TestCase[]; counts: Counts; failing: number } {
  const counts = { ...NO_TEST_CASES, total: run.testCases.length };
  let failing = 0;
  const testCases = run.testCases.map(({ title, status, durationMs, testRunId, testId }): TestCase => {
    const verdict = judge(status ?? undefined, failOnFlaky);
    counts[verdict.count]++;
    if (verdict.fails) failing++;
    return {
      title,
      status: status ?? undefined,
      durationMs: durationMs ?? undefined,
      testRunId: testRunId ?? undefined,
      testId: testId ?? undefined,
      verdict,
    };
  });
  return { testCases, counts, failing };
}

/** How a failing step's message names the run. */
export function runName(outcome: Pick<RunOutcome, 'mode' | 'runId'>): string {
  return `${outcome.mode === 'project' ? 'Project run' : 'Test suite run'} ${outcome.runId}`;
}

/** The outcome of a run that reached a final status, with the contract's step result. */
export function finishedOutcome(identity: RunIdentity, run: FinishedRun): RunOutcome {
  const { testCases, counts, failing } = judgeTestCases(run, identity.failOnFlaky);
  const project = identity.mode === 'project';
  const status: OutputStatus = project
    ? (run.serviceStatus as OutputStatus)
    : failing === 0
      ? 'PASSED'
      : 'FAILED';
  const success = status === 'PASSED' && failing === 0;
  const flakyNote =
    identity.failOnFlaky && counts.flaky > 0
      ? ` (${plural(counts.flaky, 'flaky test case')} counted as failed: fail-on-flaky is true)`
      : '';
  const ended = project && status !== 'PASSED' ? ` ended ${status}` : '';
  const message = success
    ? undefined
    : ended && counts.total === 0
      ? `${runName(identity)}${ended}, with no test case reported.`
      : `${runName(identity)}${ended}: ${failing} of ${plural(counts.total, 'test case')} failed${flakyNote}.`;
  return {
    ...identity,
    projectId: identity.projectId ?? run.projectId,
    testSuiteName: run.testSuiteName ?? identity.testSuiteName,
    branch: run.branch ?? identity.branch,
    status,
    success,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    durationMs: durationOf(run.startedAt, run.finishedAt),
    testCases,
    reportOrder: inReportOrder(testCases),
    counts,
    message,
    notes: [],
  };
}

/**
 * The outcome of a run with no test case known: started and left alone (`wait: false`), or one
 * whose result is unknown (timed out, cancelled, or the service failed).
 */
export function emptyOutcome(
  identity: RunIdentity,
  status: 'STARTED' | 'TIMEDOUT' | 'CANCELLED' | 'ERROR',
  message?: string,
  notes: string[] = [],
): RunOutcome {
  const success = status === 'STARTED';
  return {
    ...identity,
    status,
    success,
    testCases: [],
    reportOrder: [],
    counts: NO_TEST_CASES,
    message,
    notes,
  };
}

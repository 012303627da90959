import { plural } from '../report/format.js';
import type { Counts, OutputStatus, RunOutcome, TestCase } from '../report/outcome.js';
import { inReportOrder, judge } from '../report/test-case-status.js';
import type { FinishedRun } from '../service/run-driver.js';
import { isPlausibleDuration } from '../service/schemas.js';

export type RunIdentity = Omit<
  RunOutcome,
  'status' | 'success' | 'testCases' | 'reportOrder' | 'counts' | 'notes'
>;

const NO_TEST_CASES: Counts = { total: 0, passed: 0, failed: 0, flaky: 0, skipped: 0 };

export function runName(outcome: Pick<RunOutcome, 'mode' | 'runId'>): string {
  return `${outcome.mode === 'project' ? 'Project run' : 'Test suite run'} ${outcome.runId}`;
}

/** Each test case's verdict is decided here, once, and the counts follow from them. */
export function finishedOutcome(identity: RunIdentity, run: FinishedRun): RunOutcome {
  const counts = { ...NO_TEST_CASES, total: run.testCases.length };
  let failing = 0;
  const testCases = run.testCases.map(({ title, status, durationMs, testRunId, testId }): TestCase => {
    const verdict = judge(status ?? undefined, identity.failOnFlaky);
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
  const project = identity.mode === 'project';
  const status = (project ? run.serviceStatus : failing === 0 ? 'PASSED' : 'FAILED') as OutputStatus;
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
  // A finish before the start, or months after it, is an unknown duration.
  const durationMs = Date.parse(run.finishedAt ?? '') - Date.parse(run.startedAt ?? '');
  return {
    ...identity,
    projectId: identity.projectId ?? run.projectId,
    testSuiteName: run.testSuiteName ?? identity.testSuiteName,
    branch: run.branch ?? identity.branch,
    status,
    success,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    durationMs: isPlausibleDuration(durationMs) ? durationMs : undefined,
    testCases,
    reportOrder: inReportOrder(testCases),
    counts,
    message,
    notes: [],
  };
}

export function emptyOutcome(
  identity: RunIdentity,
  status: 'STARTED' | 'TIMEDOUT' | 'CANCELLED' | 'ERROR',
  message?: string,
  notes: string[] = [],
): RunOutcome {
  return {
    ...identity,
    status,
    success: status === 'STARTED',
    testCases: [],
    reportOrder: [],
    counts: NO_TEST_CASES,
    message,
    notes,
  };
}

import type { Settings } from '../inputs/settings.js';
import { expandUrl } from '../inputs/url-template.js';
import { plural } from '../report/format.js';
import type { Counts, OutputStatus, RunOutcome, TestCase } from '../report/outcome.js';
import { inReportOrder, judge } from '../report/test-case-status.js';
import { warning } from '../runner/log.js';
import { line } from '../runner/text.js';
import { isPlausibleDuration } from '../service/interface.js';
import type { FinishedRun } from '../service/run-driver.js';

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
  const suiteStatus = failing === 0 ? 'PASSED' : 'FAILED';
  const status = (project ? run.serviceStatus : suiteStatus) as OutputStatus;
  const success = status === 'PASSED' && failing === 0;
  const flakyNote =
    identity.failOnFlaky && counts.flaky > 0
      ? ` (${plural(counts.flaky, 'flaky test case')} counted as failed: fail-on-flaky is true)`
      : '';
  const ended = project && status !== 'PASSED' ? ` ended ${status}` : '';
  let message: string | undefined;
  if (!success && ended && counts.total === 0) {
    message = `${runName(identity)}${ended}, with no test case reported.`;
  } else if (!success) {
    message = `${runName(identity)}${ended}: ${failing} of ${plural(counts.total, 'test case')} failed${flakyNote}.`;
  }
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

/** A link whose values are not known (a suite run's project, before the service names it) is left out. */
export function withLinks(outcome: RunOutcome, settings: Settings): RunOutcome {
  const { dashboardUrl: runTemplate, dashboardTestUrl: testTemplate } = settings;
  if (runTemplate === undefined && testTemplate === undefined) return outcome;
  // A value that would choose the link's host gives no link, and one warning per template.
  const refusals = new Set<string>();
  const link = (expanded: string | undefined | { refused: string }) => {
    if (typeof expanded !== 'object') return expanded;
    refusals.add(expanded.refused);
    return undefined;
  };
  const run = { projectId: outcome.projectId, runId: outcome.runId, testSuiteId: outcome.testSuiteId };
  const dashboardUrl = link(expandUrl(runTemplate, run));
  // In place: the test cases are this run's own, and so each keeps its place in the report order.
  for (const testCase of testTemplate === undefined ? [] : outcome.testCases) {
    const { testRunId, testId } = testCase;
    testCase.dashboardUrl = link(expandUrl(testTemplate, { ...run, testRunId, testId }));
  }
  const message =
    !outcome.success && outcome.message ? failureMessage(outcome.message, dashboardUrl) : outcome.message;
  for (const refusal of refusals) warning(line`${refusal}`);
  return { ...outcome, dashboardUrl, message };
}

export function failureMessage(message: string, dashboardUrl: string | undefined): string {
  return dashboardUrl ? `${message} The service's page for the run: ${dashboardUrl}` : message;
}

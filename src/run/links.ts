import type { Settings } from '../inputs/settings.js';
import { expandUrl } from '../inputs/url-template.js';
import type { RunOutcome } from '../report/outcome.js';
import { warning } from '../runner/log.js';
import { line } from '../runner/text.js';

/**
 * The outcome with its links to the service's pages: the run's (`dashboard-url`), each test
 * case's (`dashboard-test-url`), and the run's named in a failing step's message. A link whose
 * values are not known (a suite run's project, before the service names it) is left out.
 */
export function withLinks(outcome: RunOutcome, settings: Settings): RunOutcome {
  const { dashboardUrl: runTemplate, dashboardTestUrl: testTemplate } = settings;
  if (runTemplate === undefined && testTemplate === undefined) return outcome;
  // A value that would choose the link's host gives no link, and one warning per template.
  const refusals = new Set<string>();
  const expand = (...args: Parameters<typeof expandUrl>) => {
    const expanded = expandUrl(...args);
    if (typeof expanded !== 'object') return expanded;
    refusals.add(expanded.refused);
    return undefined;
  };
  const run = { projectId: outcome.projectId, runId: outcome.runId, testSuiteId: outcome.testSuiteId };
  const dashboardUrl = expand(runTemplate, run);
  // In place: the test cases are this run's own, and so each keeps its place in the report order.
  for (const testCase of testTemplate === undefined ? [] : outcome.testCases) {
    const { testRunId, testId } = testCase;
    testCase.dashboardUrl = expand(testTemplate, { ...run, testRunId, testId });
  }
  const message =
    !outcome.success && outcome.message ? failureMessage(outcome.message, dashboardUrl) : outcome.message;
  for (const refusal of refusals) warning(line`${refusal}`);
  return { ...outcome, dashboardUrl, message };
}

/** A failing step's message, with the service's page for the run when there is one. */
export function failureMessage(message: string, dashboardUrl: string | undefined): string {
  return dashboardUrl ? `${message} The service's page for the run: ${dashboardUrl}` : message;
}

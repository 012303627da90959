import type { Settings } from '../inputs/settings.js';
import { expandUrl } from '../inputs/url-template.js';
import type { RunOutcome } from '../report/outcome.js';
import { warning } from '../runner/log.js';
import { line } from '../runner/text.js';

/** A link whose values are not known (a suite run's project, before the service names it) is left out. */
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

export function failureMessage(message: string, dashboardUrl: string | undefined): string {
  return dashboardUrl ? `${message} The service's page for the run: ${dashboardUrl}` : message;
}

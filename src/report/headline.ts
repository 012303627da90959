import { hrefText } from './escape.js';
import { formatDuration } from './format.js';
import type { RunOutcome } from './outcome.js';

/** The outcome in a few words, with its icon: the heading of the summary and of the comment. */
export function headingOf(outcome: RunOutcome): string {
  switch (outcome.status) {
    case 'PASSED':
      return outcome.success ? '✅ Test run passed' : '❌ Test run failed';
    case 'FAILED':
      return '❌ Test run failed';
    case 'INTERRUPTED':
      return '❌ Test run interrupted';
    case 'TIMEDOUT':
      return '⏱️ Test run timed out';
    case 'CANCELLED':
      return '🚫 Test run cancelled';
    case 'ERROR':
      return '⚠️ Could not learn the outcome of the test run';
    case 'STARTED':
      return '▶️ Test run started';
  }
}

/**
 * What ran and where, as one line of HTML: `Project <code>p</code> · Run <code>r</code> · …`.
 * `text` escapes each value for where the line goes (the summary, or a pull request comment).
 */
export function runLine(outcome: RunOutcome, text: (value: string) => string): string {
  const code = (value: string) => `<code>${text(value)}</code>`;
  const parts: string[] = [];
  if (outcome.mode === 'suite') {
    if (outcome.testSuiteName) parts.push(`Suite <strong>${text(outcome.testSuiteName)}</strong>`);
    else if (outcome.testSuiteId) parts.push(`Suite ${code(outcome.testSuiteId)}`);
  } else if (outcome.projectId) {
    parts.push(`Project ${code(outcome.projectId)}`);
  }
  if (outcome.playwrightProjectName) parts.push(`Playwright project ${code(outcome.playwrightProjectName)}`);
  if (outcome.runId) {
    const run = code(outcome.runId);
    parts.push(
      outcome.dashboardUrl ? `Run <a href="${hrefText(outcome.dashboardUrl)}">${run}</a>` : `Run ${run}`,
    );
  }
  if (outcome.branch) parts.push(`Branch ${code(outcome.branch)}`);
  if (outcome.environment) parts.push(`Environment ${code(outcome.environment)}`);
  if (outcome.durationMs !== undefined) parts.push(`Duration ${formatDuration(outcome.durationMs)}`);
  return parts.join(' · ');
}

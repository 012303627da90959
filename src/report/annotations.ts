import * as core from '@actions/core';
import { inReportOrder, isFailing, type RunOutcome, verdictOf } from '../outcome.js';
import { oneLine, UNTITLED } from './escape.js';
import { plural, statusLabel } from './labels.js';

// GitHub shows ten errors per step, and the step's own failure message (core.setFailed) is one.
const MAX_ERRORS = 9;
const MAX_WARNINGS = 10;

function titleOf(title: string): string {
  return oneLine(title, 200) || UNTITLED;
}

/**
 * One error per failing test case and one warning per flaky one (when flaky ones don't fail the
 * step), in report order, each kind capped with one notice for the rest.
 * `summary` says whether the job summary (which lists them all) is written.
 */
export function annotate(outcome: RunOutcome, summary: boolean): void {
  if (outcome.status === 'STARTED') return;
  const where = summary ? 'the job summary lists them' : 'the results file lists them';
  const runId = outcome.runId === undefined ? '' : ` in run ${oneLine(outcome.runId, 100)}`;

  const failing = inReportOrder(
    outcome.testCases.filter((testCase) => isFailing(testCase, outcome.failOnFlaky)),
  );
  for (const testCase of failing.slice(0, MAX_ERRORS)) {
    core.error(`Test case ${oneLine(statusLabel(testCase), 60)}${runId}`, { title: titleOf(testCase.title) });
  }
  if (failing.length > MAX_ERRORS) {
    const more = failing.length - MAX_ERRORS;
    core.notice(`${plural(more, 'more test case')} failed; ${where}.`, {
      title: `${failing.length} test cases failed`,
    });
  }

  if (outcome.status === 'PASSED' && outcome.counts.total === 0) {
    core.warning('The run passed but reported no test case.');
  }

  // With fail-on-flaky, flaky test cases are errors above.
  const flaky = outcome.failOnFlaky
    ? []
    : outcome.testCases.filter((testCase) => verdictOf(testCase.status) === 'flaky');
  for (const testCase of flaky.slice(0, MAX_WARNINGS)) {
    core.warning(`Test case is flaky${runId}`, { title: titleOf(testCase.title) });
  }
  if (flaky.length > MAX_WARNINGS) {
    const more = flaky.length - MAX_WARNINGS;
    core.notice(`${plural(more, 'more test case')} ${more === 1 ? 'is' : 'are'} flaky; ${where}.`, {
      title: `${flaky.length} test cases flaky`,
    });
  }
}

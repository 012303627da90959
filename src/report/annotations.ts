import * as core from '@actions/core';
import { oneLine, UNTITLED } from './escape.js';
import { plural } from './format.js';
import type { RunOutcome } from './outcome.js';
import { inReportOrder, isFlakyOnly } from './test-case-status.js';

/** GitHub shows ten annotations of each kind (error, warning, notice) per step. */
const PER_KIND = 10;

/** Annotations of the step that are not about a test case: its warnings and failure messages. */
export interface OtherAnnotations {
  errors: number;
  warnings: number;
}

function titleOf(title: string): string {
  return oneLine(title, 200) || UNTITLED;
}

/**
 * One error per failing test case and one warning per flaky one (when flaky ones don't fail the
 * step), in report order, each kind within what `others` leave of GitHub's ten, and one notice
 * for the rest. `summary` says whether the job summary (which lists them all) is written.
 */
export function annotate(outcome: RunOutcome, summary: boolean, others: OtherAnnotations): void {
  if (outcome.status === 'STARTED') return;
  const where = summary ? 'the job summary lists them' : 'the results file lists them';
  const runId = outcome.runId === undefined ? '' : ` in run ${oneLine(outcome.runId, 100)}`;

  const noTestCase = outcome.status === 'PASSED' && outcome.counts.total === 0;
  const maxErrors = Math.max(0, PER_KIND - others.errors);
  const maxWarnings = Math.max(0, PER_KIND - others.warnings - (noTestCase ? 1 : 0));

  const failing = inReportOrder(outcome.testCases).filter((testCase) => testCase.verdict.fails);
  for (const testCase of failing.slice(0, maxErrors)) {
    core.error(`Test case ${oneLine(testCase.verdict.label, 60)}${runId}`, {
      title: titleOf(testCase.title),
    });
  }
  if (failing.length > maxErrors) {
    const more = failing.length - maxErrors;
    core.notice(`${plural(more, 'more test case')} failed; ${where}.`, {
      title: `${failing.length} test cases failed`,
    });
  }

  if (noTestCase) {
    core.warning('The run passed but reported no test case.');
  }

  // With fail-on-flaky, flaky test cases are errors above.
  const flaky = outcome.testCases.filter(isFlakyOnly);
  for (const testCase of flaky.slice(0, maxWarnings)) {
    core.warning(`Test case is flaky${runId}`, { title: titleOf(testCase.title) });
  }
  if (flaky.length > maxWarnings) {
    const more = flaky.length - maxWarnings;
    core.notice(`${plural(more, 'more test case')} ${more === 1 ? 'is' : 'are'} flaky; ${where}.`, {
      title: `${flaky.length} test cases flaky`,
    });
  }
}

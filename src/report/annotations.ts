import { annotationsLeft, error, notice, warning } from '../runner/log.js';
import { line, safe } from '../runner/text.js';
import { UNTITLED } from './escape.js';
import { plural } from './format.js';
import type { RunOutcome } from './outcome.js';
import { isFlakyOnly } from './test-case-status.js';

function annotationTitle(title: string) {
  return safe(title, 200) || safe(UNTITLED);
}

/** Within what the step's other annotations leave of GitHub's ten of each kind: so called last. */
export function annotate(outcome: RunOutcome, summary: boolean): void {
  if (outcome.status === 'STARTED') return;
  const where = summary ? 'the job summary lists them' : 'the results file lists them';
  const runId = outcome.runId === undefined ? '' : ` in run ${safe(outcome.runId, 100)}`;

  if (outcome.status === 'PASSED' && outcome.counts.total === 0) {
    warning(line`The run passed but reported no test case.`);
  }

  const failing = outcome.reportOrder.filter((testCase) => testCase.verdict.fails);
  const errors = annotationsLeft('error');
  for (const testCase of failing.slice(0, errors)) {
    error(line`Test case ${safe(testCase.verdict.label, 60)}${runId}`, annotationTitle(testCase.title));
  }
  if (failing.length > errors) {
    const more = plural(failing.length - errors, 'more test case');
    notice(line`${more} failed; ${where}.`, line`${failing.length} test cases failed`);
  }
  // With fail-on-flaky, flaky test cases are errors above.
  const flaky = outcome.testCases.filter(isFlakyOnly);
  const warnings = annotationsLeft('warning');
  for (const testCase of flaky.slice(0, warnings)) {
    warning(line`Test case is flaky${runId}`, annotationTitle(testCase.title));
  }
  if (flaky.length > warnings) {
    const more = flaky.length - warnings;
    notice(
      line`${plural(more, 'more test case')} ${more === 1 ? 'is' : 'are'} flaky; ${where}.`,
      line`${flaky.length} test cases flaky`,
    );
  }
}

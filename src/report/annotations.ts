import { annotationsLeft, error, notice, warning } from '../runner/log.js';
import { line, safe } from '../runner/text.js';
import { UNTITLED } from './escape.js';
import { plural } from './format.js';
import type { RunOutcome, TestCase } from './outcome.js';
import { isFlakyOnly } from './test-case-status.js';

function annotationTitle(title: string) {
  return safe(title, 200) || safe(UNTITLED);
}

/** A test case and which run it is of: ` in run X`, or nothing when the run id is unknown. */
type Annotated = { testCase: TestCase; inRun: string };

/** Up to `max`, the lists' first items in turn, then their second ones, and so on. */
function inTurn<T>(lists: readonly (readonly T[])[], max: number): T[] {
  const taken: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let index = 0; index < longest && taken.length < max; index++) {
    for (const list of lists) {
      const item = list[index];
      if (item !== undefined && taken.length < max) taken.push(item);
    }
  }
  return taken;
}

/**
 * How many test cases `pick` keeps over the targets, and the first `max` of each target's with its
 * run: no more can be annotated, and a run may have thousands.
 */
function picked(
  outcomes: readonly RunOutcome[],
  pick: (testCase: TestCase) => boolean,
  max: number,
): { count: number; lists: Annotated[][] } {
  let count = 0;
  const lists = outcomes.map((outcome) => {
    const inRun = outcome.runId === undefined ? '' : ` in run ${safe(outcome.runId, 100)}`;
    const kept = outcome.reportOrder.filter(pick);
    count += kept.length;
    return kept.slice(0, max).map((testCase) => ({ testCase, inRun }));
  });
  return { count, lists };
}

/**
 * Within what the step's other annotations leave of GitHub's ten of each kind, for all the targets
 * together, the targets taking one in turn: so called last.
 */
export function annotate(outcomes: readonly RunOutcome[], summary: boolean): void {
  const finished = outcomes.filter(({ status }) => status !== 'STARTED');
  const where = summary ? 'the job summary lists them' : 'the results file lists them';
  for (const outcome of finished) {
    if (outcome.status === 'PASSED' && outcome.counts.total === 0) {
      const run = outcomes.length > 1 && outcome.runId !== undefined ? ` ${outcome.runId}` : '';
      warning(line`The run${run} passed but reported no test case.`);
    }
  }

  const errors = annotationsLeft('error');
  const failing = picked(finished, (testCase) => testCase.verdict.fails, errors);
  const failed = failing.count;
  for (const { testCase, inRun } of inTurn(failing.lists, errors)) {
    error(line`Test case ${safe(testCase.verdict.label, 60)}${inRun}`, annotationTitle(testCase.title));
  }
  if (failed > errors) {
    const more = plural(failed - errors, 'more test case');
    notice(line`${more} failed; ${where}.`, line`${failed} test cases failed`);
  }
  // With fail-on-flaky, flaky test cases are errors above.
  const warnings = annotationsLeft('warning');
  const flaky = picked(finished, (testCase) => isFlakyOnly(testCase), warnings);
  const flakyCount = flaky.count;
  for (const { testCase, inRun } of inTurn(flaky.lists, warnings)) {
    warning(line`Test case is flaky${inRun}`, annotationTitle(testCase.title));
  }
  if (flakyCount > warnings) {
    const more = flakyCount - warnings;
    notice(
      line`${plural(more, 'more test case')} ${more === 1 ? 'is' : 'are'} flaky; ${where}.`,
      line`${flakyCount} test cases flaky`,
    );
  }
}

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

/**
 * How many test cases `pick` keeps over the targets, and up to `max` of them with their run, the
 * targets' first ones in turn, then their second ones, and so on.
 */
function picked(
  outcomes: readonly RunOutcome[],
  pick: (testCase: TestCase) => boolean,
  max: number,
): { count: number; taken: Annotated[] } {
  const targets = outcomes.map(({ runId, reportOrder }) => ({
    kept: reportOrder.filter(pick),
    inRun: runId === undefined ? '' : ` in run ${safe(runId, 100)}`,
  }));
  const taken: Annotated[] = [];
  for (let index = 0; index < max; index++) {
    for (const { kept, inRun } of targets) {
      const testCase = kept[index];
      if (testCase !== undefined && taken.length < max) taken.push({ testCase, inRun });
    }
  }
  return { count: targets.reduce((sum, { kept }) => sum + kept.length, 0), taken };
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
  for (const { testCase, inRun } of failing.taken) {
    error(line`Test case ${safe(testCase.verdict.label, 60)}${inRun}`, annotationTitle(testCase.title));
  }
  if (failing.count > errors) {
    const more = plural(failing.count - errors, 'more test case');
    notice(line`${more} failed; ${where}.`, line`${failing.count} test cases failed`);
  }
  // With fail-on-flaky, flaky test cases are errors above.
  const warnings = annotationsLeft('warning');
  const flaky = picked(finished, isFlakyOnly, warnings);
  for (const { testCase, inRun } of flaky.taken) {
    warning(line`Test case is flaky${inRun}`, annotationTitle(testCase.title));
  }
  if (flaky.count > warnings) {
    const more = flaky.count - warnings;
    notice(
      line`${plural(more, 'more test case')} ${more === 1 ? 'is' : 'are'} flaky; ${where}.`,
      line`${flaky.count} test cases flaky`,
    );
  }
}

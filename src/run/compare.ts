import type { Settings } from '../inputs/settings.js';
import { type Digest, titleHash } from '../report/digest.js';
import { comparisonHeadline, plural } from '../report/format.js';
import type { Comparison, RunOutcome, TestCase } from '../report/outcome.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Baseline } from './baseline.js';
import { failureMessage, runName } from './conclude.js';

/**
 * Titles are compared as multisets: failing twice then and three times now is one new failure. A
 * renamed failing test is a new failure, and its old title is not fixed; only a pass now fixes
 * (flaky or skipped now is neither). "Failing" is the step's reading (fail-on-flaky included).
 */
export function compareRuns(
  testCases: readonly TestCase[],
  { digest: previous, against }: { digest: Digest; against: string },
): Comparison {
  const comparison: Comparison = {
    against,
    newFailures: [],
    stillFailing: [],
    fixed: [],
    notCompared: [],
    partial: previous.failingHeldUpTo !== undefined,
  };
  // Per title: how many of its failures then are not yet matched by a failure or a pass now.
  const left = new Map(previous.counts);
  const matched = (hash: string) => {
    const then = left.get(hash) ?? 0;
    if (then > 0) left.set(hash, then - 1);
    return then > 0;
  };
  for (const testCase of testCases) {
    if (!testCase.verdict.fails) continue;
    const hash = titleHash(testCase.title);
    // The digest was cut past this title's hash: it may have failed then too.
    const held = previous.failingHeldUpTo === undefined || hash <= previous.failingHeldUpTo;
    if (!held) comparison.notCompared.push(testCase);
    else if (matched(hash)) comparison.stillFailing.push(testCase);
    else comparison.newFailures.push(testCase);
  }
  // Passes are matched only after every failure now, so that a title both failing and passing
  // now is still failing before it is fixed.
  for (const testCase of testCases) {
    const passed = !testCase.verdict.fails && testCase.verdict.count === 'passed';
    if (passed && matched(titleHash(testCase.title))) comparison.fixed.push(testCase);
  }
  return comparison;
}

/**
 * With fail-on 'new', a finished run whose failures all failed in the baseline too passes the step;
 * a run that did not finish fails it either way; with nothing to compare with, 'new' acts as 'any'.
 */
export function judgeAgainst(
  outcome: RunOutcome,
  baseline: Baseline,
  failOn: Settings['failOn'],
): RunOutcome {
  if (outcome.status === 'STARTED') return outcome;
  const comparison = baseline.kind === 'found' ? compareRuns(outcome.reportOrder, baseline) : undefined;
  const compared = comparison ? { ...outcome, comparison } : outcome;
  if (comparison) info(line`Compared with ${comparison.against}: ${comparisonHeadline(comparison)}.`);
  if (failOn !== 'new' || outcome.success) return compared;
  if (!comparison) {
    const why = baseline.kind === 'none' ? baseline.whyNone : '';
    info(line`fail-on is 'new', but there is nothing to compare with (${why}): any failure fails the step.`);
    return compared;
  }
  const { newFailures, stillFailing, notCompared, against } = comparison;
  const failing = newFailures.length + stillFailing.length + notCompared.length;
  // Only a finished run's test cases tell the step's result.
  if (!['PASSED', 'FAILED'].includes(outcome.status) || failing === 0) return compared;
  const unknown = notCompared.length > 0 ? `${notCompared.length} could not be compared, ` : '';
  if (newFailures.length > 0 || notCompared.length > 0) {
    const why =
      newFailures.length > 0
        ? `${plural(newFailures.length, 'test case')} failed that did not fail in ${against}`
        : `${plural(notCompared.length, 'failing test case')} could not be compared with ${against}, which had more failures than its digest holds`;
    const message = `${runName(outcome)}: ${why} (${unknown}${failing} failing in all; fail-on is 'new').`;
    return { ...compared, message: failureMessage(message, outcome.dashboardUrl) };
  }
  const note = `${plural(failing, 'test case')} failed as in ${against}: with fail-on 'new', known failures do not fail the step.`;
  info(line`${note}`);
  return { ...compared, success: true, message: undefined, notes: [...outcome.notes, note] };
}

import { type Digest, tellsAbout, titleHash } from './comment-digest.js';
import type { Comparison, TestCase } from './outcome.js';

/**
 * Titles are compared as multisets: failing twice then and three times now is one new failure. A
 * renamed failing test is a new failure, and its old title is not fixed; only a pass now fixes
 * (flaky or skipped now is neither). "Failing" is the step's reading (fail-on-flaky included).
 */
export function compareRuns(testCases: readonly TestCase[], previous: Digest): Comparison {
  const comparison: Comparison = {
    newFailures: [],
    stillFailing: [],
    fixed: [],
    notCompared: [],
    partial: previous.failingHeldUpTo !== undefined,
    baseline: previous,
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
    if (!tellsAbout(previous, hash)) comparison.notCompared.push(testCase);
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

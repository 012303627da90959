import { type Digest, tellsAbout, titleHash } from './comment-digest.js';
import type { Comparison, TestCase } from './outcome.js';

/**
 * Compares this run's test cases with the previous run's digest. Titles are compared as multisets:
 * a title failing twice then and three times now is one new failure. A failing test that was
 * renamed is a new failure, and its old title is gone (not fixed: it does not pass now). Only a
 * test that passes now counts as fixed: failing then and flaky or skipped now is neither new nor
 * fixed. "Failing" is the step's own reading (fail-on-flaky included).
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
  /** Per title: how many of its failures then are not yet matched by a failure or a pass now. */
  const failedThen = new Map<string, number>();
  const left = (hash: string) => failedThen.get(hash) ?? previous.counts.get(hash) ?? 0;
  const passing: { testCase: TestCase; hash: string }[] = [];
  for (const testCase of testCases) {
    if (!testCase.verdict.fails) {
      if (testCase.verdict.count === 'passed') passing.push({ testCase, hash: titleHash(testCase.title) });
      continue;
    }
    const hash = titleHash(testCase.title);
    if (!tellsAbout(previous, hash)) {
      comparison.notCompared.push(testCase);
      continue;
    }
    const then = left(hash);
    if (then > 0) {
      comparison.stillFailing.push(testCase);
      failedThen.set(hash, then - 1);
    } else {
      comparison.newFailures.push(testCase);
      failedThen.set(hash, 0);
    }
  }
  // Passes are matched only after every failure now, so that a title both failing and passing
  // now is still failing before it is fixed.
  for (const { testCase, hash } of passing) {
    const then = left(hash);
    if (then === 0) continue;
    comparison.fixed.push(testCase);
    failedThen.set(hash, then - 1);
  }
  return comparison;
}

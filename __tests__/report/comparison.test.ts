import { digestOf } from '../../src/report/digest.js';
import { comparisonHeadline } from '../../src/report/format.js';
import type { TestCase } from '../../src/report/outcome.js';
import { compareRuns } from '../../src/run/compare.js';
import type { TestCaseResult } from '../../src/service/run-driver.js';
import { makeOutcome } from './helpers.js';

/** The test cases of a run, judged as the action judges them. */
const run = (results: TestCaseResult[], failOnFlaky = false): TestCase[] =>
  makeOutcome(results, { failOnFlaky }).testCases;
const failed = (...titles: string[]) => titles.map((title) => ({ title, status: 'FAILED' }));
const passed = (...titles: string[]) => titles.map((title) => ({ title, status: 'PASSED' }));
const titles = (testCases: readonly TestCase[]) => testCases.map((testCase) => testCase.title);

/** What changed from `then` to `now`, by title. */
function compare(then: TestCaseResult[], now: TestCaseResult[]) {
  const comparison = compareRuns(run(now), { digest: digestOf(run(then), undefined), against: 'then' });
  return {
    newFailures: titles(comparison.newFailures),
    stillFailing: titles(comparison.stillFailing),
    fixed: titles(comparison.fixed),
    notCompared: titles(comparison.notCompared),
    partial: comparison.partial,
  };
}

const NOTHING = { newFailures: [], stillFailing: [], fixed: [], notCompared: [], partial: false };

describe('compareRuns', () => {
  test('new, still failing and fixed, by title', () => {
    expect(compare([...failed('A', 'B'), ...passed('C')], [...failed('B', 'C'), ...passed('A')])).toEqual({
      ...NOTHING,
      newFailures: ['C'],
      stillFailing: ['B'],
      fixed: ['A'],
    });
  });

  test('an empty previous run: every failure now is new, nothing is fixed', () => {
    expect(compare([], [...failed('A'), ...passed('B')])).toEqual({ ...NOTHING, newFailures: ['A'] });
    expect(compare(passed('A', 'B'), failed('A', 'B'))).toEqual({ ...NOTHING, newFailures: ['A', 'B'] });
  });

  test('a title that appears several times is counted, not merged', () => {
    // twice failing then, three times now: one of the three is new
    expect(compare(failed('A', 'A'), failed('A', 'A', 'A'))).toEqual({
      ...NOTHING,
      newFailures: ['A'],
      stillFailing: ['A', 'A'],
    });
    // twice then; once failing and once passing now: still failing, and one fixed
    expect(compare(failed('A', 'A'), [...failed('A'), ...passed('A')])).toEqual({
      ...NOTHING,
      stillFailing: ['A'],
      fixed: ['A'],
    });
    // once then; passing twice now: fixed once
    expect(compare(failed('A'), passed('A', 'A'))).toEqual({ ...NOTHING, fixed: ['A'] });
  });

  test('a renamed failing test is one new failure, and its old title is gone, not fixed', () => {
    expect(compare(failed('Checkout works'), failed('Checkout applies the discount'))).toEqual({
      ...NOTHING,
      newFailures: ['Checkout applies the discount'],
    });
  });

  test('flaky then, failing now: a new failure; failing then, flaky or skipped now: neither new nor fixed', () => {
    expect(compare([{ title: 'A', status: 'FLAKY' }], failed('A'))).toEqual({
      ...NOTHING,
      newFailures: ['A'],
    });
    expect(compare([{ title: 'A', status: 'SKIPPED' }], failed('A'))).toEqual({
      ...NOTHING,
      newFailures: ['A'],
    });
    expect(
      compare(failed('A', 'B'), [
        { title: 'A', status: 'FLAKY' },
        { title: 'B', status: 'SKIPPED' },
      ]),
    ).toEqual(NOTHING);
  });

  test('any status that fails the step fails in the comparison too: TIMEDOUT then, ERROR now is still failing', () => {
    expect(compare([{ title: 'A', status: 'TIMEDOUT' }], [{ title: 'A', status: 'ERROR' }])).toEqual({
      ...NOTHING,
      stillFailing: ['A'],
    });
  });

  test('with fail-on-flaky, a flaky test case is failing: flaky then and now is still failing', () => {
    const flaky = [{ title: 'A', status: 'FLAKY' }];
    const comparison = compareRuns(run(flaky, true), {
      digest: digestOf(run(flaky, true), undefined),
      against: 'then',
    });
    expect(titles(comparison.stillFailing)).toEqual(['A']);
  });

  test('a previous run with more failures than its digest holds: titles past what it holds are not compared', () => {
    const then = failed(...Array.from({ length: 20_000 }, (_, i) => `old failure ${i}`));
    const now = failed(...Array.from({ length: 20_000 }, (_, i) => `old failure ${i}`), 'brand new');
    const result = compare(then, now);
    expect(result.partial).toBe(true);
    // every old title is either provably still failing or not compared: none is called new wrongly
    const old = (list: string[]) => list.filter((title) => title !== 'brand new');
    expect(old(result.stillFailing).length + old(result.notCompared).length).toBe(20_000);
    expect(old(result.newFailures)).toEqual([]);
    expect(result.stillFailing.length).toBeGreaterThan(1_500);
    // the new title is new or not compared, by where its hash falls, never still failing
    expect([...result.newFailures, ...result.notCompared]).toContain('brand new');
  });
});

describe('comparisonHeadline', () => {
  test('counts in words, partial said', () => {
    const comparison = compareRuns(run([...failed('C'), ...passed('A', 'B')]), {
      digest: digestOf(run(failed('A', 'B')), undefined),
      against: 'then',
    });
    expect(comparisonHeadline(comparison)).toBe('1 new failure, 2 fixed');
    expect(comparisonHeadline({ ...comparison, newFailures: [], partial: true })).toBe(
      '0 new failures, 2 fixed (compared in part)',
    );
  });
});

import { type TestCase, verdictOf } from '../outcome.js';

/** The status of a test case in words: its raw status, or "did not finish (...)". */
export function statusLabel(testCase: TestCase): string {
  if (verdictOf(testCase.status) === 'unfinished')
    return `did not finish (${testCase.status || 'no status'})`;
  return testCase.status as string;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** "12 test cases: 9 passed, 2 failed, 1 flaky, 0 skipped" */
export function countsLine(counts: {
  total: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
}): string {
  const { total, passed, failed, flaky, skipped } = counts;
  return `${plural(total, 'test case')}: ${passed} passed, ${failed} failed, ${flaky} flaky, ${skipped} skipped`;
}

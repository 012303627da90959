import { inReportOrder, judge } from '../../src/report/test-case-status.js';
import { TEST_CASE_STATUSES } from '../../src/service/interface.js';

/**
 * The contract's table of test case statuses (ACTION-SPEC, "Test case statuses"): what each
 * counts as, whether it fails the step (without / with fail-on-flaky), and how JUnit records it.
 */
const CONTRACT: Record<
  string,
  [count: string, fails: boolean, failsWithFailOnFlaky: boolean, junit: string]
> = {
  PASSED: ['passed', false, false, 'passed'],
  FLAKY: ['flaky', false, true, 'flaky'],
  SKIPPED: ['skipped', false, false, 'skipped'],
  FAILED: ['failed', true, true, 'failure'],
  TIMEDOUT: ['failed', true, true, 'failure'],
  INTERRUPTED: ['failed', true, true, 'failure'],
  ERROR: ['failed', true, true, 'error'],
  CANCELLED: ['failed', true, true, 'unfinished'],
  QUEUED: ['failed', true, true, 'unfinished'],
  RUNNING: ['failed', true, true, 'unfinished'],
  '(no status)': ['failed', true, true, 'unfinished'],
};

const statusOf = (name: string) => (name === '(no status)' ? undefined : name);

test('every status the service knows has a row of the contract, and no other', () => {
  expect([...TEST_CASE_STATUSES, '(no status)'].sort()).toEqual(Object.keys(CONTRACT).sort());
});

test('the verdicts are the contract’s table, whole', () => {
  const actual = Object.fromEntries(
    Object.keys(CONTRACT).map((name) => {
      const verdict = judge(statusOf(name), false);
      return [name, [verdict.count, verdict.fails, judge(statusOf(name), true).fails, verdict.verdict]];
    }),
  );
  expect(actual).toEqual(CONTRACT);
});

test('labels: the status, "did not finish", or a flaky one counted as failed', () => {
  expect(judge('FAILED', false).label).toBe('FAILED');
  expect(judge('RUNNING', false).label).toBe('did not finish (RUNNING)');
  expect(judge(undefined, false).label).toBe('did not finish (no status)');
  expect(judge('FLAKY', false)).toMatchObject({ label: 'FLAKY', icon: '⚠️' });
  expect(judge('FLAKY', true)).toMatchObject({ label: 'FLAKY (counts as failed)', icon: '❌' });
});

test('one shared verdict per status and setting', () => {
  expect(judge('PASSED', false)).toBe(judge('PASSED', false));
  expect(judge('FLAKY', true)).not.toBe(judge('FLAKY', false));
});

test('report order: failures, timed out, interrupted, flaky, skipped, passed; the service’s order within each', () => {
  const statuses = [
    'PASSED',
    'SKIPPED',
    'FLAKY',
    'INTERRUPTED',
    'TIMEDOUT',
    'ERROR',
    'RUNNING',
    'FAILED',
    'PASSED',
  ];
  const cases = statuses.map((status, index) => ({ index, verdict: judge(status, false) }));
  expect(inReportOrder(cases).map(({ index }) => statuses[index])).toEqual([
    'ERROR',
    'RUNNING',
    'FAILED',
    'TIMEDOUT',
    'INTERRUPTED',
    'FLAKY',
    'SKIPPED',
    'PASSED',
    'PASSED',
  ]);
  expect(
    inReportOrder(cases)
      .filter((each) => statuses[each.index] === 'PASSED')
      .map((each) => each.index),
  ).toEqual([0, 8]);
});

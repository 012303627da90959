import { CHECK_RUN_MARKER, CHECK_SUMMARY_MAX, completedCheckRun } from '../../src/report/check-run.js';
import { readRecord } from '../../src/report/record.js';
import { judgedAgainst, makeOutcome } from './helpers.js';

/** 200 characters of three UTF-8 bytes each: the bytes bind before the characters do. */
const wide = (i: number) => `${'試'.repeat(195)} ${String(i).padStart(4, '0')}`;

describe("the check run's output", () => {
  test('10,000 failing test cases with wide titles: the summary within 65,535 characters and UTF-8 bytes, its marker kept; the record within them too', () => {
    const outcome = judgedAgainst(
      makeOutcome(Array.from({ length: 10_000 }, (_, i) => ({ title: wide(i), status: 'FAILED' }))),
      [],
    );
    const { title, summary, text = '' } = completedCheckRun(outcome);
    expect(summary.length).toBeLessThanOrEqual(CHECK_SUMMARY_MAX);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(CHECK_SUMMARY_MAX);
    expect(Buffer.byteLength(summary)).toBeGreaterThan(CHECK_SUMMARY_MAX / 2);
    expect(summary).toContain(CHECK_RUN_MARKER);
    expect(title).toBe(
      '❌ Test run failed: 10000 test cases: 0 passed, 10000 failed, 0 flaky, 0 skipped · 10000 new failures, 0 flaky on main, 0 failing on main, 0 fixed',
    );
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CHECK_SUMMARY_MAX);
    const read = readRecord(text);
    expect(read.kind).toBe('record');
    // A pull request's own result: one column, every row it could hold.
    if (read.kind === 'record') {
      expect(read.record.of).toBe('pull-request');
      expect(read.record.columns).toHaveLength(1);
      expect(read.record.rows.size).toBeLessThan(10_000);
      // the one column may miss rows: a later reader counts a failure without a row as new
      expect(read.record.cut).toBe(1);
    }
  });

  test('a run whose failures are all known passes the gate: its title says so, with no ❌', () => {
    const outcome = makeOutcome([{ title: 'X', status: 'FAILED' }]);
    const known = judgedAgainst(outcome, [{ title: 'X', status: 'FAILED' }], 'new');
    expect(completedCheckRun(known).title).toBe(
      '⚠️ Test run failed, no new failures: 1 test case: 0 passed, 1 failed, 0 flaky, 0 skipped · 0 new failures, 0 flaky on main, 1 failing on main, 0 fixed',
    );
    const newOne = judgedAgainst(makeOutcome([{ title: 'X', status: 'FAILED' }]), [], 'new');
    expect(completedCheckRun(newOne).title).toMatch(/^❌ Test run failed: /);
  });
});

import { CHECK_SUMMARY_MAX, completedCheckRun, digestIn } from '../../src/report/check-run.js';
import { digestOf } from '../../src/report/digest.js';
import { makeOutcome } from './helpers.js';

/** 200 characters of three UTF-8 bytes each: the bytes bind before the characters do. */
const wide = (i: number) => `${'試'.repeat(195)} ${String(i).padStart(4, '0')}`;

describe("the check run's output", () => {
  test('10,000 failing test cases with wide titles: within 65,535 characters and 65,535 UTF-8 bytes, marker and digest kept', () => {
    const outcome = makeOutcome(
      Array.from({ length: 10_000 }, (_, i) => ({ title: wide(i), status: 'FAILED' })),
    );
    const { title, summary } = completedCheckRun(outcome, { owner: 'branch', commit: 'a'.repeat(40) });
    expect(summary.length).toBeLessThanOrEqual(CHECK_SUMMARY_MAX);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(CHECK_SUMMARY_MAX);
    expect(Buffer.byteLength(summary)).toBeGreaterThan(CHECK_SUMMARY_MAX / 2);
    expect(title).toBe('❌ Test run failed: 10000 test cases: 0 passed, 10000 failed, 0 flaky, 0 skipped');
    const digest = digestIn(summary, outcome, 'branch');
    expect(digest?.failing).toBe(10_000);
    // Cut at its cap, as the comment's is: what it holds is read back exactly.
    const whole = digestOf(outcome.reportOrder, undefined);
    expect(digest?.encoded).toBe(whole.encoded);
  });

  test("a pull request's result, or another target's, gives no digest to compare with", () => {
    const outcome = makeOutcome([{ title: 'X', status: 'FAILED' }]);
    const ofPullRequest = completedCheckRun(outcome, { owner: 'pull-request', commit: 'a'.repeat(40) });
    expect(digestIn(ofPullRequest.summary, outcome, 'branch')).toBeUndefined();
    const ofBranch = completedCheckRun(outcome, { owner: 'branch', commit: 'a'.repeat(40) });
    expect(digestIn(ofBranch.summary, outcome, 'branch')?.failing).toBe(1);
    expect(digestIn(ofBranch.summary, { ...outcome, environment: 'production' }, 'branch')).toBeUndefined();
  });
});

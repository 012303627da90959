import { CANCELLED_JOB_BUDGET_MS, JobCancellation, START_GRACE_MS } from '../src/run/signals.js';
import { manualClock } from './helpers/virtual-clock.js';

describe('the cancellation of the job: one deadline, set by the first signal', () => {
  test('the budgets fit before SIGTERM, 7.5 s after SIGINT, with time to report', () => {
    expect(CANCELLED_JOB_BUDGET_MS).toBeLessThanOrEqual(7500 - 1500);
  });

  test('the first signal sets the deadline; a later one (SIGTERM) does not move it', async () => {
    const clock = manualClock();
    const job = new JobCancellation(clock);
    expect(job.deadline).toBeUndefined();
    job.cancel();
    expect(job.signal.aborted).toBe(true);
    expect(job.deadline).toBe(1_000_000 + CANCELLED_JOB_BUDGET_MS);
    await clock.advance(1000);
    job.cancel();
    expect(job.deadline).toBe(1_000_000 + CANCELLED_JOB_BUDGET_MS);
    job.dispose();
  });

  test('a start still in flight is abandoned START_GRACE_MS after the first signal, not before', async () => {
    const clock = manualClock();
    const job = new JobCancellation(clock);
    job.cancel();
    await clock.advance(START_GRACE_MS - 1);
    expect(job.startAbandoned.aborted).toBe(false);
    job.cancel(); // a second signal does not restart the grace
    await clock.advance(1);
    expect(job.startAbandoned.aborted).toBe(true);
    job.dispose();
  });

  test('disposed before the grace ends: the start is never abandoned, later signals are ignored', async () => {
    const clock = manualClock();
    const job = new JobCancellation(clock);
    job.cancel();
    job.dispose();
    await clock.advance(START_GRACE_MS * 2);
    expect(job.startAbandoned.aborted).toBe(false);
    const late = new JobCancellation(clock);
    late.dispose();
    late.cancel();
    expect(late.signal.aborted).toBe(false);
  });
});

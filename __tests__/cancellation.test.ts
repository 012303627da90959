import { CANCELLED_JOB_BUDGET_MS, JobCancellation, START_GRACE_MS } from '../src/run/signals.js';
import type { Clock } from '../src/service/clock.js';

/** A clock that moves only when told to; sleeps resolve as time passes them (or on abort). */
function manualClock(start = 1_000_000) {
  let now = start;
  const sleepers: { until: number; resolve: () => void }[] = [];
  const clock: Clock = {
    now: () => now,
    random: () => 0.5,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        sleepers.push({ until: now + ms, resolve });
        signal?.addEventListener('abort', () => resolve(), { once: true });
      }),
  };
  const advance = async (ms: number) => {
    now += ms;
    for (const sleeper of sleepers.filter((each) => each.until <= now)) sleeper.resolve();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { clock, advance };
}

describe('the cancellation of the job: one deadline, set by the first signal', () => {
  test('the budgets fit before SIGTERM, 7.5 s after SIGINT, with time to report', () => {
    expect(CANCELLED_JOB_BUDGET_MS).toBeLessThanOrEqual(7500 - 1500);
  });

  test('the first signal sets the deadline; a later one (SIGTERM) does not move it', async () => {
    const { clock, advance } = manualClock();
    const job = new JobCancellation(clock);
    expect(job.deadline).toBeUndefined();
    job.cancel();
    expect(job.signal.aborted).toBe(true);
    expect(job.deadline).toBe(1_000_000 + CANCELLED_JOB_BUDGET_MS);
    await advance(1000);
    job.cancel();
    expect(job.deadline).toBe(1_000_000 + CANCELLED_JOB_BUDGET_MS);
    job.dispose();
  });

  test('a start still in flight is abandoned START_GRACE_MS after the first signal, not before', async () => {
    const { clock, advance } = manualClock();
    const job = new JobCancellation(clock);
    job.cancel();
    await advance(START_GRACE_MS - 1);
    expect(job.startAbandoned.aborted).toBe(false);
    job.cancel(); // a second signal does not restart the grace
    await advance(1);
    expect(job.startAbandoned.aborted).toBe(true);
    job.dispose();
  });

  test('disposed before the grace ends: the start is never abandoned, later signals are ignored', async () => {
    const { clock, advance } = manualClock();
    const job = new JobCancellation(clock);
    job.cancel();
    job.dispose();
    await advance(START_GRACE_MS * 2);
    expect(job.startAbandoned.aborted).toBe(false);
    const late = new JobCancellation(clock);
    late.dispose();
    late.cancel();
    expect(late.signal.aborted).toBe(false);
  });
});

import type { Clock } from './clock.js';

/**
 * The one poll loop of the step: `attempt` until it gives a value, a pause between tries
 * (`intervalMs`, or drawn for each pause, with jitter say) cut to the deadline `waitMs` from now,
 * and one last try once a pause has reached it, told so by `last`. Undefined when that last try
 * gives nothing, or once `signal` aborts (no try nor pause after).
 */
export async function pollUntil<T>(
  attempt: (last: boolean) => Promise<T | undefined>,
  wait: { clock: Clock; waitMs: number; intervalMs: number | (() => number); signal?: AbortSignal },
): Promise<T | undefined> {
  const { clock, intervalMs, signal } = wait;
  const deadline = clock.now() + wait.waitMs;
  for (let last = false; !signal?.aborted; last = clock.now() >= deadline) {
    const value = await attempt(last);
    if (value !== undefined || last || signal?.aborted) return value;
    const pause = typeof intervalMs === 'number' ? intervalMs : intervalMs();
    await clock.sleep(Math.max(0, Math.min(pause, deadline - clock.now())), signal);
  }
  return undefined;
}

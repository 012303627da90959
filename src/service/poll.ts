import type { Clock } from './clock.js';

/**
 * The one poll loop: `attempt` until it gives a value, pausing `intervalMs` (or as drawn for each pause)
 * but never past the deadline; the try after a pause that reached it is the `last`. Undefined then, or on abort.
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

import type { Clock } from './clock.js';

/**
 * The one poll loop: `attempt` until it gives a value, pausing `intervalMs` (or as drawn for each pause)
 * but never past the deadline; the try after a pause that reached it is the `last`. Undefined then, or on
 * abort. A try that itself ran past the deadline ends the wait, unless `lastLookWhenLate` (a run's poll,
 * which looks once more at the deadline whatever came before).
 */
export async function pollUntil<T>(
  attempt: (last: boolean) => Promise<T | undefined>,
  wait: {
    clock: Clock;
    waitMs: number;
    intervalMs: number | (() => number);
    signal?: AbortSignal;
    lastLookWhenLate?: boolean;
  },
): Promise<T | undefined> {
  const { clock, intervalMs, signal } = wait;
  const deadline = clock.now() + wait.waitMs;
  for (let last = false; !signal?.aborted; last = clock.now() >= deadline) {
    const value = await attempt(last);
    if (value !== undefined || last || signal?.aborted) return value;
    const remaining = deadline - clock.now();
    if (remaining <= 0 && !wait.lastLookWhenLate) return undefined;
    const pause = typeof intervalMs === 'number' ? intervalMs : intervalMs();
    await clock.sleep(Math.max(0, Math.min(pause, remaining)), signal);
  }
  return undefined;
}

import { setTimeout as delay } from 'node:timers/promises';

/** Time, injected so that retry and poll logic can be tested without sleeping for real. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (it never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1), for jitter. */
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
};

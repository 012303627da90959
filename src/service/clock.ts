import { setTimeout as delay } from 'node:timers/promises';

/** Time, injected so that retry and poll logic can be tested without sleeping for real. */
export interface Clock {
  now(): number;
  /** Never rejects: resolves at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
};

import { setTimeout as delay } from 'node:timers/promises';

/** Every wait and time-out of the step goes through it, so that tests need not wait for real. */
export interface Clock {
  now(): number;
  /** Never rejects: resolves at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A signal that aborts (with a TimeoutError) once `ms` have passed on this clock: a request's time-out. */
  timeout(ms: number): AbortSignal;
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
  timeout: (ms) => AbortSignal.timeout(ms),
};

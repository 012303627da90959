import type { Clock } from '../../src/service/clock.js';

export interface VirtualClock extends Clock {
  /** What the step slept, in order. */
  slept: number[];
  /**
   * Lets `ms` pass without anything sleeping, firing the time-outs it passes: for a request that
   * a server holds (a `hang` fault), once the server has it.
   */
  advance(ms: number): void;
}

/**
 * A clock whose time moves only when the step sleeps (the sleep returns at once) or the test calls
 * advance(), so retry schedules and long outages play out in milliseconds while requests still go
 * over real HTTP. A request's time-out fires when this clock's time passes it, never on the real
 * one: a slow machine cannot time out a request, and a held one is cut as soon as the test lets the
 * time pass. `start` is the time it shows first.
 */
export function virtualClock(random: () => number = () => 0.5, start = Date.now()): VirtualClock {
  let now = start;
  const slept: number[] = [];
  const timeouts = new Set<{ due: number; controller: AbortController }>();
  const advance = (ms: number) => {
    now += ms;
    for (const timeout of timeouts) {
      if (timeout.due > now) continue;
      timeouts.delete(timeout);
      timeout.controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    }
  };
  return {
    slept,
    advance,
    now: () => now,
    random,
    sleep: async (ms) => {
      slept.push(ms);
      advance(ms);
      await new Promise((resolve) => setImmediate(resolve));
    },
    timeout: (ms) => {
      const controller = new AbortController();
      timeouts.add({ due: now + ms, controller });
      return controller.signal;
    },
  };
}

export interface ManualClock extends Clock {
  /** What was asked to be slept, in order. */
  slept: number[];
  /** Moves the time forward: the sleeps and time-outs it passes end. */
  advance(ms: number): Promise<void>;
  /** Resolves once `count` sleeps have been asked for in all (a server's delay has begun). */
  asleep(count?: number): Promise<void>;
}

/**
 * A clock that moves only when the test says: a sleep ends when advance() passes its end or its
 * signal aborts, and a time-out fires when advance() passes it. For what must happen before any
 * time passes.
 */
export function manualClock(start = 1_000_000): ManualClock {
  let now = start;
  const slept: number[] = [];
  const waits = new Set<{ until: number; end: () => void }>();
  const sleepers: { count: number; resolve: () => void }[] = [];
  const wait = (ms: number, end: () => void) => {
    const entry = { until: now + ms, end };
    waits.add(entry);
    return entry;
  };
  return {
    slept,
    now: () => now,
    random: () => 0.5,
    sleep: (ms, signal) => {
      slept.push(ms);
      for (const sleeper of sleepers.filter(({ count }) => count <= slept.length)) {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        sleeper.resolve();
      }
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const entry = wait(ms, resolve);
        signal?.addEventListener('abort', () => waits.delete(entry) && resolve(), { once: true });
      });
    },
    timeout: (ms) => {
      const controller = new AbortController();
      wait(ms, () => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')));
      return controller.signal;
    },
    asleep: (count = 1) =>
      count <= slept.length ? Promise.resolve() : new Promise((resolve) => sleepers.push({ count, resolve })),
    advance: async (ms) => {
      now += ms;
      for (const entry of waits) {
        if (entry.until > now) continue;
        waits.delete(entry);
        entry.end();
      }
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

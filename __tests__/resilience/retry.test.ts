import { jitteredInterval } from '../../src/run/index.js';
import {
  BACKOFF_CAP_MS,
  backoffDelay,
  type Failure,
  isRetryable,
  OUTAGE_BUDGET_MS,
  parseRetryAfter,
  RETRY_AFTER_CAP_MS,
  retryDelay,
  type Stop,
  withRetry,
} from '../../src/service/request.js';
import { describeNetworkError, TransportError } from '../../src/service/transport.js';
import { virtualClock } from '../helpers/in-process.js';

const refused = new TransportError('ECONNREFUSED', 'network', false);
const reset = new TransportError('ECONNRESET', 'network', true);
const noAnswer = new TransportError('no answer within 100 ms', 'timeout', true);
const aborted = new TransportError('aborted', 'aborted', true);
const http = (status: number, retryAfterMs?: number): Failure => ({ status, retryAfterMs });

describe('what each kind of operation retries', () => {
  test.each([
    [refused, true, true],
    [reset, true, false],
    [noAnswer, true, false],
    [aborted, false, false],
    [http(408), true, false],
    [http(429), true, true],
    [http(500), true, false],
    [http(502), true, false],
    [http(503), true, true],
    [http(504), true, false],
    [http(400), false, false],
    [http(401), false, false],
    [http(403), false, false],
    [http(404), false, false],
    [http(409), false, false],
    [http(422), false, false],
  ])('%p: read %p, start %p', (failure, read, start) => {
    expect(isRetryable('read', failure)).toBe(read);
    expect(isRetryable('start', failure)).toBe(start);
  });
});

describe('backoff', () => {
  test('full jitter: up to min(cap, base * 2^attempt)', () => {
    expect(backoffDelay(0, () => 0.999)).toBe(999);
    expect(backoffDelay(3, () => 0.5)).toBe(4000);
    expect(backoffDelay(0, () => 0)).toBe(0);
    expect(backoffDelay(20, () => 0.999)).toBeLessThan(BACKOFF_CAP_MS);
    expect(backoffDelay(20, () => 0.5)).toBe(BACKOFF_CAP_MS / 2);
  });

  test('Retry-After in seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(['3', '9'], now)).toBe(3000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  test('Retry-After of 0 or a past date falls back to backoff', () => {
    expect(retryDelay(http(503, 0), 3, () => 0.5)).toBe(4000);
  });

  test('a refused certificate is never retried, and never reached the service', () => {
    for (const code of [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'CERT_HAS_EXPIRED',
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    ]) {
      const failure = describeNetworkError(
        Object.assign(new Error('tls'), { code }),
        'https://tests.example.com',
      );
      expect(failure).toMatchObject({ kind: 'tls', mayHaveReached: false });
      expect(failure.message).toContain(code);
      expect(isRetryable('read', failure)).toBe(false);
      expect(isRetryable('start', failure)).toBe(false);
    }
    expect(
      describeNetworkError(
        Object.assign(new Error('x'), { code: 'ECONNRESET' }),
        'https://tests.example.com',
      ),
    ).toMatchObject({
      kind: 'network',
      mayHaveReached: true,
    });
  });

  test('Retry-After wins over backoff, bounded', () => {
    expect(retryDelay(http(429, 5000), 0, () => 0.9)).toBe(5000);
    expect(retryDelay(http(503, 3_600_000), 0, () => 0.9)).toBe(RETRY_AFTER_CAP_MS);
    expect(retryDelay(http(503), 2, () => 0.5)).toBe(2000);
  });

  test('poll delays carry about ±10 % jitter around the interval', () => {
    expect(jitteredInterval(5000, () => 0)).toBe(4500);
    expect(jitteredInterval(5000, () => 0.5)).toBe(5000);
    expect(jitteredInterval(5000, () => 0.9999)).toBe(5500);
  });
});

/** The error the tests' retry loops stop with: the Stop, as it is. */
class Stopped extends Error {
  constructor(readonly stop: Stop) {
    super(stop.reason);
  }
}
const stopped = (stop: Stop) => new Stopped(stop);

/** How a retry loop stopped; fails the test if it succeeded. */
async function stopOf(loop: Promise<unknown>): Promise<Stop> {
  const error = await loop.then(
    () => new Error('expected the retry loop to give up'),
    (reason: unknown) => reason,
  );
  if (error instanceof Stopped) return error.stop;
  throw error;
}

/** An attempt function that fails with the given failures in turn, then succeeds. */
function scripted(failures: Failure[]) {
  let calls = 0;
  const attempt = async () => {
    const failure = failures[calls++];
    return failure ? { ok: false as const, failure } : { ok: true as const, value: `ok after ${calls}` };
  };
  return { attempt, calls: () => calls };
}

describe('withRetry', () => {
  test('retries a read through transient failures, sleeping the backoff between attempts', async () => {
    const clock = virtualClock(() => 0.5);
    const { attempt, calls } = scripted([http(503), reset, noAnswer, http(502)]);
    await expect(
      withRetry('read', { clock, stopped, deadline: clock.now() + 3_600_000 }, attempt),
    ).resolves.toBe('ok after 5');
    expect(calls()).toBe(5);
    expect(clock.slept).toEqual([500, 1000, 2000, 4000]);
  });

  test('honours Retry-After', async () => {
    const clock = virtualClock();
    const { attempt } = scripted([http(429, 7000)]);
    await withRetry('read', { clock, stopped, deadline: clock.now() + 60_000 }, attempt);
    expect(clock.slept).toEqual([7000]);
  });

  test('a read rides out a five-minute outage', async () => {
    const clock = virtualClock(() => 0.99);
    const start = clock.now();
    let calls = 0;
    const attempt = async () => {
      calls++;
      return clock.now() - start < 5 * 60_000
        ? { ok: false as const, failure: http(503) }
        : { ok: true as const, value: 'back' };
    };
    await expect(withRetry('read', { clock, stopped, deadline: start + 3_600_000 }, attempt)).resolves.toBe(
      'back',
    );
    expect(calls).toBeGreaterThan(10);
  });

  test('a read gives up once the outage outlasts the budget', async () => {
    const clock = virtualClock(() => 0.99);
    const start = clock.now();
    const attempt = async () => ({ ok: false as const, failure: http(503) });
    const error = await stopOf(withRetry('read', { clock, stopped, deadline: start + 3_600_000 }, attempt));
    expect(error.reason).toBe('budget');
    expect(error.elapsedMs).toBeGreaterThan(OUTAGE_BUDGET_MS - BACKOFF_CAP_MS);
    expect(error.elapsedMs).toBeLessThanOrEqual(OUTAGE_BUDGET_MS);
  });

  test('stops at the deadline rather than sleeping past it', async () => {
    const clock = virtualClock(() => 0.99);
    const { attempt } = scripted([http(503), http(503), http(503), http(503), http(503)]);
    const error = await stopOf(withRetry('read', { clock, stopped, deadline: clock.now() + 2500 }, attempt));
    expect(error.reason).toBe('deadline');
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeLessThan(2500);
  });

  test('a start is retried after 429, 503 and a refused connection, and nothing else', async () => {
    const clock = virtualClock();
    const retried = scripted([http(429), http(503), refused]);
    await expect(
      withRetry('start', { clock, stopped, deadline: clock.now() + 60_000 }, retried.attempt),
    ).resolves.toBe('ok after 4');
    for (const failure of [http(500), http(502), http(504), reset, noAnswer, http(400)]) {
      const once = scripted([failure]);
      const error = await withRetry(
        'start',
        { clock, stopped, deadline: clock.now() + 60_000 },
        once.attempt,
      ).catch((e) => e.stop);
      expect(error.reason).toBe('not-retryable');
      expect(once.calls()).toBe(1);
    }
  });

  test('a start gives up after a few attempts', async () => {
    const clock = virtualClock();
    const { attempt, calls } = scripted(Array(10).fill(refused));
    const error = await withRetry(
      'start',
      { clock, stopped, deadline: clock.now() + 3_600_000 },
      attempt,
    ).catch((e) => e.stop);
    expect(error.reason).toBe('budget');
    expect(calls()).toBe(5);
  });

  test('an abort stops at once', async () => {
    const clock = virtualClock();
    const controller = new AbortController();
    controller.abort();
    const { attempt, calls } = scripted([http(503), http(503)]);
    const error = await stopOf(
      withRetry(
        'read',
        { clock, stopped, deadline: clock.now() + 60_000, signal: controller.signal },
        attempt,
      ),
    );
    expect(error.reason).toBe('aborted');
    expect(calls()).toBe(1);
  });
});

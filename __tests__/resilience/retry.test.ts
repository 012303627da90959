import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { jitteredInterval } from '../../src/run/index.js';
import { Aborted, DeadlineExceeded, ServiceError } from '../../src/service/errors.js';
import { type Party, type RetryRule, request } from '../../src/service/request.js';
import { describeNetworkError } from '../../src/service/transport.js';
import { type VirtualClock, virtualClock } from '../helpers/virtual-clock.js';
import { Connections, listen } from '../simulator/loopback.js';
import { SERVER_CERT_PATH } from '../simulator/tls-front.js';

/**
 * The retry rules through request(), against a local server that answers each attempt as scripted
 * (then 200), with the virtual clock: what it slept is the delay between attempts.
 */
type Step = number | { status: number; retryAfter: string } | 'reset' | 'hang' | 'slow';

const OUTAGE_BUDGET_MS = 10 * 60_000;
const BACKOFF_CAP_MS = 30_000;
const RETRY_AFTER_CAP_MS = 120_000;

const servers: { server: Server; connections: Connections }[] = [];
let log = '';
beforeEach(() => {
  log = '';
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    log += String(chunk);
    return true;
  });
});
afterEach(async () => {
  jest.restoreAllMocks();
  for (const { server, connections } of servers.splice(0)) await connections.close(server);
});

/** request()'s time-out in these tests, on the virtual clock. */
const REQUEST_TIMEOUT_MS = 500;

/**
 * A 'hang' holds the request and lets the request's time-out pass on `clock`; 'slow' answers 200
 * after 200 real milliseconds.
 */
async function serve(
  script: Step[] | ((hit: number) => Step | undefined),
  clock?: VirtualClock,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const step = typeof script === 'function' ? script(hits++) : script[hits++];
    req.resume();
    if (step === 'hang') clock?.advance(timeoutMs);
    if (step === 'slow') setTimeout(() => res.end('ok'), 200);
    else if (step === 'reset') req.socket.destroy();
    else if (step === undefined) res.end('ok');
    else if (typeof step === 'number') res.writeHead(step).end();
    else if (step !== 'hang') res.writeHead(step.status, { 'retry-after': step.retryAfter }).end();
  });
  const connections = new Connections();
  server.on('connection', (socket) => connections.track(socket));
  servers.push({ server, connections });
  await listen(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, hits: () => hits };
}

/** A URL on which nothing listens: every connection is refused. */
async function refusing(): Promise<string> {
  const server = createServer();
  await listen(server);
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/x`;
}

const SERVICE: Party = {
  name: 'the service',
  errorField: 'error',
  redirect: { otherOrigin: () => 'elsewhere', notARead: 'a write' },
  advice: () => undefined,
  failed: (message, status) => new ServiceError(message, status),
};

interface Options {
  clock?: VirtualClock;
  deadlineMs?: number;
  requestTimeoutMs?: number;
  signal?: AbortSignal;
  stopRetriesOn?: AbortSignal;
}

/** request() under `rule`, with how many retries it announced. */
function send(rule: RetryRule, url: string, options: Options = {}) {
  const clock = options.clock ?? virtualClock();
  const deadline = clock.now() + (options.deadlineMs ?? 3_600_000);
  const method = rule === 'read' ? 'GET' : 'POST';
  const { signal, stopRetriesOn } = options;
  return request(
    SERVICE,
    { name: 'do it', rule, method, url, headers: {} },
    {
      clock,
      deadline,
      signal,
      stopRetriesOn,
      requestTimeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    },
  ).then((answer) => answer.body);
}

/** Whether one failure is retried under `rule`: sent again, and then answered. */
async function retried(rule: RetryRule, failure: Step | 'refused' | 'aborted'): Promise<boolean> {
  if (failure === 'refused') {
    const clock = virtualClock();
    await send(rule, await refusing(), { clock, deadlineMs: 5000 }).catch(() => undefined);
    return clock.slept.length > 0;
  }
  if (failure === 'aborted') {
    const { url, hits } = await serve([]);
    const error = await send(rule, url, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    return !(error instanceof Aborted) || hits() > 0;
  }
  const clock = virtualClock();
  const { url, hits } = await serve([failure], clock);
  const answered = await send(rule, url, { clock }).then(
    () => true,
    () => false,
  );
  expect(hits()).toBe(answered ? 2 : 1);
  return answered;
}

describe('what each kind of operation retries', () => {
  test.each<[Step | 'refused' | 'aborted', boolean, boolean]>([
    ['refused', true, true],
    ['reset', true, false],
    ['hang', true, false],
    ['aborted', false, false],
    [408, true, false],
    [429, true, true],
    [500, true, false],
    [502, true, false],
    [503, true, true],
    [504, true, false],
    [400, false, false],
    [401, false, false],
    [403, false, false],
    [404, false, false],
    [409, false, false],
    [422, false, false],
  ])('%p: read %p, start %p', async (failure, read, start) => {
    expect(await retried('read', failure)).toBe(read);
    expect(await retried('start', failure)).toBe(start);
  });
});

describe('backoff', () => {
  test('full jitter: up to min(cap, base * 2^attempt)', async () => {
    const slept = async (random: () => number, failures: number) => {
      const clock = virtualClock(random);
      await send('read', (await serve(Array(failures).fill(503))).url, { clock });
      return clock.slept;
    };
    expect((await slept(() => 0.999, 1))[0]).toBe(999);
    expect((await slept(() => 0.5, 4))[3]).toBe(4000);
    expect(await slept(() => 0, 1)).toEqual([0]);
    expect((await slept(() => 0.999, 21))[20]).toBeLessThan(BACKOFF_CAP_MS);
    expect((await slept(() => 0.5, 21))[20]).toBe(BACKOFF_CAP_MS / 2);
  });

  test('Retry-After in seconds or as an HTTP date', async () => {
    const slept = async (retryAfter: string, start?: number) => {
      const clock = virtualClock(() => 0.5, start);
      await send('read', (await serve([{ status: 503, retryAfter }])).url, { clock });
      return clock.slept[0];
    };
    expect(await slept('7')).toBe(7000);
    // A date is read on the step's clock, not the machine's: 30 s after the clock's now.
    const start = Date.parse('2030-01-01T00:00:00Z');
    expect(await slept(new Date(start + 30_000).toUTCString(), start)).toBe(30_000);
    // A date in the past, or a value that is neither, falls back to backoff (random 0.5, first attempt).
    expect(await slept('Sun, 22 Nov 2026 09:00:00 GMT')).toBe(500);
    expect(await slept('soon')).toBe(500);
  });

  test('Retry-After of 0 or a past date falls back to backoff', async () => {
    const clock = virtualClock(() => 0.5);
    await send('read', (await serve([503, 503, 503, { status: 503, retryAfter: '0' }])).url, { clock });
    expect(clock.slept[3]).toBe(4000);
  });

  test('a refused certificate is never retried, and never reached the service', async () => {
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
      expect(failure).toMatchObject({ kind: 'tls', mayHaveReached: false, permanent: true });
      expect(failure.message).toContain(code);
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
    // A server whose certificate no CA this process trusts vouches for.
    const key = readFileSync(SERVER_CERT_PATH.replace(/\.crt$/, '.key'));
    const server = createHttpsServer({ cert: readFileSync(SERVER_CERT_PATH), key }, (_req, res) =>
      res.end('ok'),
    );
    const connections = new Connections();
    server.on('secureConnection', (socket) => connections.track(socket));
    servers.push({ server, connections });
    await listen(server);
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    for (const rule of ['read', 'start'] as const) {
      const clock = virtualClock();
      await expect(send(rule, url, { clock })).rejects.toThrow(/TLS error \w+: the service's certificate/);
      expect(clock.slept).toEqual([]);
    }
  });

  test('Retry-After wins over backoff, bounded', async () => {
    const slept = async (steps: Step[]) => {
      const clock = virtualClock(() => 0.9);
      await send('read', (await serve(steps)).url, { clock });
      return clock.slept;
    };
    expect(await slept([{ status: 429, retryAfter: '5' }])).toEqual([5000]);
    expect(await slept([{ status: 503, retryAfter: '3600' }])).toEqual([RETRY_AFTER_CAP_MS]);
    const clock = virtualClock(() => 0.5);
    await send('read', (await serve([503, 503, 503])).url, { clock });
    expect(clock.slept[2]).toBe(2000);
  });

  test('poll delays carry about ±10 % jitter around the interval', () => {
    expect(jitteredInterval(5000, () => 0)).toBe(4500);
    expect(jitteredInterval(5000, () => 0.5)).toBe(5000);
    expect(jitteredInterval(5000, () => 0.9999)).toBe(5500);
  });
});

describe("a request's time-out is on the step's clock, not the machine's", () => {
  test('a held request is cut once the clock passes its time-out, though no real hour passed', async () => {
    const clock = virtualClock();
    const hour = 3_600_000;
    const { url, hits } = await serve(['hang'], clock, hour);
    const error = await send('start', url, { clock, requestTimeoutMs: hour }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^Could not do it: the service did not answer \(no answer within 3600000 ms\)\./,
    );
    expect(hits()).toBe(1);
  });

  test('an answer slower than the time-out in real time is not cut while the clock stands still', async () => {
    const { url, hits } = await serve(['slow']);
    await expect(send('start', url, { requestTimeoutMs: 50 })).resolves.toBe('ok');
    expect(hits()).toBe(1);
  });
});

describe('the retry loop', () => {
  test('retries a read through transient failures, sleeping the backoff between attempts', async () => {
    const clock = virtualClock(() => 0.5);
    const { url, hits } = await serve([503, 'reset', 'hang', 502], clock);
    await expect(send('read', url, { clock })).resolves.toBe('ok');
    expect(hits()).toBe(5);
    expect(clock.slept).toEqual([500, 1000, 2000, 4000]);
    expect(log).toContain('Could not do it (no answer); attempt 4 in 2.0 s.');
  });

  test('honours Retry-After', async () => {
    const clock = virtualClock();
    const { url } = await serve([{ status: 429, retryAfter: '7' }]);
    await send('read', url, { clock, deadlineMs: 60_000 });
    expect(clock.slept).toEqual([7000]);
  });

  test('a read rides out a five-minute outage', async () => {
    const clock = virtualClock(() => 0.99);
    const start = clock.now();
    const { url, hits } = await serve(() => (clock.now() - start < 5 * 60_000 ? 503 : undefined));
    await expect(send('read', url, { clock })).resolves.toBe('ok');
    expect(hits()).toBeGreaterThan(10);
  });

  test('a read gives up once the outage outlasts the budget', async () => {
    const clock = virtualClock(() => 0.99);
    const { url } = await serve(() => 503);
    const error = await send('read', url, { clock }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as Error).message).toMatch(
      /^Could not do it: HTTP 503 \(gave up after \d+ attempts over \d+ min( \d+ s)?\)\.$/,
    );
    const elapsed = clock.slept.reduce((a, b) => a + b, 0);
    expect(elapsed).toBeGreaterThan(OUTAGE_BUDGET_MS - BACKOFF_CAP_MS);
    expect(elapsed).toBeLessThanOrEqual(OUTAGE_BUDGET_MS);
  });

  test('stops at the deadline rather than sleeping past it', async () => {
    const clock = virtualClock(() => 0.99);
    const { url } = await serve([503, 503, 503, 503, 503]);
    const error = await send('read', url, { clock, deadlineMs: 2500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceeded);
    expect((error as Error).message).toBe('The time-out expired while trying to do it.');
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeLessThan(2500);
  });

  test('a start is retried after 429, 503 and a refused connection, and nothing else', async () => {
    const refusals = await serve([429, 503]);
    await expect(send('start', refusals.url, { deadlineMs: 60_000 })).resolves.toBe('ok');
    expect(refusals.hits()).toBe(3);
    expect(await retried('start', 'refused')).toBe(true);
    for (const failure of [500, 502, 504, 'reset', 'hang', 400] as const) {
      const clock = virtualClock();
      const once = await serve([failure], clock);
      await expect(send('start', once.url, { clock, deadlineMs: 60_000 })).rejects.toThrow(ServiceError);
      expect(once.hits()).toBe(1);
      expect(clock.slept).toEqual([]);
    }
  });

  test('no retry is sent with too little time left to be answered: the last failure is the message', async () => {
    // The backoff ends 110 ms before the deadline: a start cut to 110 ms might be taken for one the
    // service acted on without answering.
    const clock = virtualClock(() => 0.99);
    const { url, hits } = await serve([503, 503]);
    const error = await send('start', url, { clock, deadlineMs: 1100 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Could not do it: HTTP 503\b/);
    expect(hits()).toBe(1);
  });

  test('a start gives up after a few attempts', async () => {
    const clock = virtualClock();
    await expect(send('start', await refusing(), { clock })).rejects.toThrow(
      /^Could not do it: network error ECONNREFUSED \(gave up after 5 attempts over [\d.]+ s\)\.$/,
    );
    expect(clock.slept).toHaveLength(4);
  });

  test('an abort stops at once', async () => {
    const { url, hits } = await serve([503, 503]);
    await expect(send('read', url, { signal: AbortSignal.abort() })).rejects.toThrow(Aborted);
    expect(hits()).toBe(0);
    // Stopping the retries lets the request in flight finish, and sends no other.
    const clock = virtualClock();
    await expect(send('read', url, { clock, stopRetriesOn: AbortSignal.abort() })).rejects.toThrow(
      'Could not do it: HTTP 503.',
    );
    expect(hits()).toBe(1);
    expect(clock.slept).toEqual([]);
  });
});

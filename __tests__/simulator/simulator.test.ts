import { afterEach, describe, expect, it } from '@jest/globals';
import { type ManualClock, manualClock } from '../helpers/virtual-clock.js';
import { type Scenario, Simulator } from './simulator.js';

const KEY = 'test-api-key';

let sim: Simulator | undefined;

afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

/** With `clock`, the simulator's time and delays move only when the test advances it. */
async function startSim(scenario?: Scenario, clock?: ManualClock): Promise<Simulator> {
  sim = await Simulator.start(scenario, { clock });
  return sim;
}

interface Answer {
  status: number;
  headers: Headers;
  json: unknown;
}

async function call(
  s: Simulator,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; key?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? KEY}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(s.url + path, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text === '' ? undefined : JSON.parse(text) };
}

const startRun = (s: Simulator, body: unknown = {}, projectId = 'proj-1') =>
  call(s, 'POST', `/v1/projects/${projectId}/runs`, { body });
const getRun = (s: Simulator, runId: string, projectId = 'proj-1') =>
  call(s, 'GET', `/v1/projects/${projectId}/runs/${runId}`);
const cancelRun = (s: Simulator, runId: string, projectId = 'proj-1') =>
  call(s, 'POST', `/v1/projects/${projectId}/runs/cancel`, { body: { where: { runId } } });

describe('authentication', () => {
  it('answers 401 without a key or with a wrong one, and logs those requests', async () => {
    const s = await startSim();
    const none = await call(s, 'POST', '/v1/projects/proj-1/runs', { body: {}, key: null });
    expect(none.status).toBe(401);
    expect(none.json).toEqual({ error: 'Invalid API key' });

    const wrong = await call(s, 'POST', '/v1/projects/proj-1/runs', { body: {}, key: 'nope' });
    expect(wrong.status).toBe(401);

    const noHeader = await call(s, 'GET', '/v1/testSuiteRun/x/status', { key: null });
    expect(noHeader.status).toBe(401);

    expect(s.requests.map((r) => [r.operation, r.n])).toEqual([
      ['startProjectRun', 1],
      ['startProjectRun', 2],
      ['getSuiteRunStatus', 1],
    ]);
    // A 401 creates nothing: the first real run is run-1.
    expect((await startRun(s)).json).toEqual({ runId: 'run-1' });
  });

  it('uses the scenario key', async () => {
    const s = await startSim({ apiKey: 'other-key' });
    expect((await startRun(s)).status).toBe(401);
    const ok = await call(s, 'POST', '/v1/projects/proj-1/runs', { body: {}, key: 'other-key' });
    expect(ok.status).toBe(200);
  });
});

describe('project runs', () => {
  it('follows a statuses script and the observable rules', async () => {
    const s = await startSim({ project: { statuses: ['QUEUED', 'RUNNING', 'PASSED'] } });
    const started = await startRun(s, {
      branch: 'main',
      environment: 'staging',
      playwrightProjectName: 'chromium',
    });
    expect(started).toMatchObject({ status: 200, json: { runId: 'run-1' } });

    const queued = await getRun(s, 'run-1');
    expect(queued.json).toEqual({ status: 'QUEUED', startedAt: null });

    const running = (await getRun(s, 'run-1')).json as Record<string, unknown>;
    expect(Object.keys(running).sort()).toEqual(['branchName', 'startedAt', 'status']);
    expect(running).toMatchObject({ status: 'RUNNING', branchName: 'main' });
    expect(Number.isNaN(Date.parse(running.startedAt as string))).toBe(false);

    const passed = (await getRun(s, 'run-1')).json as Record<string, unknown>;
    expect(passed).toMatchObject({ status: 'PASSED', branchName: 'main', startedAt: running.startedAt });
    const duration = Date.parse(passed.finishedAt as string) - Date.parse(passed.startedAt as string);
    expect(duration).toBeGreaterThan(0);
    const { testCases } = passed.results as { testCases: Record<string, unknown>[] };
    expect(testCases).toHaveLength(3);
    for (const tc of testCases) {
      expect(tc.status).toBe('PASSED');
      expect(Object.keys(tc).sort()).toEqual(['durationMs', 'status', 'title']);
    }

    // The last status repeats.
    expect(((await getRun(s, 'run-1')).json as { status: string }).status).toBe('PASSED');
  });

  it('omits branchName when no branch was sent, and returns scripted test cases as given', async () => {
    const s = await startSim({
      project: {
        statuses: ['RUNNING', 'FAILED'],
        testCases: [{ title: 'a', status: 'FAILED' }, { title: 'b' }],
      },
    });
    await startRun(s);
    expect((await getRun(s, 'run-1')).json).toEqual({ status: 'RUNNING', startedAt: expect.any(String) });
    const failed = (await getRun(s, 'run-1')).json as Record<string, unknown>;
    expect(failed).not.toHaveProperty('branchName');
    expect(failed.results).toEqual({ testCases: [{ title: 'a', status: 'FAILED' }, { title: 'b' }] });
  });

  it('progresses by time when no statuses are given', async () => {
    const clock = manualClock();
    const s = await startSim({ project: { queueMs: 150, runMs: 150, finalStatus: 'FAILED' } }, clock);
    const status = async () => ((await getRun(s, 'run-1')).json as { status: string }).status;
    await startRun(s);
    expect(await status()).toBe('QUEUED');
    await clock.advance(149);
    expect(await status()).toBe('QUEUED');
    await clock.advance(1);
    expect(await status()).toBe('RUNNING');
    await clock.advance(149);
    expect(await status()).toBe('RUNNING');
    await clock.advance(1);
    const done = (await getRun(s, 'run-1')).json as Record<string, string>;
    expect(done.status).toBe('FAILED');
    expect(Date.parse(done.startedAt as string)).toBe(clock.now() - 150);
    expect(Date.parse(done.finishedAt as string) - Date.parse(done.startedAt as string)).toBe(150);
  });

  it('defaults to an immediately passing run', async () => {
    const s = await startSim();
    await startRun(s);
    const run = (await getRun(s, 'run-1')).json as Record<string, unknown>;
    expect(run.status).toBe('PASSED');
    expect(run).toHaveProperty('results.testCases');
  });

  it('cancels a running run: CANCELLED, finishedAt, no results', async () => {
    const s = await startSim({ project: { statuses: ['RUNNING'] } });
    await startRun(s, { branch: 'dev' });
    await getRun(s, 'run-1');
    const cancel = await cancelRun(s, 'run-1');
    expect(cancel).toMatchObject({ status: 200, json: {} });
    expect(s.cancelledRunIds).toEqual(['run-1']);
    const run = (await getRun(s, 'run-1')).json as Record<string, string>;
    expect(run.status).toBe('CANCELLED');
    expect(run).not.toHaveProperty('results');
    expect(Date.parse(run.finishedAt as string)).toBeGreaterThan(Date.parse(run.startedAt as string));
  });

  it('cancels a queued run without a startedAt', async () => {
    const s = await startSim({ project: { queueMs: 60_000 } });
    await startRun(s);
    await cancelRun(s, 'run-1');
    const run = (await getRun(s, 'run-1')).json as Record<string, string>;
    expect(run.status).toBe('CANCELLED');
    expect(run).not.toHaveProperty('startedAt');
    expect(run).toHaveProperty('finishedAt');
  });

  it('leaves a finished run as it was when cancelled', async () => {
    const s = await startSim({ project: { statuses: ['RUNNING', 'PASSED'] } });
    await startRun(s);
    await getRun(s, 'run-1');
    await getRun(s, 'run-1');
    expect((await cancelRun(s, 'run-1')).status).toBe(200);
    expect(s.cancelledRunIds).toEqual(['run-1']);
    const run = (await getRun(s, 'run-1')).json as Record<string, unknown>;
    expect(run.status).toBe('PASSED');
    expect(run).toHaveProperty('results');
  });

  it('answers 404 with exactly one error property for unknown runs, projects and paths', async () => {
    const s = await startSim({ knownProjectIds: ['proj-1'] });
    const unknownRun = await getRun(s, 'run-9');
    expect(unknownRun).toMatchObject({ status: 404, json: { error: 'Run run-9 not found' } });
    expect(Object.keys(unknownRun.json as object)).toEqual(['error']);

    const unknownProject = await startRun(s, {}, 'proj-2');
    expect(unknownProject).toMatchObject({ status: 404, json: { error: 'Project proj-2 not found' } });
    expect(s.count('startProjectRun')).toBe(1);

    const cancelUnknown = await cancelRun(s, 'run-9');
    expect(cancelUnknown).toMatchObject({ status: 404, json: { error: 'Run run-9 not found' } });
    expect(s.cancelledRunIds).toEqual([]);

    const other = await call(s, 'GET', '/v2/whatever');
    expect(other).toMatchObject({ status: 404, json: { error: 'Not found' } });
    const wrongMethod = await call(s, 'DELETE', '/v1/projects/proj-1/runs/run-1');
    expect(wrongMethod).toMatchObject({ status: 404, json: { error: 'Not found' } });
    expect(s.requests.at(-1)?.operation).toBe('unknown');
  });

  it('does not show a run through another project', async () => {
    const s = await startSim();
    await startRun(s, {}, 'proj-a');
    expect((await getRun(s, 'run-1', 'proj-b')).status).toBe(404);
    expect((await getRun(s, 'run-1', 'proj-a')).status).toBe(200);
  });

  it('rejects an invalid JSON body with 400', async () => {
    const s = await startSim();
    const res = await call(s, 'POST', '/v1/projects/proj-1/runs', { rawBody: '{not json' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.any(String) });
    expect(s.requests[0]?.body).toBe('{not json');
  });

  it('creates runs directly', async () => {
    const s = await startSim();
    const id = s.createProjectRun('proj-1', { statuses: ['INTERRUPTED'] });
    expect(((await getRun(s, id)).json as { status: string }).status).toBe('INTERRUPTED');
  });
});

describe('suite runs', () => {
  it('starts, reports status and result', async () => {
    const s = await startSim({
      suite: {
        statuses: ['RUNNING', 'RUNNING', 'FINISHED'],
        testCases: [
          { title: 'one', status: 'PASSED' },
          { title: 'two', status: 'FLAKY' },
          { title: 'three' },
        ],
      },
    });
    const options = { numberOfWorkers: 2, retries: 1, metadata: { git: { branch: 'main' }, note: 'hi' } };
    const started = await call(s, 'POST', '/v1/testSuite/suite-1/run', { body: options });
    expect(started).toMatchObject({
      status: 200,
      json: {
        projectId: 'proj-1',
        testSuiteRunId: 'suite-run-1',
        testSuiteName: 'Smoke suite',
        options: { ...options, environment: 'ALL' },
      },
    });

    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(s, 'GET', '/v1/testSuiteRun/suite-run-1/status');
      expect(Object.keys(res.json as object)).toEqual(['status']);
      statuses.push((res.json as { status: string }).status);
    }
    expect(statuses).toEqual(['RUNNING', 'RUNNING', 'FINISHED', 'FINISHED']);

    const result = await call(s, 'GET', '/v1/testSuiteRun/suite-run-1/result');
    const body = result.json as { results: Record<string, unknown>[] };
    expect(body).toMatchObject({
      projectId: 'proj-1',
      testSuiteRunId: 'suite-run-1',
      testSuiteName: 'Smoke suite',
    });
    expect(body.results.map((r) => [r.testName, r.status])).toEqual([
      ['one', 'PASSED'],
      ['two', 'FLAKY'],
      ['three', undefined],
    ]);
    expect(body.results[2]).not.toHaveProperty('status');
    for (const r of body.results) {
      expect(typeof r.runId).toBe('string');
      expect(typeof r.testId).toBe('string');
    }
  });

  it('echoes a given environment, defaults status to RUNNING then FINISHED, and knows its ids', async () => {
    const s = await startSim({
      knownSuiteIds: ['suite-1'],
      suite: { testSuiteName: 'Nightly', projectId: 'p-9' },
    });
    const started = await call(s, 'POST', '/v1/testSuite/suite-1/run', { body: { environment: 'STAGING' } });
    expect(started.json).toEqual({
      projectId: 'p-9',
      testSuiteRunId: 'suite-run-1',
      testSuiteName: 'Nightly',
      options: { environment: 'STAGING' },
    });
    const a = await call(s, 'GET', '/v1/testSuiteRun/suite-run-1/status');
    const b = await call(s, 'GET', '/v1/testSuiteRun/suite-run-1/status');
    expect([a.json, b.json]).toEqual([{ status: 'RUNNING' }, { status: 'FINISHED' }]);

    const unknownSuite = await call(s, 'POST', '/v1/testSuite/suite-2/run', { body: {} });
    expect(unknownSuite).toMatchObject({ status: 404, json: { error: 'Test suite suite-2 not found' } });
    const unknownRun = await call(s, 'GET', '/v1/testSuiteRun/nope/result');
    expect(unknownRun.status).toBe(404);
    expect(Object.keys(unknownRun.json as object)).toEqual(['error']);

    const direct = s.createSuiteRun('suite-1', { statuses: ['FINISHED'] });
    expect((await call(s, 'GET', `/v1/testSuiteRun/${direct}/status`)).json).toEqual({ status: 'FINISHED' });
  });
});

describe('prefix', () => {
  it('serves the API under the prefix only', async () => {
    const s = await startSim({ prefix: '/api' });
    expect(s.url).toBe(`${s.origin}/api`);
    expect(s.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await startRun(s)).json).toEqual({ runId: 'run-1' });
    const bare = await fetch(`${s.origin}/v1/projects/proj-1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(bare.status).toBe(404);
    expect(await bare.json()).toEqual({ error: 'Not found' });
    expect(s.requests.at(-1)?.path).toBe('/v1/projects/proj-1/runs');
    expect(s.requests[0]?.path).toBe('/api/v1/projects/proj-1/runs');
  });
});

describe('faults', () => {
  it('status: answers the status with Retry-After, and a faulted start creates no run', async () => {
    const s = await startSim({
      faults: [
        {
          operation: 'startProjectRun',
          requests: [1],
          fault: { kind: 'status', status: 503, retryAfter: '2' },
        },
      ],
    });
    const first = await startRun(s);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(first.json).toEqual({ error: 'Service Unavailable' });
    expect((await getRun(s, 'run-1')).status).toBe(404);

    const second = await startRun(s);
    expect(second.json).toEqual({ runId: 'run-1' });
    expect(s.count('startProjectRun')).toBe(2);
    expect(s.requests.filter((r) => r.operation === 'startProjectRun').map((r) => r.n)).toEqual([1, 2]);
  });

  it('status: custom body, ranges and "all"; a faulted GET does not advance the script', async () => {
    const s = await startSim({
      project: { statuses: ['RUNNING', 'PASSED'] },
      faults: [
        {
          operation: 'getProjectRun',
          requests: { from: 2, to: 3 },
          fault: { kind: 'status', status: 500, body: { x: 1 } },
        },
        { operation: 'getProjectRun', requests: { from: 2 }, fault: { kind: 'status', status: 502 } },
        { operation: 'getSuiteRunStatus', requests: 'all', fault: { kind: 'status', status: 429 } },
      ],
    });
    await startRun(s);
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await getRun(s, 'run-1')).status);
    expect(codes).toEqual([200, 500, 500, 502]);
    s.setScenario({ project: { statuses: ['RUNNING', 'PASSED'] } });
    // Only the first GET succeeded, so the next one is the script's second status.
    expect(((await getRun(s, 'run-1')).json as { status: string }).status).toBe('PASSED');
    expect(s.count('getProjectRun')).toBe(5);
  });

  it('reset: the request fails without an answer and creates no run', async () => {
    const s = await startSim({
      faults: [{ operation: 'startProjectRun', requests: [1], fault: { kind: 'reset' } }],
    });
    await expect(startRun(s)).rejects.toThrow();
    expect(s.count('startProjectRun')).toBe(1);
    expect((await startRun(s)).json).toEqual({ runId: 'run-1' });
  });

  it('hang: never answers, and stop() closes the held connections', async () => {
    const s = await startSim({
      faults: [{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'hang' } }],
    });
    await startRun(s);
    // The client gives up once the simulator holds its request: the simulator stays up.
    const gaveUp = new AbortController();
    void s.waitForRequests('getProjectRun').then(() => gaveUp.abort());
    await expect(
      fetch(`${s.url}/v1/projects/proj-1/runs/run-1`, {
        headers: { authorization: `Bearer ${KEY}` },
        signal: gaveUp.signal,
      }),
    ).rejects.toThrow('This operation was aborted');
    // A second hung request still open when stop() is called: stop() ends it, rather than wait for it.
    const pending = fetch(`${s.url}/v1/projects/proj-1/runs/run-1`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    pending.catch(() => undefined);
    await s.waitForRequests('getProjectRun', 2);
    await s.stop();
    await expect(pending).rejects.toThrow('fetch failed');
  });

  it('delay: answers normally once the delay has passed on its clock', async () => {
    const clock = manualClock();
    const s = await startSim(
      { faults: [{ operation: 'startProjectRun', requests: 'all', fault: { kind: 'delay', ms: 150 } }] },
      clock,
    );
    const res = startRun(s);
    await clock.asleep();
    expect(clock.slept).toEqual([150]);
    await clock.advance(150);
    expect((await res).json).toEqual({ runId: 'run-1' });
  });

  it('delay: stop() during a delay does not wait for it', async () => {
    const clock = manualClock();
    const s = await startSim(
      { faults: [{ operation: 'startProjectRun', requests: 'all', fault: { kind: 'delay', ms: 10_000 } }] },
      clock,
    );
    const pending = startRun(s);
    pending.catch(() => undefined);
    await clock.asleep();
    // No time passes: a stop() that waited for the delay would never end.
    await s.stop();
    await expect(pending).rejects.toThrow('fetch failed');
  });

  it('status and reset with afterMs: the answer, or the reset, comes that late', async () => {
    const clock = manualClock();
    const s = await startSim(
      {
        faults: [
          {
            operation: 'startProjectRun',
            requests: [1],
            fault: { kind: 'status', status: 502, afterMs: 150 },
          },
          { operation: 'startProjectRun', requests: [2], fault: { kind: 'reset', afterMs: 150 } },
        ],
      },
      clock,
    );
    const answered = startRun(s);
    await clock.asleep(1);
    expect(clock.slept).toEqual([150]);
    await clock.advance(150);
    expect((await answered).status).toBe(502);
    const reset = startRun(s);
    reset.catch(() => undefined);
    await clock.asleep(2);
    expect(clock.slept).toEqual([150, 150]);
    await clock.advance(150);
    await expect(reset).rejects.toThrow('fetch failed');
    expect(s.cancelledRunIds).toEqual([]);
    // neither created a run
    expect((await startRun(s)).json).toEqual({ runId: 'run-1' });
  });

  it('cut: the start takes effect, the headers arrive, the body is cut short', async () => {
    const s = await startSim({
      faults: [{ operation: 'startProjectRun', requests: [1], fault: { kind: 'cut' } }],
    });
    const res = await fetch(`${s.url}/v1/projects/proj-1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(JSON.stringify({ runId: 'run-1' }).length);
    await expect(res.text()).rejects.toThrow();
    // the run the cut answer named exists: the next one is run-2
    expect((await startRun(s)).json).toEqual({ runId: 'run-2' });
  });

  it('not-json: 200 with an HTML body', async () => {
    const s = await startSim({
      faults: [{ operation: 'getProjectRun', requests: [1], fault: { kind: 'not-json' } }],
    });
    const id = s.createProjectRun('proj-1');
    const res = await fetch(`${s.url}/v1/projects/proj-1/runs/${id}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await res.text()).startsWith('<')).toBe(true);
  });

  it('redirect: the status and Location, with no body', async () => {
    const s = await startSim({
      faults: [
        {
          operation: 'startProjectRun',
          requests: [1],
          fault: { kind: 'redirect', status: 308, location: 'https://elsewhere.example/v1/x' },
        },
      ],
    });
    const res = await fetch(`${s.url}/v1/projects/proj-1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      redirect: 'manual',
    });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('https://elsewhere.example/v1/x');
    expect(await res.text()).toBe('');
    // no run was started: the next one is run-1
    expect((await startRun(s)).json).toEqual({ runId: 'run-1' });
  });

  it('endless: a 200 whose body goes on for as long as the client reads', async () => {
    const s = await startSim({
      faults: [{ operation: 'getProjectRun', requests: [1], fault: { kind: 'endless' } }],
    });
    const res = await fetch(`${s.url}/v1/projects/proj-1/runs/run-1`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let read = 0;
    while (read < 10 * 1024 * 1024) read += ((await reader.read()).value as Uint8Array).length;
    await reader.cancel();
    expect(read).toBeGreaterThanOrEqual(10 * 1024 * 1024);
  });

  it('body: 200 with exactly the given body', async () => {
    const weird = { status: 'PASSED', results: { testCases: 'nope' }, extra: true };
    const s = await startSim({
      faults: [{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'body', body: weird } }],
    });
    const res = await getRun(s, 'whatever');
    expect(res).toMatchObject({ status: 200, json: weird });
  });
});

describe('request log', () => {
  it('records operation, n, method, path, headers and body', async () => {
    const s = await startSim();
    await startRun(s, { branch: 'feature/x' });
    await call(s, 'GET', '/v1/projects/proj-1/runs/run-1', { headers: { 'user-agent': 'my-action/1.2.3' } });
    await getRun(s, 'run-1');
    await call(s, 'GET', '/nowhere');

    expect(s.requests).toHaveLength(4);
    const [start, get1, get2, unknown] = s.requests;
    expect(start).toMatchObject({
      operation: 'startProjectRun',
      n: 1,
      method: 'POST',
      path: '/v1/projects/proj-1/runs',
      body: { branch: 'feature/x' },
    });
    expect(start?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(start?.headers['content-type']).toBe('application/json');
    expect(get1).toMatchObject({ operation: 'getProjectRun', n: 1, method: 'GET', body: undefined });
    expect(get1?.headers['user-agent']).toBe('my-action/1.2.3');
    expect(get2?.n).toBe(2);
    expect(unknown).toMatchObject({ operation: 'unknown', n: 1, path: '/nowhere' });
    expect(typeof start?.at).toBe('number');
    expect(s.count('getProjectRun')).toBe(2);
    expect(s.count('cancelProjectRun')).toBe(0);
  });
});

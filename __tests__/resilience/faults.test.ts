import { readFileSync } from 'node:fs';
import { runInProcess, virtualClock } from '../helpers/in-process.js';
import { projectInputs } from '../helpers/inputs.js';
import { annotations, visibleLog } from '../helpers/runner-files.js';
import { DEFAULT_API_KEY, type FaultRule, type Scenario, Simulator } from '../simulator/simulator.js';

let sim: Simulator;
afterEach(async () => {
  await sim?.stop();
});

const TWO_CASES = [
  { title: 'sign in', status: 'PASSED', durationMs: 10 },
  { title: 'checkout', status: 'PASSED', durationMs: 20 },
];

async function start(faults: FaultRule[], scenario: Scenario = {}): Promise<void> {
  sim = await Simulator.start({
    project: { statuses: ['RUNNING', 'PASSED'], testCases: TWO_CASES },
    faults,
    ...scenario,
  });
}

const inputs = (extra: Record<string, string> = {}) =>
  projectInputs(sim, { 'request-timeout': '2s', ...extra });

function failureMessage(log: string): string {
  return annotations(log, 'error').at(-1) ?? '';
}

describe('transient faults on reads are retried', () => {
  test('a burst of 503s on polls', async () => {
    await start([
      { operation: 'getProjectRun', requests: { from: 1, to: 4 }, fault: { kind: 'status', status: 503 } },
    ]);
    const clock = virtualClock();
    const result = await runInProcess(inputs(), { clock });
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true', total: '2' });
    expect(sim.count('getProjectRun')).toBe(6);
    expect(sim.count('startProjectRun')).toBe(1);
    expect(result.log).toMatch(
      /Could not get project run 'run-1' of project 'proj-1' \(HTTP 503\); attempt 2 in/,
    );
  });

  // The step's clock starts on a whole second: an HTTP date 5 s after it is a wait of exactly 5 s.
  test.each([
    ['seconds', () => '3', 3000],
    ['an HTTP date', (now: number) => new Date(now + 5000).toUTCString(), 5000],
  ])('429 with Retry-After as %s is honoured', async (_name, retryAfter, waitMs) => {
    const clock = virtualClock(undefined, Math.ceil(Date.now() / 1000) * 1000);
    await start([
      {
        operation: 'getProjectRun',
        requests: [1],
        fault: { kind: 'status', status: 429, retryAfter: retryAfter(clock.now()) },
      },
    ]);
    const result = await runInProcess(inputs(), { clock });
    expect(result.outputs.status).toBe('PASSED');
    expect(Math.max(...clock.slept)).toBe(waitMs);
  });

  test('a connection reset on a poll', async () => {
    await start([{ operation: 'getProjectRun', requests: [1, 2], fault: { kind: 'reset' } }]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(result.outputs.status).toBe('PASSED');
    expect(sim.count('getProjectRun')).toBe(4);
  });

  test('a poll answer cut mid-body (headers sent, then a reset) is retried at once, not after request-timeout', async () => {
    await start([{ operation: 'getProjectRun', requests: [2], fault: { kind: 'cut' } }], {
      project: { statuses: ['RUNNING', 'RUNNING', 'PASSED'], testCases: TWO_CASES },
    });
    // On the virtual clock the request-timeout passes only when the step sleeps through it: a step
    // that waited for it would never retry.
    const result = await runInProcess(inputs({ 'request-timeout': '30s' }), { clock: virtualClock() });
    expect(result.outputs).toMatchObject({ status: 'PASSED', total: '2' });
    expect(result.log).toMatch(
      /Could not get project run 'run-1' of project 'proj-1' \(ECONNRESET\); attempt 2 in/,
    );
  });

  test('a poll that never gets an answer is cut by request-timeout and retried', async () => {
    await start([{ operation: 'getProjectRun', requests: [1], fault: { kind: 'hang' } }]);
    const clock = virtualClock();
    // Once the simulator holds the poll, 300 ms pass.
    void sim.waitForRequests('getProjectRun').then(() => clock.advance(300));
    const result = await runInProcess(inputs({ 'request-timeout': '300ms' }), { clock });
    expect(result.outputs.status).toBe('PASSED');
    expect(sim.count('getProjectRun')).toBe(3);
    expect(result.log).toMatch(/\(no answer\); attempt 2/);
  });

  test('a five-minute outage of polls is ridden out', async () => {
    const clock = virtualClock();
    const outageEnd = clock.now() + 5 * 60_000;
    await start([]);
    // 503 until five (virtual) minutes have passed: the first poll that arrives after them is answered.
    sim.setScenario({
      project: { statuses: ['RUNNING', 'PASSED'], testCases: TWO_CASES },
      faults: [{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'status', status: 503 } }],
    });
    // (A request's fault is chosen after its arrival resolves waitForRequests: the switch comes first.)
    let polls = 0;
    const outage = (async () => {
      do await sim.waitForRequests('getProjectRun', ++polls);
      while (clock.now() < outageEnd);
      sim.setScenario({ project: { statuses: ['RUNNING', 'PASSED'], testCases: TWO_CASES } });
    })();
    const result = await runInProcess(inputs(), { clock });
    await outage;
    expect(result.outputs.status).toBe('PASSED');
    expect(polls).toBeGreaterThan(5);
  });

  test('an outage longer than the budget fails with ERROR, naming the run id and the last error', async () => {
    await start([{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'status', status: 502 } }]);
    const result = await runInProcess(inputs({ timeout: '2h' }), { clock: virtualClock() });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'ERROR', success: 'false' });
    expect(failureMessage(result.log)).toMatch(
      /Could not get project run 'run-1' of project 'proj-1': HTTP 502: Bad Gateway \(gave up after \d+ attempts over (9 min \d+ s|10 min)\)/,
    );
  });
});

describe('a start is never repeated unless the service cannot have acted on it', () => {
  test.each([502, 500, 504])(
    'a start that gets %d: exactly one start request, the step fails',
    async (status) => {
      await start([{ operation: 'startProjectRun', requests: [1], fault: { kind: 'status', status } }]);
      const result = await runInProcess(inputs(), { clock: virtualClock() });
      expect(sim.count('startProjectRun')).toBe(1);
      expect(sim.count('getProjectRun')).toBe(0);
      expect(result.exitCode).toBe(1);
      expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
      expect(result.outputs['run-id']).toBeUndefined();
      expect(failureMessage(result.log)).toMatch(
        new RegExp(
          `Could not start a project run for project 'proj-1': HTTP ${status}.*may have started the run anyway`,
        ),
      );
    },
  );

  test('a start whose connection is reset: one request, may have started', async () => {
    await start([{ operation: 'startProjectRun', requests: [1], fault: { kind: 'reset' } }]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(sim.count('startProjectRun')).toBe(1);
    expect(failureMessage(result.log)).toMatch(/network error ECONNRESET.*may have started the run anyway/);
  });

  test('a start whose answer is cut mid-body: one request, may have started', async () => {
    await start([{ operation: 'startProjectRun', requests: [1], fault: { kind: 'cut' } }]);
    const result = await runInProcess(inputs({ 'request-timeout': '30s' }), { clock: virtualClock() });
    expect(sim.count('startProjectRun')).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
    expect(failureMessage(result.log)).toMatch(/network error ECONNRESET.*may have started the run anyway/);
  });

  test('a start that gets no answer: one request, may have started', async () => {
    await start([{ operation: 'startProjectRun', requests: [1], fault: { kind: 'hang' } }]);
    const clock = virtualClock();
    void sim.waitForRequests('startProjectRun').then(() => clock.advance(200));
    const result = await runInProcess(inputs({ 'request-timeout': '200ms' }), { clock });
    expect(sim.count('startProjectRun')).toBe(1);
    expect(failureMessage(result.log)).toMatch(/did not answer.*may have started the run anyway/);
  });

  test.each([503, 429])('a start that gets %d, then succeeds: exactly one run is created', async (status) => {
    await start([{ operation: 'startProjectRun', requests: [1, 2], fault: { kind: 'status', status } }]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(sim.count('startProjectRun')).toBe(3);
    expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'PASSED' });
    const polled = new Set(sim.requests.filter((r) => r.operation === 'getProjectRun').map((r) => r.path));
    expect([...polled]).toEqual(['/v1/projects/proj-1/runs/run-1']);
  });

  test('a refused connection is retried a few times, then fails clearly', async () => {
    await start([]);
    const url = sim.url;
    await sim.stop();
    const result = await runInProcess(inputs({ 'base-url': url }), { clock: virtualClock() });
    expect(result.outputs.status).toBe('ERROR');
    expect(failureMessage(result.log)).toMatch(
      /Could not start a project run for project 'proj-1': network error ECONNREFUSED \(gave up after 5 attempts/,
    );
    expect(result.log.match(/attempt \d in/g)).toHaveLength(4);
  });
});

describe('errors a retry cannot fix', () => {
  test('401: the key is wrong or lacks permission; not retried; the key is not shown', async () => {
    await start([]);
    const result = await runInProcess(inputs({ 'api-key': 'wrong-key' }), { clock: virtualClock() });
    expect(sim.requests).toHaveLength(1);
    expect(result.outputs.status).toBe('ERROR');
    expect(failureMessage(result.log)).toMatch(
      /HTTP 401: Invalid API key\. The API key is wrong or lacks permission: .*developer or owner permission/,
    );
    expect(visibleLog(result.log)).not.toContain('wrong-key');
  });

  test('403 says the same', async () => {
    await start([{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'status', status: 403 } }]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(sim.count('getProjectRun')).toBe(1);
    expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'ERROR' });
    expect(failureMessage(result.log)).toMatch(/HTTP 403.*lacks permission/);
  });

  test('404 on start names the project', async () => {
    await start([], { knownProjectIds: ['other'] });
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(failureMessage(result.log)).toMatch(
      /HTTP 404: Project proj-1 not found\. Project 'proj-1' was not found: check the 'project-id' input/,
    );
  });

  test('404 on a poll names the run', async () => {
    await start([]);
    const result = await runInProcess(inputs({ 'run-id': 'run-404' }), { clock: virtualClock() });
    expect(result.outputs).toMatchObject({ 'run-id': 'run-404', status: 'ERROR' });
    expect(failureMessage(result.log)).toMatch(/HTTP 404.*Run 'run-404' was not found in project 'proj-1'/);
  });

  test('a body that is not JSON names the operation', async () => {
    await start([{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'not-json' } }]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(result.outputs.status).toBe('ERROR');
    expect(failureMessage(result.log)).toMatch(
      /Could not get project run 'run-1' of project 'proj-1': the response is not JSON \(HTTP 200, content-type text\/html/,
    );
    expect(result.log).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  test.each([
    [
      'a missing required field',
      { startedAt: null },
      /field 'status' is missing: it must be one of QUEUED, RUNNING, PASSED/,
    ],
    [
      'a wrong type',
      { status: 'PASSED', results: { testCases: 'all' } },
      /field 'results.testCases' must be a list of \{title: string, status: QUEUED \| .*\}; got the string 'all'/,
    ],
    [
      'an unknown status',
      { status: 'EXPLODED' },
      /field 'status' must be one of .*; got the string 'EXPLODED'/,
    ],
    [
      'an unknown test case status',
      { status: 'PASSED', results: { testCases: [{ title: 'a', status: 'WEIRD' }] } },
      /field 'results.testCases\[0\].status' must be one of/,
    ],
  ])('a body with %s names the field', async (_name, body, message) => {
    await start([{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'body', body } }]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(result.outputs.status).toBe('ERROR');
    expect(failureMessage(result.log)).toMatch(/the response does not match the service interface/);
    expect(failureMessage(result.log)).toMatch(message);
  });

  test('extra fields are tolerated', async () => {
    const body = {
      status: 'PASSED',
      startedAt: '2026-01-01T00:00:00Z',
      finishedAt: '2026-01-01T00:00:05Z',
      dashboardUrl: 'https://x',
      results: { testCases: [{ title: 'a', status: 'PASSED', retries: 0 }], extra: true },
    };
    await start([{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'body', body } }]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(result.outputs).toMatchObject({ status: 'PASSED', total: '1', 'duration-ms': '5000' });
  });

  test('a service error text that echoes the key is redacted', async () => {
    await start([
      {
        operation: 'getProjectRun',
        requests: 'all',
        fault: { kind: 'status', status: 400, body: { error: `bad key ${DEFAULT_API_KEY}` } },
      },
    ]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(failureMessage(result.log)).toMatch(/HTTP 400: bad key \*\*\*/);
    expect(visibleLog(result.log)).not.toContain(DEFAULT_API_KEY);
    expect(result.summary).not.toContain(DEFAULT_API_KEY);
  });

  test('a start answered 200 with a body that breaks the interface says a run was probably started', async () => {
    await start([
      { operation: 'startProjectRun', requests: 'all', fault: { kind: 'body', body: { id: 'run-77' } } },
    ]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(sim.count('startProjectRun')).toBe(1);
    expect(result.outputs.status).toBe('ERROR');
    expect(failureMessage(result.log)).toMatch(
      /field 'runId' is missing.*The service accepted the request, so a run was probably started/,
    );
  });
});

describe('fields that only decorate the report never fail a finished run', () => {
  const finished = (testCase: Record<string, unknown>, run: Record<string, unknown> = {}) => ({
    status: 'PASSED',
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:00:05Z',
    results: { testCases: [{ title: 'sign in', status: 'PASSED', ...testCase }] },
    ...run,
  });

  test.each([
    ['negative', -250],
    ['huge', 1e300],
    ['past 31 days', 32 * 24 * 3_600_000],
    ['a string', 'fast'],
    ['an object', { ms: 5 }],
    ['a boolean', true],
  ])(
    'a test case durationMs that is %s is unknown: PASSED, shown as —, one debug line',
    async (_name, durationMs) => {
      await start([
        {
          operation: 'getProjectRun',
          requests: 'all',
          fault: { kind: 'body', body: finished({ durationMs }) },
        },
      ]);
      const result = await runInProcess(inputs(), { clock: virtualClock() });
      expect(result.outputs).toMatchObject({
        status: 'PASSED',
        success: 'true',
        total: '1',
        'duration-ms': '5000',
      });
      expect(result.summary).toContain('<td>sign in</td><td>—</td>');
      const debugLines = result.log.split('\n').filter((text) => text.startsWith('::debug::The service'));
      expect(debugLines).toEqual([
        expect.stringMatching(/^::debug::The service's durationMs of .* is not usable: shown as unknown\.$/),
      ]);
      const results = JSON.parse(readFileSync(result.outputs['results-file'], 'utf8'));
      expect(results.runs[0].testCases[0]).not.toHaveProperty('durationMs');
    },
  );

  test('a fractional durationMs is a duration', async () => {
    await start([
      {
        operation: 'getProjectRun',
        requests: 'all',
        fault: { kind: 'body', body: finished({ durationMs: 1234.5 }) },
      },
    ]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(result.summary).toContain('<td>sign in</td><td>1.2 s</td>');
  });

  test.each([
    [
      'a finishedAt before startedAt',
      { finishedAt: '2025-12-31T23:59:00Z' },
      ['2026-01-01T00:00:00Z', '2025-12-31T23:59:00Z'],
    ],
    [
      'a finishedAt years after startedAt',
      { finishedAt: '2031-01-01T00:00:00Z' },
      ['2026-01-01T00:00:00Z', '2031-01-01T00:00:00Z'],
    ],
    ['a startedAt that is no timestamp', { startedAt: 'yesterday' }, [undefined, '2026-01-01T00:00:05Z']],
    ['a finishedAt that is a number', { finishedAt: 1_767_225_605_000 }, ['2026-01-01T00:00:00Z', undefined]],
  ])('%s: PASSED, duration-ms empty, the duration unknown', async (_name, run, [startedAt, finishedAt]) => {
    await start([
      {
        operation: 'getProjectRun',
        requests: 'all',
        fault: { kind: 'body', body: finished({ durationMs: 5 }, run) },
      },
    ]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true', total: '1' });
    expect(result.outputs['duration-ms']).toBeUndefined();
    expect(result.summary).not.toContain('· Duration');
    const results = JSON.parse(readFileSync(result.outputs['results-file'], 'utf8'));
    expect([results.runs[0].startedAt, results.runs[0].finishedAt, results.runs[0].durationMs]).toEqual([
      startedAt,
      finishedAt,
      undefined,
    ]);
  });

  test('a field that decides the outcome stays strict: a test case without a title is an ERROR', async () => {
    await start([
      { operation: 'getProjectRun', requests: 'all', fault: { kind: 'body', body: finished({ title: 5 }) } },
    ]);
    const result = await runInProcess(inputs(), { clock: virtualClock() });
    expect(result.outputs.status).toBe('ERROR');
    expect(failureMessage(result.log)).toMatch(
      /field 'results.testCases\[0\].title' must be a string; got 5/,
    );
  });
});

describe('a Retry-After that reaches past the time-out', () => {
  test('is not slept through: the step stops at once and says the service asked for a longer wait', async () => {
    await start([
      {
        operation: 'getProjectRun',
        requests: 'all',
        fault: { kind: 'status', status: 429, retryAfter: '86400' },
      },
    ]);
    const clock = virtualClock();
    const result = await runInProcess(inputs({ timeout: '8s' }), { clock });
    expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
    expect(sim.count('getProjectRun')).toBe(1);
    expect(clock.slept).toEqual([]);
    const message = failureMessage(result.log);
    expect(message).toMatch(
      /^::error::Could not get project run 'run-1' of project 'proj-1': HTTP 429: Too Many Requests\. The service asked to wait 24 h \(Retry-After\) before trying again, longer than the [0-9.]+ s left before the time-out \('timeout' input\): the step stopped waiting\.$/,
    );
    expect(message).not.toContain('expired');
    expect(sim.cancelledRunIds).toEqual(['run-1']);
  });
});

describe('an outage that lasts until the time-out', () => {
  test('is an ERROR that names the failure, not a TIMEDOUT', async () => {
    await start([{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'status', status: 502 } }]);
    const result = await runInProcess(inputs({ timeout: '5m' }), { clock: virtualClock() });
    expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'ERROR', success: 'false' });
    expect(failureMessage(result.log)).toMatch(
      /Could not get project run 'run-1' of project 'proj-1': HTTP 502: Bad Gateway.*Still failing when the time-out of 5 min \('timeout' input\) expired/,
    );
    expect(sim.cancelledRunIds).toEqual(['run-1']);
  });
});

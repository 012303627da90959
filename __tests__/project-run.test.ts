import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { firstTable } from './helpers/html.js';
import { runInProcess } from './helpers/in-process.js';
import { projectInputs } from './helpers/inputs.js';
import { annotations, visibleLog } from './helpers/runner-files.js';
import { DEFAULT_API_KEY, Simulator } from './simulator/simulator.js';

const PUSH_ENV = { GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main' };

let sim: Simulator;
afterEach(async () => {
  await sim?.stop();
});

const inputs = (extra: Record<string, string> = {}) => projectInputs(sim, extra);

describe('a project run end to end against the simulator', () => {
  test('a passing run sets the outputs and counts, writes a table row per test case, and sends the branch', async () => {
    sim = await Simulator.start({
      project: {
        statuses: ['QUEUED', 'RUNNING', 'PASSED'],
        testCases: [
          { title: 'login works', status: 'PASSED', durationMs: 1200 },
          { title: 'cart keeps items', status: 'PASSED', durationMs: 800 },
          { title: 'search is fast', status: 'FLAKY', durationMs: 400 },
          { title: 'legacy export', status: 'SKIPPED' },
        ],
      },
    });
    const result = await runInProcess(inputs({ environment: 'staging' }), { env: PUSH_ENV });

    expect(result.exitCode).toBe(0);
    expect(result.outputs).toMatchObject({
      'run-id': 'run-1',
      status: 'PASSED',
      success: 'true',
      total: '4',
      passed: '2',
      failed: '0',
      flaky: '1',
      skipped: '1',
    });
    expect(Number(result.outputs['duration-ms'])).toBeGreaterThan(0);
    const start = sim.requests.find((request) => request.operation === 'startProjectRun');
    expect(start?.body).toEqual({ branch: 'main', environment: 'staging' });
    expect(start?.headers['user-agent']).toMatch(/^test-run-action\/\d+\.\d+\.\d+/);
    expect(start?.headers.authorization).toBe(`Bearer ${DEFAULT_API_KEY}`);
    expect(firstTable(result.summary).rows).toHaveLength(4);
    expect(result.summary).toContain('run-1');
    const resultsFile = JSON.parse(fs.readFileSync(result.outputs['results-file'], 'utf8'));
    expect(resultsFile.schemaVersion).toBe(1);
    expect(resultsFile.runs[0].testCases).toHaveLength(4);
    expect(annotations(result.log, 'warning')).toHaveLength(1);
    expect(result.state).toMatchObject({ isPost: 'true', 'runId-0': 'run-1', 'settled-0': 'true' });
  });

  test('the log shows each status change, QUEUED -> RUNNING -> final, with the time elapsed', async () => {
    sim = await Simulator.start({
      project: { statuses: ['QUEUED', 'QUEUED', 'RUNNING', 'RUNNING', 'FAILED'] },
    });
    const result = await runInProcess(inputs(), { env: PUSH_ENV });
    const elapsed = /^\[(\d+ ms|\d+\.\d s)\] /;
    const changes = result.log.split('\n').filter((line) => elapsed.test(line));
    expect(changes.map((line) => line.replace(elapsed, ''))).toEqual([
      'project run run-1: QUEUED',
      'project run run-1: QUEUED -> RUNNING',
      'project run run-1: RUNNING -> FAILED',
    ]);
    expect(sim.count('getProjectRun')).toBe(5);
    expect(result.outputs.status).toBe('FAILED');
    expect(result.exitCode).toBe(1);
  });

  test('a failing run fails the step, lists failures first, and annotates each failed test case', async () => {
    sim = await Simulator.start({
      project: {
        statuses: ['RUNNING', 'FAILED'],
        testCases: [
          { title: 'home page', status: 'PASSED', durationMs: 100 },
          { title: 'checkout total', status: 'FAILED', durationMs: 2100 },
          { title: 'profile', status: 'PASSED', durationMs: 100 },
          { title: 'payment', status: 'TIMEDOUT', durationMs: 30000 },
          { title: 'refund', status: 'FAILED', durationMs: 900 },
        ],
      },
    });
    const result = await runInProcess(inputs(), { env: PUSH_ENV });

    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({
      status: 'FAILED',
      success: 'false',
      total: '5',
      passed: '2',
      failed: '3',
    });
    expect(firstTable(result.summary).rows.map(([, title]) => title)).toEqual([
      'checkout total',
      'refund',
      'payment',
      'home page',
      'profile',
    ]);
    const errors = annotations(result.log, 'error');
    for (const title of ['checkout total', 'refund', 'payment']) {
      expect(errors.filter((line) => line.includes(title))).toHaveLength(1);
    }
    // the three test cases, and the step's own failure message
    expect(errors).toHaveLength(4);
    expect(result.log).toMatch(/::error::Project run run-1 ended FAILED: 3 of 5 test cases failed/);
  });

  test('a PASSED run with a failed test case still fails the step', async () => {
    sim = await Simulator.start({
      project: { statuses: ['PASSED'], testCases: [{ title: 'a', status: 'FAILED' }] },
    });
    const result = await runInProcess(inputs(), { env: PUSH_ENV });
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'false', failed: '1' });
    expect(result.exitCode).toBe(1);
  });

  test('a PASSED run with no test case passes with a warning', async () => {
    sim = await Simulator.start({ project: { statuses: ['PASSED'], testCases: [] } });
    const result = await runInProcess(inputs(), { env: PUSH_ENV });
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toMatchObject({ status: 'PASSED', total: '0' });
    expect(annotations(result.log, 'warning')).toEqual([expect.stringContaining('reported no test case')]);
  });

  test('a JUnit report that cannot be written fails the step, and success says so', async () => {
    sim = await Simulator.start({ project: { statuses: ['PASSED'] } });
    const blocker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'junit-')), 'a-file');
    fs.writeFileSync(blocker, '');
    const result = await runInProcess(inputs({ 'junit-report': path.join(blocker, 'junit.xml') }), {
      env: PUSH_ENV,
    });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'false' });
    expect(result.outputs).not.toHaveProperty('junit-file');
    expect(annotations(result.log, 'error')).toEqual([
      expect.stringMatching(/Could not write the JUnit report to .*a-file/),
    ]);
  });

  test.each([9, 12])(
    '%i failed test cases and an unwritable JUnit report: ten error annotations at most, all counted',
    async (failedCount) => {
      sim = await Simulator.start({
        project: {
          statuses: ['FAILED'],
          testCases: Array.from({ length: failedCount }, (_, i) => ({
            title: `case ${i}`,
            status: 'FAILED',
          })),
        },
      });
      const blocker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'junit-')), 'a-file');
      fs.writeFileSync(blocker, '');
      const result = await runInProcess(inputs({ 'junit-report': path.join(blocker, 'junit.xml') }), {
        env: PUSH_ENV,
      });
      const errors = annotations(result.log, 'error');
      expect(errors).toHaveLength(10);
      expect(errors.filter((line) => line.includes('Could not write the JUnit report'))).toHaveLength(1);
      expect(errors.filter((line) => /Project run run-1 ended FAILED/.test(line))).toHaveLength(1);
      const caseErrors = errors.filter((line) => /title=case \d+::/.test(line)).length;
      const notices = annotations(result.log, 'notice');
      // every failed test case is either annotated or counted in the notice
      const counted = Number(/(\d+) more test cases? failed/.exec(notices.join('\n'))?.[1] ?? 0);
      expect(caseErrors + counted).toBe(failedCount);
      expect(notices).toHaveLength(1);
    },
  );

  test.each([
    ['a path prefix', '/api', (url: string) => url],
    ['a path prefix and a trailing slash', '/api', (url: string) => `${url}/`],
    ['a trailing slash', '', (url: string) => `${url}/`],
  ])('a base URL with %s works', async (_name, prefix, baseUrl) => {
    sim = await Simulator.start({ prefix, project: { statuses: ['PASSED'] } });
    const result = await runInProcess(inputs({ 'base-url': baseUrl(sim.url) }), { env: PUSH_ENV });
    expect(result.outputs.status).toBe('PASSED');
    expect(sim.requests.map((request) => request.path)).toEqual([
      `${prefix}/v1/projects/proj-1/runs`,
      `${prefix}/v1/projects/proj-1/runs/run-1`,
    ]);
  });

  test('an IPv6 base URL works: http://[::1]:port', async () => {
    sim = await Simulator.start({ project: { statuses: ['RUNNING', 'PASSED'] } }, { host: '::1' });
    expect(sim.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    const result = await runInProcess(inputs(), { env: PUSH_ENV });
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true' });
    expect(sim.requests.map((request) => request.operation)).toEqual([
      'startProjectRun',
      'getProjectRun',
      'getProjectRun',
    ]);
  });

  test('branch: the PR head branch wins, "none" sends no branch, an explicit one is sent as is', async () => {
    sim = await Simulator.start({ project: { statuses: ['PASSED'] } });
    await runInProcess(inputs(), { env: { ...PUSH_ENV, GITHUB_HEAD_REF: 'feature/x' } });
    await runInProcess(inputs({ branch: 'none' }), { env: { GITHUB_HEAD_REF: 'feature/x' } });
    await runInProcess(inputs({ branch: 'release' }), { env: PUSH_ENV });
    await runInProcess(inputs(), { env: { GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v1.0.0' } });
    const bodies = sim.requests
      .filter((request) => request.operation === 'startProjectRun')
      .map((r) => r.body);
    expect(bodies).toEqual([{ branch: 'feature/x' }, {}, { branch: 'release' }, {}]);
  });
});

describe('input errors name the input and send nothing', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['empty api-key', { 'api-key': '' }, /Input 'api-key' is empty.*forks or by Dependabot/],
    ['missing base-url', { 'base-url': '' }, /Input 'base-url' is required/],
    [
      'plain http to a remote host',
      { 'base-url': 'http://tests.example.com' },
      /Input 'base-url' must use https:\/\//,
    ],
    [
      'a base-url that is not a URL',
      { 'base-url': 'tests.example.com' },
      /Input 'base-url' must be an absolute URL/,
    ],
    [
      '21 targets across both ids',
      {
        'project-id': Array.from({ length: 11 }, (_, i) => `proj-${i}`).join('\n'),
        'test-suite-id': Array.from({ length: 10 }, (_, i) => `suite-${i}`).join('\n'),
      },
      /Inputs 'project-id' and 'test-suite-id' name 21 targets; one step runs at most 20\./,
    ],
    [
      'an id given twice',
      { 'project-id': 'proj-1\n proj-2\nproj-1' },
      /Input 'project-id' names 'proj-1' twice; give each id once\./,
    ],
    [
      'run-id with several ids',
      { 'project-id': 'proj-1\nproj-2', 'run-id': 'r' },
      /Input 'run-id' attaches to one run/,
    ],
    ['neither id', { 'project-id': '' }, /Neither 'project-id' nor 'test-suite-id' is set/],
    ['an unknown mode', { mode: 'agent' }, /Input 'mode' must be 'project' or 'suite'; got 'agent'/],
    ['mode suite with a project id', { mode: 'suite' }, /Input 'project-id' is set but 'mode' is 'suite'/],
    [
      'a bad poll-interval',
      { 'poll-interval': 'soon' },
      /Input 'poll-interval' must be a positive duration.*got 'soon'/,
    ],
    [
      'a sub-second poll-interval on a remote host',
      { 'base-url': 'https://tests.example.com', 'poll-interval': '200ms' },
      /Input 'poll-interval' must be at least 1s/,
    ],
    ['a zero timeout', { timeout: '0' }, /Input 'timeout' must be a positive duration/],
    [
      'a bad request-timeout',
      { 'request-timeout': '-5s' },
      /Input 'request-timeout' must be a positive duration/,
    ],
    ['a bad boolean', { wait: 'yes' }, /Input 'wait' must be true or false; got 'yes'/],
    [
      'options in project mode',
      { options: '{"retries": 1}' },
      /Input 'options' applies to test suite runs only/,
    ],
    [
      'run-id with wait false',
      { 'run-id': 'run-9', wait: 'false' },
      /Input 'run-id' is set but 'wait' is false/,
    ],
    [
      'run-id without project-id',
      { 'project-id': '', 'run-id': 'run-9' },
      /Input 'run-id' needs 'project-id'/,
    ],
  ];

  test.each(cases)('%s', async (_name, override, message) => {
    sim = await Simulator.start();
    const result = await runInProcess(inputs(override));
    expect(result.exitCode).toBe(1);
    const errors = annotations(result.log, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
    expect(sim.requests).toHaveLength(0);
    expect(result.outputs).toEqual({ status: 'ERROR', success: 'false' });
    expect(visibleLog(result.log)).not.toContain(DEFAULT_API_KEY);
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { firstTable } from './helpers/html.js';
import { runInProcess } from './helpers/in-process.js';
import { projectInputs, suiteInputs } from './helpers/inputs.js';
import { annotations, PUSH_TO_MAIN_ENV, visibleLog } from './helpers/runner-files.js';
import { Simulator } from './simulator/simulator.js';

const GITHUB_ENV = PUSH_TO_MAIN_ENV;
const DEFAULT_NOTE = 'GitHub Actions: octo/shop@0123456789ab https://github.com/octo/shop/actions/runs/4242';

let sim: Simulator;
afterEach(async () => {
  await sim?.stop();
});

const inputs = (extra: Record<string, string> = {}) => suiteInputs(sim, extra);

function startBodies(): unknown[] {
  return sim.requests.filter((request) => request.operation === 'startSuiteRun').map((r) => r.body);
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The results file's one run: its `runs[0]`. */
function readRun(file: string): Record<string, unknown> {
  return (readJson(file) as { runs: Record<string, unknown>[] }).runs[0] as Record<string, unknown>;
}

/** The applied options of the summary's <details> block, decoded. */
function appliedOptions(summary: string): Record<string, unknown> {
  const match = /<summary>Applied options<\/summary><pre><code>(.*?)<\/code><\/pre>/s.exec(summary);
  if (!match) throw new Error(`no applied options in the summary:\n${summary}`);
  const text = (match[1] as string)
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return JSON.parse(text);
}

describe('a test suite run end to end against the simulator', () => {
  test('a passing run: outputs, counts, the suite named in the summary, a results file', async () => {
    sim = await Simulator.start({
      suite: {
        statuses: ['RUNNING', 'RUNNING', 'FINISHED'],
        testSuiteName: 'Checkout regression',
        testCases: [
          { title: 'pay by card', status: 'PASSED' },
          { title: 'pay by invoice', status: 'PASSED' },
          { title: 'gift wrap', status: 'SKIPPED' },
        ],
      },
    });
    const result = await runInProcess(inputs(), { env: GITHUB_ENV });

    expect(result.exitCode).toBe(0);
    expect(result.outputs).toMatchObject({
      'run-id': 'suite-run-1',
      status: 'PASSED',
      success: 'true',
      total: '3',
      passed: '2',
      failed: '0',
      flaky: '0',
      skipped: '1',
    });
    expect(sim.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/testSuite/suite-1/run',
      'GET /v1/testSuiteRun/suite-run-1/status',
      'GET /v1/testSuiteRun/suite-run-1/status',
      'GET /v1/testSuiteRun/suite-run-1/status',
      'GET /v1/testSuiteRun/suite-run-1/result',
    ]);
    expect(result.log).toContain("Starting a test suite run for test suite 'suite-1' (branch 'main').");
    expect(result.log).toContain('Started test suite run suite-run-1 (Checkout regression).');
    expect(result.summary).toContain('✅ Test run passed');
    expect(result.summary).toContain('Suite <strong>Checkout regression</strong>');
    expect(result.summary).toContain('Run <code>suite-run-1</code>');
    expect(firstTable(result.summary).rows).toHaveLength(3);
    expect(annotations(result.log, 'error')).toEqual([]);

    const resultsFile = result.outputs['results-file'];
    expect(path.basename(resultsFile)).toBe('test-run-suite-run-1.json');
    expect(resultsFile.startsWith(result.files.runnerTemp)).toBe(true);
    expect(readJson(resultsFile)).toMatchObject({ schemaVersion: 1 });
    expect(readRun(resultsFile)).toMatchObject({
      mode: 'suite',
      status: 'PASSED',
      success: true,
      runId: 'suite-run-1',
      testSuiteId: 'suite-1',
      testSuiteName: 'Checkout regression',
      branch: 'main',
      counts: { total: 3, passed: 2, failed: 0, flaky: 0, skipped: 1 },
      testCases: [
        { title: 'pay by card', status: 'PASSED', verdict: 'passed' },
        { title: 'pay by invoice', status: 'PASSED', verdict: 'passed' },
        { title: 'gift wrap', status: 'SKIPPED', verdict: 'skipped' },
      ],
    });
    expect(result.state).toMatchObject({
      'runId-0': 'suite-run-1',
      'cancellable-0': 'false',
      'settled-0': 'true',
    });
  });

  test('a failing run: status FAILED, the step fails, one error annotation per failed test case', async () => {
    sim = await Simulator.start({
      suite: {
        testCases: [
          { title: 'pay by card', status: 'PASSED' },
          { title: 'pay by invoice', status: 'FAILED' },
          { title: 'refund', status: 'FAILED' },
          { title: 'gift wrap', status: 'PASSED' },
        ],
      },
    });
    const result = await runInProcess(inputs(), { env: GITHUB_ENV });

    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({
      'run-id': 'suite-run-1',
      status: 'FAILED',
      success: 'false',
      total: '4',
      passed: '2',
      failed: '2',
    });
    const errors = annotations(result.log, 'error');
    expect(errors).toEqual([
      '::error::Test suite run suite-run-1: 2 of 4 test cases failed.',
      '::error title=pay by invoice::Test case FAILED in run suite-run-1',
      '::error title=refund::Test case FAILED in run suite-run-1',
    ]);
    expect(result.summary).toContain('❌ Test run failed');
    expect(firstTable(result.summary).rows[0]?.[1]).toBe('pay by invoice');
    expect(readRun(result.outputs['results-file'])).toMatchObject({ status: 'FAILED', success: false });
  });

  test('an ERROR test case counts as failed and is an <error> in the JUnit report', async () => {
    sim = await Simulator.start({
      suite: {
        testCases: [
          { title: 'pay by card', status: 'PASSED' },
          { title: 'address book', status: 'ERROR' },
        ],
      },
    });
    const result = await runInProcess(inputs({ 'junit-report': 'reports/suite.xml' }), {
      env: GITHUB_ENV,
    });

    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'FAILED', total: '2', passed: '1', failed: '1' });
    const junitFile = path.join(result.files.workspace, 'reports', 'suite.xml');
    expect(result.outputs['junit-file']).toBe(junitFile);
    const xml = fs.readFileSync(junitFile, 'utf8');
    expect(xml).toContain('<testsuite name="Smoke suite" tests="2" failures="0" errors="1" skipped="0"');
    expect(xml).toMatch(
      /<testcase name="address book"[^>]*><error message="ERROR" type="ERROR"\/><\/testcase>/,
    );
    expect(xml).toMatch(/<testcase name="pay by card"[^>]*\/>/);
    expect(annotations(result.log, 'error')).toContain(
      '::error title=address book::Test case ERROR in run suite-run-1',
    );
  });

  test('a FLAKY test case passes with a warning, and fails the step with fail-on-flaky', async () => {
    sim = await Simulator.start({
      suite: {
        testCases: [
          { title: 'pay by card', status: 'PASSED' },
          { title: 'search', status: 'FLAKY' },
        ],
      },
    });
    const lenient = await runInProcess(inputs(), { env: GITHUB_ENV });
    expect(lenient.exitCode).toBe(0);
    expect(lenient.outputs).toMatchObject({ status: 'PASSED', success: 'true', flaky: '1', failed: '0' });
    expect(annotations(lenient.log, 'warning')).toEqual([
      '::warning title=search::Test case is flaky in run suite-run-1',
    ]);

    const strict = await runInProcess(inputs({ 'fail-on-flaky': 'true' }), { env: GITHUB_ENV });
    expect(strict.exitCode).toBe(1);
    expect(strict.outputs).toMatchObject({ status: 'FAILED', success: 'false', flaky: '1', failed: '0' });
    expect(annotations(strict.log, 'warning')).toEqual([]);
    expect(annotations(strict.log, 'error')).toEqual([
      '::error::Test suite run suite-run-2: 1 of 2 test cases failed (1 flaky test case counted as failed: fail-on-flaky is true).',
      '::error title=search::Test case FLAKY (counts as failed) in run suite-run-2',
    ]);
    expect(strict.summary).toContain('❌ FLAKY (counts as failed)');
  });

  test('a test case without a status counts as failed: it did not finish', async () => {
    sim = await Simulator.start({
      suite: {
        testCases: [{ title: 'pay by card', status: 'PASSED' }, { title: 'stuck one' }],
      },
    });
    const result = await runInProcess(inputs({ 'junit-report': 'suite.xml' }), { env: GITHUB_ENV });

    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'FAILED', total: '2', passed: '1', failed: '1' });
    expect(annotations(result.log, 'error')).toContain(
      '::error title=stuck one::Test case did not finish (no status) in run suite-run-1',
    );
    expect(result.summary).toContain('did not finish (no status)');
    const testCases = readRun(result.outputs['results-file']).testCases;
    // each test case keeps the test's own run id and the test's id, for links to the service's pages
    expect(testCases).toContainEqual({
      title: 'stuck one',
      status: null,
      verdict: 'unfinished',
      testRunId: 'suite-run-1-case-2',
      testId: 'test-2',
      label: null,
      record: null,
      typicalMs: null,
      slower: null,
    });
    expect(fs.readFileSync(result.outputs['junit-file'], 'utf8')).toContain(
      '<failure message="did not finish (no status)" type="unfinished"/>',
    );
  });
});

describe('the start request carries every option of the interface', () => {
  const YAML_OPTIONS = `
numberOfWorkers: 4
retries: 1
repeats: 2
operationDelayMs: 250
testTimeoutMs: 60000
testMatch:
  glob: "checkout/**"
  regex: '^checkout\\s.*$'
setupTestId: t-setup
teardownTestId: t-teardown
beforeEachTestId: t-before-each
afterEachTestId: t-after-each
notificationProfile: DISABLED
variableOverrides:
  BASE_URL: https://staging.example.com
  LOCALE:
    value: en-GB
    sensitive: false
  FEATURE_FLAGS:
    value:
      newCheckout: true
      percent: 50
urlReplacements:
  - original: https://www.example.com
    replacement: https://staging.example.com
  - original: https://cdn.example.com
    replacement: https://cdn.staging.example.com
`;

  const OPTIONS_OBJECT = {
    numberOfWorkers: 4,
    retries: 1,
    repeats: 2,
    operationDelayMs: 250,
    testTimeoutMs: 60000,
    testMatch: { glob: 'checkout/**', regex: '^checkout\\s.*$' },
    setupTestId: 't-setup',
    teardownTestId: 't-teardown',
    beforeEachTestId: 't-before-each',
    afterEachTestId: 't-after-each',
    notificationProfile: 'DISABLED',
    variableOverrides: {
      BASE_URL: 'https://staging.example.com',
      LOCALE: { value: 'en-GB', sensitive: false },
      FEATURE_FLAGS: { value: { newCheckout: true, percent: 50 } },
    },
    urlReplacements: [
      { original: 'https://www.example.com', replacement: 'https://staging.example.com' },
      { original: 'https://cdn.example.com', replacement: 'https://cdn.staging.example.com' },
    ],
  };

  const EXPECTED_BODY = {
    ...OPTIONS_OBJECT,
    environment: 'STAGING',
    metadata: { git: { branch: 'release/2.0' }, note: DEFAULT_NOTE },
  };

  test('YAML options, the environment and branch inputs, and the default note make the exact body', async () => {
    sim = await Simulator.start({ suite: { statuses: ['FINISHED'] } });
    const result = await runInProcess(
      inputs({ options: YAML_OPTIONS, environment: 'staging', branch: 'release/2.0' }),
      { env: GITHUB_ENV },
    );

    expect(result.exitCode).toBe(0);
    expect(startBodies()).toEqual([EXPECTED_BODY]);
    const start = sim.requests[0];
    expect(start?.headers['content-type']).toBe('application/json');
    expect(start?.headers['user-agent']).toMatch(/^test-run-action\/\d+\.\d+\.\d+/);
    expect(result.log).toContain(
      "Starting a test suite run for test suite 'suite-1' (branch 'release/2.0', environment 'STAGING').",
    );
    expect(result.summary).toContain('Branch <code>release/2.0</code>');
    expect(result.summary).toContain('Environment <code>STAGING</code>');
    // The service echoes the options it applied: the summary shows them.
    expect(appliedOptions(result.summary)).toEqual(EXPECTED_BODY);
  });

  test('the same options given as JSON send the same body', async () => {
    sim = await Simulator.start({ suite: { statuses: ['FINISHED'] } });
    const where = { environment: 'staging', branch: 'release/2.0' };
    await runInProcess(inputs({ options: YAML_OPTIONS, ...where }), { env: GITHUB_ENV });
    await runInProcess(inputs({ options: JSON.stringify(OPTIONS_OBJECT), ...where }), {
      env: GITHUB_ENV,
    });
    await runInProcess(inputs({ options: JSON.stringify(OPTIONS_OBJECT, null, 2), ...where }), {
      env: GITHUB_ENV,
    });
    expect(startBodies()).toEqual([EXPECTED_BODY, EXPECTED_BODY, EXPECTED_BODY]);
  });

  test('no options: the body holds the computed branch and the default note only', async () => {
    sim = await Simulator.start({ suite: { statuses: ['FINISHED'] } });
    await runInProcess(inputs(), { env: GITHUB_ENV });
    await runInProcess(inputs({ branch: 'none' }), { env: GITHUB_ENV });
    await runInProcess(inputs(), { env: {} });
    expect(startBodies()).toEqual([
      { metadata: { git: { branch: 'main' }, note: DEFAULT_NOTE } },
      { metadata: { note: DEFAULT_NOTE } },
      {},
    ]);
  });
});

describe('inputs and options together, as the README states', () => {
  test('the same environment and branch in both are fine and sent once', async () => {
    sim = await Simulator.start({ suite: { statuses: ['FINISHED'] } });
    const result = await runInProcess(
      inputs({
        environment: 'Staging',
        branch: 'main',
        options: 'environment: STAGING\nmetadata:\n  git:\n    branch: main\n',
      }),
      { env: GITHUB_ENV },
    );
    expect(result.exitCode).toBe(0);
    expect(startBodies()).toEqual([
      { environment: 'STAGING', metadata: { git: { branch: 'main' }, note: DEFAULT_NOTE } },
    ]);
  });

  test.each([
    [
      'environment',
      { environment: 'staging', options: 'environment: PRODUCTION' },
      "Input 'environment' (STAGING) and options.environment (PRODUCTION) disagree; set one of them.",
    ],
    [
      'branch',
      { branch: 'release', options: '{"metadata": {"git": {"branch": "main"}}}' },
      "Input 'branch' ('release') and options.metadata.git.branch ('main') disagree; set one of them.",
    ],
    [
      "branch 'none'",
      { branch: 'none', options: '{"metadata": {"git": {"branch": "main"}}}' },
      "Input 'branch' ('none' (send no branch)) and options.metadata.git.branch ('main') disagree; set one of them.",
    ],
  ])(
    'a different explicit %s in each is an input error naming both, and nothing is sent',
    async (_name, extra, message) => {
      sim = await Simulator.start();
      const result = await runInProcess(inputs(extra), { env: GITHUB_ENV });
      expect(result.exitCode).toBe(1);
      expect(annotations(result.log, 'error')).toEqual([`::error::${message}`]);
      expect(sim.requests).toHaveLength(0);
      expect(result.outputs['run-id']).toBeUndefined();
    },
  );

  test('a branch computed from GITHUB_REF_NAME yields to options.metadata.git.branch', async () => {
    sim = await Simulator.start({ suite: { statuses: ['FINISHED'] } });
    const result = await runInProcess(inputs({ options: 'metadata:\n  git:\n    branch: feature/x\n' }), {
      env: GITHUB_ENV,
    });
    expect(result.exitCode).toBe(0);
    expect(startBodies()).toEqual([{ metadata: { git: { branch: 'feature/x' }, note: DEFAULT_NOTE } }]);
    expect(result.log).toContain("(branch 'feature/x')");
    expect(result.summary).toContain('Branch <code>feature/x</code>');
  });

  test('options.metadata.note is sent as is, instead of the default note', async () => {
    sim = await Simulator.start({ suite: { statuses: ['FINISHED'] } });
    await runInProcess(inputs({ options: '{"metadata": {"note": "nightly: see #123"}}' }), {
      env: GITHUB_ENV,
    });
    await runInProcess(inputs({ options: 'metadata: {note: ""}', branch: 'none' }), {
      env: GITHUB_ENV,
    });
    expect(startBodies()).toEqual([
      { metadata: { git: { branch: 'main' }, note: 'nightly: see #123' } },
      { metadata: { note: '' } },
    ]);
  });
});

describe('a sensitive override', () => {
  const PLAIN_SECRET = 'hunter2-Wrapped-9f3';
  const STRUCTURED_SECRET = 'pa55-Structured-71c';
  const OPTIONS = `
variableOverrides:
  BASE_URL: https://staging.example.com
  ADMIN_PASSWORD:
    value: ${PLAIN_SECRET}
    sensitive: true
  SERVICE_ACCOUNT:
    value:
      user: robot
      password: ${STRUCTURED_SECRET}
    sensitive: true
`;

  test('reaches the service, but no log line, summary, results file or JUnit report shows it', async () => {
    sim = await Simulator.start({
      suite: {
        testSuiteName: `Admin suite`,
        testCases: [
          { title: `log in with ${PLAIN_SECRET}`, status: 'FAILED' },
          { title: `token ${STRUCTURED_SECRET} works`, status: 'PASSED' },
        ],
      },
    });
    const result = await runInProcess(inputs({ options: OPTIONS, 'junit-report': 'suite.xml' }), {
      env: GITHUB_ENV,
    });

    expect(result.exitCode).toBe(1);
    // The service gets the values, as it must.
    expect(startBodies()).toEqual([
      expect.objectContaining({
        variableOverrides: {
          BASE_URL: 'https://staging.example.com',
          ADMIN_PASSWORD: { value: PLAIN_SECRET, sensitive: true },
          SERVICE_ACCOUNT: { value: { user: 'robot', password: STRUCTURED_SECRET }, sensitive: true },
        },
      }),
    ]);
    const texts = {
      log: visibleLog(result.log),
      summary: result.summary,
      resultsFile: fs.readFileSync(result.outputs['results-file'], 'utf8'),
      junit: fs.readFileSync(result.outputs['junit-file'], 'utf8'),
    };
    for (const [where, text] of Object.entries(texts)) {
      for (const secret of [PLAIN_SECRET, STRUCTURED_SECRET]) {
        expect({ where, leaked: text.includes(secret) }).toEqual({ where, leaked: false });
      }
    }
    // The runner is told to mask both, before anything else is printed.
    expect(result.log).toContain(`::add-mask::${PLAIN_SECRET}`);
    expect(result.log).toContain(`::add-mask::${STRUCTURED_SECRET}`);
    expect(appliedOptions(result.summary).variableOverrides).toEqual({
      BASE_URL: 'https://staging.example.com',
      ADMIN_PASSWORD: { value: '***', sensitive: true },
      SERVICE_ACCOUNT: { value: '***', sensitive: true },
    });
  });

  test('an invalid options input with a sensitive value fails without echoing it', async () => {
    sim = await Simulator.start();
    const result = await runInProcess(
      inputs({ options: `${OPTIONS}retries: "2"\n`, 'junit-report': 'suite.xml' }),
      { env: GITHUB_ENV },
    );
    expect(result.exitCode).toBe(1);
    expect(sim.requests).toHaveLength(0);
    expect(visibleLog(result.log)).not.toContain(PLAIN_SECRET);
    expect(visibleLog(result.log)).not.toContain(STRUCTURED_SECRET);
  });
});

describe('wait: false', () => {
  test('a project run: run-id, status STARTED, a one-line summary, one start request, not cancellable', async () => {
    sim = await Simulator.start({ project: { statuses: ['RUNNING', 'PASSED'] } });
    const result = await runInProcess(projectInputs(sim, { wait: 'false' }), { env: GITHUB_ENV });
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toEqual({
      'run-id': 'run-1',
      status: 'STARTED',
      success: 'true',
      'comment-url': '',
      'dashboard-url': '',
      runs: JSON.stringify([
        {
          kind: 'project',
          id: 'proj-1',
          runId: 'run-1',
          status: 'STARTED',
          success: true,
          counts: null,
          newFailures: null,
          fixed: null,
          flakyFailures: null,
          quarantined: null,
          slower: null,
          dashboardUrl: null,
          checkRunUrl: null,
        },
      ]),
    });
    expect(result.summary.trim()).toBe('<p>Started project run <code>run-1</code> (not waiting for it).</p>');
    expect(sim.requests.map((request) => request.operation)).toEqual(['startProjectRun']);
    expect(sim.cancelledRunIds).toEqual([]);
    expect(result.state).toMatchObject({ 'runId-0': 'run-1', 'cancellable-0': 'false' });
  });

  test('a test suite run: run-id, status STARTED, a one-line summary, one start request, not cancellable', async () => {
    sim = await Simulator.start({ suite: { testSuiteName: 'Checkout regression' } });
    const result = await runInProcess(inputs({ wait: 'false' }), { env: GITHUB_ENV });
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toEqual({
      'run-id': 'suite-run-1',
      status: 'STARTED',
      success: 'true',
      'comment-url': '',
      'dashboard-url': '',
      runs: JSON.stringify([
        {
          kind: 'suite',
          id: 'suite-1',
          runId: 'suite-run-1',
          status: 'STARTED',
          success: true,
          counts: null,
          newFailures: null,
          fixed: null,
          flakyFailures: null,
          quarantined: null,
          slower: null,
          dashboardUrl: null,
          checkRunUrl: null,
        },
      ]),
    });
    expect(result.summary.trim()).toBe(
      '<p>Started test suite run <code>suite-run-1</code> of <strong>Checkout regression</strong> (not waiting for it).</p>',
    );
    expect(sim.requests.map((request) => request.operation)).toEqual(['startSuiteRun']);
    expect(result.state).toMatchObject({ 'runId-0': 'suite-run-1', 'cancellable-0': 'false' });
  });
});

describe('run-id attaches to a run an earlier step started', () => {
  test('a project run: no second start; polled and reported like a run this step started', async () => {
    sim = await Simulator.start({
      project: {
        statuses: ['RUNNING', 'FAILED'],
        testCases: [
          { title: 'sign in', status: 'PASSED' },
          { title: 'checkout', status: 'FAILED' },
        ],
      },
    });
    const first = await runInProcess(projectInputs(sim, { wait: 'false' }), { env: GITHUB_ENV });
    const second = await runInProcess(projectInputs(sim, { 'run-id': first.outputs['run-id'] as string }), {
      env: GITHUB_ENV,
    });

    expect(second.exitCode).toBe(1);
    expect(second.outputs).toMatchObject({
      'run-id': 'run-1',
      status: 'FAILED',
      success: 'false',
      total: '2',
      failed: '1',
    });
    expect(sim.count('startProjectRun')).toBe(1);
    expect(sim.count('getProjectRun')).toBe(2);
    expect(second.log).toContain("Attaching to project run run-1 of project 'proj-1'.");
    expect(second.summary).toContain('Run <code>run-1</code>');
    expect(annotations(second.log, 'error')).toContain(
      '::error title=checkout::Test case FAILED in run run-1',
    );
    expect(fs.existsSync(second.outputs['results-file'])).toBe(true);
    // Not started by this step: never cancelled by it.
    expect(second.state).toMatchObject({ 'runId-0': 'run-1', 'cancellable-0': 'false', 'settled-0': 'true' });
    expect(sim.count('cancelProjectRun')).toBe(0);
  });

  test('a test suite run: mode suite and run-id, no test-suite-id; no second start', async () => {
    sim = await Simulator.start({
      suite: { statuses: ['RUNNING', 'FINISHED'], testSuiteName: 'Checkout regression' },
    });
    const first = await runInProcess(inputs({ wait: 'false' }), { env: GITHUB_ENV });
    const second = await runInProcess(
      inputs({ 'test-suite-id': '', mode: 'suite', 'run-id': first.outputs['run-id'] as string }),
      { env: GITHUB_ENV },
    );

    expect(second.exitCode).toBe(0);
    expect(second.outputs).toMatchObject({
      'run-id': 'suite-run-1',
      status: 'PASSED',
      success: 'true',
      total: '3',
      passed: '3',
    });
    expect(sim.requests.map((request) => request.operation)).toEqual([
      'startSuiteRun',
      'getSuiteRunStatus',
      'getSuiteRunStatus',
      'getSuiteRunResult',
    ]);
    expect(second.log).toContain('Attaching to test suite run suite-run-1.');
    expect(second.summary).toContain('Suite <strong>Checkout regression</strong>');
    expect(readRun(second.outputs['results-file'])).toMatchObject({
      mode: 'suite',
      runId: 'suite-run-1',
      testSuiteName: 'Checkout regression',
      counts: { total: 3, passed: 3 },
    });
    expect(second.state).toMatchObject({
      'runId-0': 'suite-run-1',
      'cancellable-0': 'false',
      'settled-0': 'true',
    });
  });
});

describe('inputs of the other mode are input errors, and nothing is sent', () => {
  test.each([
    [
      'playwright-project-name in a test suite run',
      () => inputs({ 'playwright-project-name': 'chromium' }),
      "Input 'playwright-project-name' applies to project runs only; this is a test suite run.",
    ],
    [
      'options in a project run',
      () => ({ ...inputs({ 'test-suite-id': '', 'project-id': 'proj-1' }), options: 'retries: 1' }),
      "Input 'options' applies to test suite runs only; this is a project run.",
    ],
    [
      'options when attaching to a test suite run',
      () => inputs({ 'test-suite-id': '', mode: 'suite', 'run-id': 'suite-run-9', options: 'retries: 1' }),
      "Input 'options' has no effect when 'run-id' attaches to a run that is already started.",
    ],
    [
      'an environment a test suite run does not know',
      () => inputs({ environment: 'qa' }),
      "Input 'environment' must be one of PRODUCTION, STAGING, DEVELOPMENT for a test suite run; got 'qa'.",
    ],
  ])('%s', async (_name, inputs, message) => {
    sim = await Simulator.start();
    const result = await runInProcess(inputs(), { env: GITHUB_ENV });
    expect(result.exitCode).toBe(1);
    expect(annotations(result.log, 'error')).toEqual([`::error::${message}`]);
    expect(sim.requests).toHaveLength(0);
  });
});

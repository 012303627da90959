import { readSettings } from '../src/inputs/settings.js';
import {
  expandUrl,
  parseUrlTemplate,
  RUN_PLACEHOLDERS,
  TEST_PLACEHOLDERS,
} from '../src/inputs/url-template.js';
import { runInProcess } from './helpers/in-process.js';
import { projectInputs, suiteInputs } from './helpers/inputs.js';
import { annotations } from './helpers/runner-files.js';
import { Simulator } from './simulator/simulator.js';

/** Links to the service's own pages for a run and its test cases: dashboard-url, dashboard-test-url. */
describe('URL templates', () => {
  test('each placeholder is URL-encoded when expanded', () => {
    const template = parseUrlTemplate(
      'dashboard-url',
      'https://app.example.com/p/{projectId}/runs/{runId}',
      RUN_PLACEHOLDERS,
    );
    expect(expandUrl(template, { projectId: 'shop web', runId: 'a/b?c#d' })).toBe(
      'https://app.example.com/p/shop%20web/runs/a%2Fb%3Fc%23d',
    );
  });

  test('a link is left out while a value it uses is unknown', () => {
    const template = parseUrlTemplate(
      'dashboard-url',
      'https://app.example.com/p/{projectId}/runs/{runId}',
      RUN_PLACEHOLDERS,
    );
    expect(expandUrl(template, { runId: 'r1' })).toBeUndefined();
    expect(expandUrl(undefined, { runId: 'r1' })).toBeUndefined();
  });

  test.each([
    [
      'https://app.example.com/runs/{run}',
      "Input 'dashboard-url' uses the unknown placeholder {run}; it may use {projectId}, {runId}, {testSuiteId}.",
    ],
    [
      'http://app.example.com/runs/{runId}',
      "Input 'dashboard-url' must be an https:// URL (http:// only on localhost, 127.0.0.0/8 and [::1]); got 'http://app.example.com/runs/{runId}'.",
    ],
    ['https://user:pw@app.example.com/{runId}', "Input 'dashboard-url' must not carry credentials."],
    [
      '/runs/{runId}',
      "Input 'dashboard-url' must be a URL such as https://tests.example.com/runs/{runId}; got '/runs/{runId}'.",
    ],
    [
      'javascript:alert({runId})',
      "Input 'dashboard-url' must be an https:// URL (http:// only on localhost, 127.0.0.0/8 and [::1]); got 'javascript:alert({runId})'.",
    ],
  ])('%s is an input error', (text, message) => {
    expect(() => parseUrlTemplate('dashboard-url', text, RUN_PLACEHOLDERS)).toThrow(message);
  });

  test('loopback http is fine, and the test template knows two more placeholders', () => {
    expect(
      parseUrlTemplate('dashboard-url', 'http://127.0.0.1:8080/{runId}', RUN_PLACEHOLDERS)?.uses,
    ).toEqual(new Set(['runId']));
    expect(
      parseUrlTemplate('dashboard-test-url', 'https://x.example/{testRunId}/{testId}', TEST_PLACEHOLDERS)
        ?.uses,
    ).toEqual(new Set(['testRunId', 'testId']));
  });

  const reader = (inputs: Record<string, string>) => (name: string) =>
    ({ 'api-key': 'k', 'base-url': 'https://tests.example.com', ...inputs })[name] ?? '';

  test.each([
    [
      { 'project-id': 'p', 'dashboard-test-url': 'https://x.example/{testId}' },
      "Input 'dashboard-test-url' applies to test suite runs only",
    ],
    [
      { 'project-id': 'p', 'dashboard-url': 'https://x.example/{testSuiteId}/{runId}' },
      "Input 'dashboard-url' uses {testSuiteId}, which a project run does not have.",
    ],
    [
      { mode: 'suite', 'run-id': 'r', 'dashboard-url': 'https://x.example/{testSuiteId}' },
      "Input 'dashboard-url' uses {testSuiteId}: give 'test-suite-id' with 'run-id'.",
    ],
  ])('a placeholder the run cannot fill is an input error: %j', async (inputs, message) => {
    await expect(readSettings(reader(inputs), {})).rejects.toThrow(message);
  });
});

describe('the links, end to end', () => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.stop();
  });

  test('a project run: the output, the summary links the run, a failing step names the page', async () => {
    sim = await Simulator.start({
      runIds: ['run 1/x'],
      project: { statuses: ['FAILED'], testCases: [{ title: 'a', status: 'FAILED' }] },
    });
    const result = await runInProcess(
      projectInputs(sim, {
        'project-id': 'shop web',
        'dashboard-url': 'https://app.example.com/{projectId}/runs/{runId}',
      }),
    );
    const url = 'https://app.example.com/shop%20web/runs/run%201%2Fx';
    expect(result.outputs['dashboard-url']).toBe(url);
    expect(result.summary).toContain(`Run <a href="${url}"><code>run 1/x</code></a>`);
    // (the runner decodes %25 in a command's data back to %)
    expect(annotations(result.log, 'error')[0]?.replace(/%25/g, '%')).toBe(
      `::error::Project run run 1/x ended FAILED: 1 of 1 test case failed. The service's page for the run: ${url}`,
    );
  });

  test('a suite run: {projectId} comes from the start answer, and {testSuiteId} from the input', async () => {
    sim = await Simulator.start({ suite: { projectId: 'proj 9' } });
    const result = await runInProcess(
      suiteInputs(sim, {
        'dashboard-url': 'https://app.example.com/{projectId}/suites/{testSuiteId}/runs/{runId}',
      }),
    );
    expect(result.outputs).toMatchObject({
      status: 'PASSED',
      'dashboard-url': 'https://app.example.com/proj%209/suites/suite-1/runs/suite-run-1',
    });
  });

  test('a placeholder in the host that would choose another host gives no link and one warning', async () => {
    sim = await Simulator.start({
      runIds: ['evil.example'],
      project: { statuses: ['FAILED'], testCases: [{ title: 'a', status: 'FAILED' }] },
    });
    const result = await runInProcess(
      projectInputs(sim, { 'dashboard-url': 'https://{runId}.dash.example/{projectId}' }),
    );
    expect(result.outputs['dashboard-url']).toBe('');
    expect(result.summary).not.toContain('<a href');
    expect(annotations(result.log, 'warning')).toEqual([
      "::warning::No link from 'dashboard-url': {runId} is in its host, and 'evil.example' is not a single DNS label (letters, digits, '-'), so it would choose another host.",
    ]);
    expect(annotations(result.log, 'error')[0]).not.toContain('dash.example');
  });

  test('a placeholder in the host that is one label links there', async () => {
    sim = await Simulator.start({ runIds: ['run-7'] });
    const result = await runInProcess(
      projectInputs(sim, { 'dashboard-url': 'https://{runId}.dash.example/' }),
    );
    expect(result.outputs['dashboard-url']).toBe('https://run-7.dash.example/');
  });

  test('without the input the output is empty and nothing links', async () => {
    sim = await Simulator.start();
    const result = await runInProcess(projectInputs(sim));
    expect(result.outputs['dashboard-url']).toBe('');
    expect(result.summary).not.toContain('<a href');
  });
});

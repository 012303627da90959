import * as fs from 'node:fs';
import { nodeBinaries, runDist } from '../helpers/dist-runner.js';
import { projectInputs } from '../helpers/inputs.js';
import { annotations, visibleLog } from '../helpers/runner-files.js';
import { DEFAULT_API_KEY, Simulator } from '../simulator/simulator.js';

/** The bundled action, run as the GitHub runner runs it, on each Node available. */
describe.each(nodeBinaries())('dist/index.js on $name', ({ bin }) => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.stop();
  });

  const inputs = () => projectInputs(sim, { 'project-id': 'shop-web', 'poll-interval': '50ms' });

  test('a passing run: exit 0, outputs, summary table, results file, branch from GITHUB_REF_NAME', async () => {
    sim = await Simulator.start({
      project: {
        statuses: ['QUEUED', 'RUNNING', 'PASSED'],
        testCases: [
          { title: 'sign in', status: 'PASSED', durationMs: 1500 },
          { title: 'checkout', status: 'PASSED', durationMs: 2500 },
        ],
      },
    });
    const result = await runDist(inputs(), { node: bin });

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.outputs).toMatchObject({
      'run-id': 'run-1',
      status: 'PASSED',
      success: 'true',
      total: '2',
      passed: '2',
      failed: '0',
    });
    expect(result.stdout).toContain("Starting a project run for project 'shop-web' (branch 'main')");
    expect(result.stdout).toMatch(/project run run-1: QUEUED -> RUNNING/);
    expect(result.summary).toMatch(/<td>sign in<\/td>/);
    expect(result.summary).toMatch(/<td>checkout<\/td>/);
    expect(fs.existsSync(result.outputs['results-file'])).toBe(true);
    expect(result.outputs['results-file'].startsWith(result.files.runnerTemp)).toBe(true);
    expect(sim.requests[0].body).toEqual({ branch: 'main' });
    expect(visibleLog(result.stdout)).not.toContain(DEFAULT_API_KEY);
  });

  test('a failing run: exit 1, an error annotation per failed test case, failures first in the summary', async () => {
    sim = await Simulator.start({
      project: {
        statuses: ['RUNNING', 'FAILED'],
        testCases: [
          { title: 'sign in', status: 'PASSED' },
          { title: 'checkout', status: 'FAILED' },
          { title: 'refund', status: 'INTERRUPTED' },
        ],
      },
    });
    const result = await runDist(inputs(), { node: bin });

    expect(result.code).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'FAILED', success: 'false', failed: '2' });
    const errors = annotations(result.stdout, 'error');
    expect(errors.filter((line) => line.includes('checkout'))).toHaveLength(1);
    expect(errors.filter((line) => line.includes('refund'))).toHaveLength(1);
    expect(result.summary.indexOf('checkout')).toBeLessThan(result.summary.indexOf('sign in'));
  });
});

import { nodeBinaries, postStepEnv, runDist } from '../helpers/dist-runner.js';
import { projectInputs, suiteInputs } from '../helpers/inputs.js';
import { FORGED, forgedCommands, hostile } from '../helpers/workflow-commands.js';
import { DEFAULT_API_KEY, Simulator } from '../simulator/simulator.js';

/**
 * Text from the service and from the inputs cannot hand the runner a workflow command: the step's
 * output is read line by line as the runner reads it (LF, CR and CRLF end a line), and every command
 * in it must be one the action wrote.
 */
describe.each(nodeBinaries())('no forged workflow command from dist/index.js on $name', ({ bin }) => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.stop();
  });

  const masks = [DEFAULT_API_KEY];

  test('a suite name and test titles from the service', async () => {
    sim = await Simulator.start({
      suite: {
        testSuiteName: hostile('Smoke suite'),
        testCases: [
          { title: hostile('checkout'), status: 'FAILED' },
          { title: hostile('search'), status: 'FLAKY' },
        ],
      },
    });
    const result = await runDist(suiteInputs(sim), { node: bin });

    expect(forgedCommands(result.stdout, masks)).toEqual([]);
    expect(result.outputs).toMatchObject({ status: 'FAILED', success: 'false', failed: '1' });
    expect(result.outputs['junit-file']).toBeUndefined();
    expect(result.stdout).toContain('Started test suite run suite-run-1 (Smoke suite\\n::error');
  });

  test('a run id from the service is refused, without building a URL from it', async () => {
    sim = await Simulator.start({ runIds: [hostile('suite-run-1')] });
    const result = await runDist(suiteInputs(sim), { node: bin });

    expect(forgedCommands(result.stdout, masks)).toEqual([]);
    expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
    expect(result.outputs['junit-file']).toBeUndefined();
    expect(result.outputs['run-id']).toBeUndefined();
    expect(result.stdout).toContain("field 'testSuiteRunId'");
    expect(sim.count('getSuiteRunStatus')).toBe(0);
  });

  test("the service's error text, in a retry line and a failure", async () => {
    sim = await Simulator.start({
      faults: [
        { operation: 'getProjectRun', requests: [1], fault: { kind: 'status', status: 503 } },
        {
          operation: 'getProjectRun',
          requests: { from: 2 },
          fault: { kind: 'status', status: 404, body: { error: hostile('Run not found') } },
        },
      ],
    });
    const result = await runDist(projectInputs(sim), { node: bin });

    expect(forgedCommands(result.stdout, masks)).toEqual([]);
    expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
    expect(result.stdout).toContain('HTTP 404: Run not found ::error title=FORGED');
  });

  test('inputs a workflow may fill from a pull request', async () => {
    sim = await Simulator.start();
    const result = await runDist(
      projectInputs(sim, {
        environment: hostile('staging'),
        'playwright-project-name': hostile('chromium'),
        branch: hostile('feature'),
      }),
      { node: bin },
    );

    expect(forgedCommands(result.stdout, masks)).toEqual([]);
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true' });
    expect(result.stdout).toContain("environment 'staging\\n::error");
  });

  test('an id input is refused before any request, and not echoed raw', async () => {
    sim = await Simulator.start();
    const result = await runDist(projectInputs(sim, { 'project-id': hostile('shop') }), { node: bin });

    expect(forgedCommands(result.stdout, masks)).toEqual([]);
    expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
    expect(result.stdout).toContain("Input 'project-id'");
    expect(sim.requests).toHaveLength(0);
  });

  test("the post step's line, from a state it did not write", async () => {
    sim = await Simulator.start();
    const result = await runDist(projectInputs(sim), {
      node: bin,
      env: postStepEnv({
        isPost: 'true',
        'runId-0': hostile('run-1'),
        'cancellable-0': 'true',
        'settled-0': 'false',
      }),
    });

    expect(forgedCommands(result.stdout, masks)).toEqual([]);
    expect(result.stdout).not.toMatch(new RegExp(`^::warning::${FORGED}`, 'm'));
  });
});

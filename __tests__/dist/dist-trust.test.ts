import { nodeBinaries, runDist } from '../helpers/dist-runner.js';
import { projectInputs, suiteInputs } from '../helpers/inputs.js';
import { Simulator } from '../simulator/simulator.js';

/** What dist/index.js believes of the service and of its inputs: only as much as it must. */
describe.each(nodeBinaries())('trust boundaries of dist/index.js on $name', ({ bin }) => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.stop();
  });

  test.each(['..', '.'])(
    'a run id of %j from the service ends ERROR, and no URL is built from it',
    async (runId) => {
      sim = await Simulator.start({ runIds: [runId] });
      const result = await runDist(projectInputs(sim), { node: bin });

      expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
      expect(result.outputs['run-id']).toBeUndefined();
      expect(result.stdout).toContain(
        `::error::Could not start a project run for project 'proj-1': the response does not match the service interface: field 'runId': must be an id ('${runId}' is a path segment, not a name).`,
      );
      expect(sim.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        'POST /v1/projects/proj-1/runs',
      ]);
    },
  );

  test('a test id of ".." in a suite result ends ERROR naming the field', async () => {
    sim = await Simulator.start({ suite: { testCases: [{ title: 'a', status: 'PASSED', testId: '..' }] } });
    const result = await runDist(suiteInputs(sim), { node: bin });

    expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false', 'run-id': 'suite-run-1' });
    expect(result.stdout).toContain("field 'results[0].testId': must be an id");
  });
});

import { runInProcess, runPostInProcess, virtualClock } from '../helpers/in-process.js';
import { projectInputs } from '../helpers/inputs.js';
import { annotations } from '../helpers/runner-files.js';
import { type FaultRule, Simulator } from '../simulator/simulator.js';

/**
 * The API key goes to base-url's origin and nowhere else: a second server on loopback plays the
 * redirect's target and records every request, so every Authorization header, it sees.
 */
let sim: Simulator;
let elsewhere: Simulator;
beforeEach(async () => {
  elsewhere = await Simulator.start();
});
afterEach(async () => {
  await sim?.stop();
  await elsewhere.stop();
});

const redirect = (
  operation: FaultRule['operation'],
  status: 301 | 302 | 303 | 307 | 308,
  location: string,
  requests: FaultRule['requests'] = [1],
): FaultRule => ({ operation, requests, fault: { kind: 'redirect', status, location } });

/** The one failure message of the step. */
const failure = (log: string) => annotations(log, 'error')[0] ?? '';

describe('redirects', () => {
  test('a poll redirected to the same host on another port: not followed, and the key stays home', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING', 'PASSED'] },
      faults: [redirect('getProjectRun', 307, `${elsewhere.origin}/v1/projects/proj-1/runs/run-1`)],
    });
    const result = await runInProcess(projectInputs(sim));

    expect(elsewhere.requests).toEqual([]);
    expect(result.outputs).toMatchObject({ status: 'ERROR', 'run-id': 'run-1' });
    expect(failure(result.log)).toContain(
      `Could not get project run 'run-1' of project 'proj-1': the service answered HTTP 307, a redirect to ${elsewhere.origin}/v1/projects/proj-1/runs/run-1, which is not base-url's origin ${sim.origin}: the API key goes to that origin only`,
    );
    expect(sim.count('getProjectRun')).toBe(1);
  });

  test.each([307, 308] as const)(
    'a start answered %i to another origin: not re-sent, there or here, and no run is said to have started',
    async (status) => {
      sim = await Simulator.start({
        faults: [redirect('startProjectRun', status, `${elsewhere.origin}/v1/projects/proj-1/runs`)],
      });
      const result = await runInProcess(projectInputs(sim));

      expect(elsewhere.requests).toEqual([]);
      expect(sim.count('startProjectRun')).toBe(1);
      expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
      expect(result.outputs['run-id']).toBeUndefined();
      expect(failure(result.log)).toContain(
        `the service answered HTTP ${status}, a redirect to ${elsewhere.origin}/v1/projects/proj-1/runs: a request that may start or change a run is never sent again to a redirect's target`,
      );
      expect(failure(result.log)).not.toContain('may have started');
    },
  );

  test('a start redirected within its own origin is not re-sent either', async () => {
    sim = await Simulator.start({ faults: [redirect('startProjectRun', 307, '/v1/projects/proj-2/runs')] });
    const result = await runInProcess(projectInputs(sim));

    expect(sim.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/projects/proj-1/runs',
    ]);
    expect(result.outputs).toMatchObject({ status: 'ERROR' });
  });

  test('a start answered 303 (see other) may have started a run: the step says so', async () => {
    sim = await Simulator.start({
      faults: [redirect('startProjectRun', 303, '/v1/projects/proj-1/runs/run-9')],
    });
    const result = await runInProcess(projectInputs(sim));

    expect(sim.count('startProjectRun')).toBe(1);
    expect(sim.count('getProjectRun')).toBe(0);
    expect(failure(result.log)).toContain('The service may have started the run anyway');
  });

  test('a redirect loop within the origin ends after three hops', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING', 'PASSED'] },
      faults: [redirect('getProjectRun', 301, '/v1/projects/proj-1/runs/run-1?moved=1', 'all')],
    });
    const result = await runInProcess(projectInputs(sim));

    expect(result.outputs).toMatchObject({ status: 'ERROR' });
    expect(failure(result.log)).toContain(`after 3 redirects within ${sim.origin}: a redirect loop.`);
    expect(sim.count('getProjectRun')).toBe(4);
    expect(elsewhere.requests).toEqual([]);
  });

  test('a poll redirected once within its origin is followed, with the key', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING', 'PASSED'] },
      faults: [redirect('getProjectRun', 302, '/v1/projects/proj-1/runs/run-1?moved=1', [1])],
    });
    const result = await runInProcess(projectInputs(sim));

    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true' });
    const polls = sim.requests.filter((request) => request.operation === 'getProjectRun');
    expect(polls.map((request) => request.path)).toEqual([
      '/v1/projects/proj-1/runs/run-1',
      '/v1/projects/proj-1/runs/run-1?moved=1',
      '/v1/projects/proj-1/runs/run-1',
    ]);
    expect(polls.every((request) => request.headers.authorization === 'Bearer test-api-key')).toBe(true);
  });

  test('the cancel of a timed-out run, redirected to another origin: not followed', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING'] },
      faults: [
        redirect('cancelProjectRun', 307, `${elsewhere.origin}/v1/projects/proj-1/runs/cancel`, 'all'),
      ],
    });
    const result = await runInProcess(projectInputs(sim, { 'poll-interval': '10s', timeout: '20s' }), {
      clock: virtualClock(),
    });

    expect(result.outputs).toMatchObject({ status: 'TIMEDOUT' });
    expect(elsewhere.requests).toEqual([]);
    expect(annotations(result.log, 'warning').join('\n')).toContain('a redirect to');
    expect(result.state).toMatchObject({ 'settled-0': 'false' });
  });

  test("the post step's cancel, redirected to another origin: not followed", async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING'] },
      faults: [
        redirect('cancelProjectRun', 308, `${elsewhere.origin}/v1/projects/proj-1/runs/cancel`, 'all'),
      ],
    });
    const runId = sim.createProjectRun('proj-1');
    const result = await runPostInProcess(
      projectInputs(sim),
      { isPost: 'true', 'runId-0': runId, 'cancellable-0': 'true', 'settled-0': 'false' },
      { clock: virtualClock() },
    );

    expect(result.exitCode).toBe(0);
    expect(elsewhere.requests).toEqual([]);
    expect(annotations(result.log, 'warning').join('\n')).toContain(`a redirect to ${elsewhere.origin}`);
  });
});

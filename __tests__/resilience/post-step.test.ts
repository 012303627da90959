import { runInProcess, runPostInProcess, virtualClock } from '../helpers/in-process.js';
import { projectInputs } from '../helpers/inputs.js';
import { annotations } from '../helpers/runner-files.js';
import { type FaultRule, Simulator } from '../simulator/simulator.js';

/** The post step (post-if: cancelled()), in process, given the state a main step left. */
let sim: Simulator;
afterEach(async () => {
  await sim?.stop();
});

const inputs = (extra: Record<string, string> = {}) => projectInputs(sim, extra);

async function openRun(faults: FaultRule[] = []): Promise<Record<string, string>> {
  sim = await Simulator.start({ project: { statuses: ['RUNNING'] }, faults });
  const runId = sim.createProjectRun('proj-1');
  return { isPost: 'true', 'runId-0': runId, 'cancellable-0': 'true', 'settled-0': 'false' };
}

describe('the post step', () => {
  test('a run the main step left open is cancelled', async () => {
    const state = await openRun();
    const result = await runPostInProcess(inputs(), state, { clock: virtualClock() });
    expect(result.exitCode).toBe(0);
    expect(sim.cancelledRunIds).toEqual(['run-1']);
    expect(result.log).toContain('The main step did not see project run run-1 to an end; cancelling it.');
    expect(result.log).toContain('Cancelled project run run-1 on the service.');
  });

  test('a settled run is left alone: no request', async () => {
    const state = await openRun();
    const result = await runPostInProcess(inputs(), { ...state, 'settled-0': 'true' });
    expect(result.exitCode).toBe(0);
    expect(sim.requests).toHaveLength(0);
    expect(result.log).toContain('No open run to cancel.');
  });

  test('a run that is not this step’s to cancel (wait: false, run-id, cancel-on-abort: false) is left alone', async () => {
    const state = await openRun();
    const result = await runPostInProcess(inputs(), { ...state, 'cancellable-0': 'false' });
    expect(result.exitCode).toBe(0);
    expect(sim.requests).toHaveLength(0);
  });

  test('no run at all (the main step failed on its inputs): no request', async () => {
    await openRun();
    const result = await runPostInProcess(inputs(), { isPost: 'true' });
    expect(result.exitCode).toBe(0);
    expect(sim.requests).toHaveLength(0);
  });

  test('a cancel that fails only warns: the job is not failed by its cleanup', async () => {
    const state = await openRun([
      { operation: 'cancelProjectRun', requests: 'all', fault: { kind: 'status', status: 503 } },
    ]);
    const result = await runPostInProcess(inputs(), state, { clock: virtualClock() });
    expect(result.exitCode).toBe(0);
    expect(sim.count('cancelProjectRun')).toBe(3);
    expect(annotations(result.log, 'error')).toEqual([]);
    expect(annotations(result.log, 'warning')).toEqual([
      expect.stringMatching(/Could not cancel project run 'run-1' of project 'proj-1': HTTP 503/),
    ]);
  });

  test('inputs that no longer parse only warn', async () => {
    const state = await openRun();
    const result = await runPostInProcess(inputs({ 'api-key': '' }), state);
    expect(result.exitCode).toBe(0);
    expect(sim.requests).toHaveLength(0);
    expect(annotations(result.log, 'warning')).toEqual([
      expect.stringMatching(/Could not cancel run run-1: Input 'api-key' is empty/),
    ]);
  });

  test('what the main step saves is what the post step reads: a killed main step leaves its run to it', async () => {
    // The main step times out and its own cancel fails: not settled, so the post step tries again.
    sim = await Simulator.start({
      project: { statuses: ['RUNNING'] },
      faults: [
        { operation: 'cancelProjectRun', requests: [1, 2, 3], fault: { kind: 'status', status: 500 } },
      ],
    });
    const main = await runInProcess(inputs({ 'poll-interval': '10s', timeout: '30s' }), {
      clock: virtualClock(),
    });
    expect(main.state).toMatchObject({ 'runId-0': 'run-1', 'cancellable-0': 'true', 'settled-0': 'false' });
    const post = await runPostInProcess(inputs(), main.state, { clock: virtualClock() });
    expect(post.exitCode).toBe(0);
    expect(sim.cancelledRunIds).toEqual(['run-1']);
  });
});

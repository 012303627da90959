import type { ChildProcess } from 'node:child_process';
import { nodeBinaries, postStepEnv, runDist } from '../helpers/dist-runner.js';
import { projectInputs } from '../helpers/inputs.js';
import { Simulator } from '../simulator/simulator.js';

/** Cancellation as the runner does it: signals to dist/index.js, then the post step. */
describe.each(nodeBinaries())('cancelling dist/index.js on $name', ({ name, bin }) => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.stop();
  });

  const inputs = () => projectInputs(sim, { 'poll-interval': '100ms' });

  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: the run is cancelled within a second, outputs and summary written, exit well before 7.5 s',
    async (signal) => {
      sim = await Simulator.start({ project: { statuses: ['QUEUED', 'RUNNING'] } });
      let signalledAt = 0;
      const result = await runDist(inputs(), {
        node: bin,
        onSpawn: (child: ChildProcess) => {
          sim.waitForRequests('getProjectRun', 2).then(() => {
            signalledAt = Date.now();
            child.kill(signal);
          });
        },
      });
      const exitedAt = Date.now();
      const cancel = sim.requests.find((request) => request.operation === 'cancelProjectRun');
      expect(cancel?.body).toEqual({ where: { runId: 'run-1' } });
      expect((cancel?.at ?? Number.POSITIVE_INFINITY) - signalledAt).toBeLessThan(1000);
      expect(exitedAt - signalledAt).toBeLessThan(7500);
      expect(result.signal).toBeNull();
      expect(result.code).toBe(1);
      expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'CANCELLED', success: 'false' });
      expect(result.summary).toMatch(/cancelled/i);
      expect(result.summary).toContain('Cancelled project run run-1 on the service.');
      expect(result.stdout).toContain(`Received ${signal}`);
      expect(result.state).toMatchObject({ runId: 'run-1', cancellable: 'true', settled: 'true' });
      expect(result.stderr).toBe('');
    },
  );

  test('worst path, a start answered late after SIGINT and a cancel that never answers: gone well before 7.5 s', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING'] },
      faults: [
        { operation: 'startProjectRun', requests: [1], fault: { kind: 'delay', ms: 3200 } },
        { operation: 'cancelProjectRun', requests: 'all', fault: { kind: 'hang' } },
      ],
    });
    let signalledAt = 0;
    const result = await runDist(inputs(), {
      node: bin,
      onSpawn: (child: ChildProcess) => {
        sim.waitForRequests('startProjectRun').then(() => {
          signalledAt = Date.now();
          child.kill('SIGINT');
        });
      },
    });
    const signalToExit = Date.now() - signalledAt;
    console.log(`worst cancellation path on ${name}: SIGINT to exit in ${signalToExit} ms`);
    expect(signalToExit).toBeLessThan(6500);
    expect(result.signal).toBeNull();
    expect(sim.count('cancelProjectRun')).toBeGreaterThanOrEqual(1);
    expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'CANCELLED', success: 'false' });
    expect(result.summary).toMatch(
      /Could not cancel project run &#39;run-1&#39; of project &#39;proj-1&#39;: the service did not answer \(no answer within \d+ ms\)\. It may still be running\./,
    );
    // the post step will try again
    expect(result.state).toMatchObject({ runId: 'run-1', cancellable: 'true', settled: 'false' });
  });

  test('main step killed (SIGKILL): the post step cancels the run', async () => {
    sim = await Simulator.start({ project: { statuses: ['RUNNING'] } });
    const main = await runDist(inputs(), {
      node: bin,
      onSpawn: (child) => {
        sim.waitForRequests('getProjectRun').then(() => child.kill('SIGKILL'));
      },
    });
    expect(main.signal).toBe('SIGKILL');
    expect(main.state).toMatchObject({
      isPost: 'true',
      runId: 'run-1',
      cancellable: 'true',
      settled: 'false',
    });
    expect(sim.count('cancelProjectRun')).toBe(0);

    const post = await runDist(inputs(), { node: bin, env: postStepEnv(main.state) });
    expect(post.code).toBe(0);
    expect(sim.cancelledRunIds).toEqual(['run-1']);
    expect(post.stdout).toContain('Cancelled project run run-1 on the service.');
  });

  test('the post step leaves a settled run alone, and only warns when the cancel fails', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING'] },
      faults: [{ operation: 'cancelProjectRun', requests: 'all', fault: { kind: 'status', status: 503 } }],
    });
    const settled = await runDist(inputs(), {
      node: bin,
      env: postStepEnv({ isPost: 'true', runId: 'run-1', cancellable: 'true', settled: 'true' }),
    });
    expect(settled.code).toBe(0);
    expect(sim.requests).toHaveLength(0);

    const runId = sim.createProjectRun('proj-1');
    const failing = await runDist(inputs(), {
      node: bin,
      env: postStepEnv({ isPost: 'true', runId, cancellable: 'true', settled: 'false' }),
    });
    expect(failing.code).toBe(0);
    expect(sim.count('cancelProjectRun')).toBeGreaterThanOrEqual(1);
    expect(failing.stdout).toMatch(
      /::warning::Could not cancel project run 'run-1' of project 'proj-1': HTTP 503: Service Unavailable/,
    );
  });

  test('a wait: false run is never cancelled, by a signal or by the post step', async () => {
    sim = await Simulator.start({ project: { statuses: ['RUNNING'] } });
    const main = await runDist({ ...inputs(), wait: 'false' }, { node: bin });
    expect(main.code).toBe(0);
    expect(main.outputs).toMatchObject({ 'run-id': 'run-1', status: 'STARTED' });
    expect(main.state.cancellable).toBe('false');
    const post = await runDist({ ...inputs(), wait: 'false' }, { node: bin, env: postStepEnv(main.state) });
    expect(post.code).toBe(0);
    expect(sim.count('cancelProjectRun')).toBe(0);
  });
});

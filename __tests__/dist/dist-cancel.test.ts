import type { ChildProcess } from 'node:child_process';
import { CANCELLED_JOB_BUDGET_MS } from '../../src/run/signals.js';
import { nodeBinaries, postStepEnv, runDist } from '../helpers/dist-runner.js';
import { projectInputs } from '../helpers/inputs.js';
import { manualClock } from '../helpers/virtual-clock.js';
import { Simulator } from '../simulator/simulator.js';

/** Resolves once the step has printed `text` on stdout. */
function printed(child: ChildProcess, text: string): Promise<void> {
  let out = '';
  return new Promise((resolve) =>
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes(text)) resolve();
    }),
  );
}

/** Cancellation as the runner does it: signals to dist/index.js, then the post step. */
describe.each(nodeBinaries())('cancelling dist/index.js on $name', ({ bin }) => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.stop();
  });

  const inputs = () => projectInputs(sim, { 'poll-interval': '100ms' });

  // How long the step takes to end after a signal was measured once (bench/results.md, "Cancellation").
  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: the run is cancelled, outputs and summary written, and the step exits by itself',
    async (signal) => {
      sim = await Simulator.start({ project: { statuses: ['QUEUED', 'RUNNING'] } });
      let signalledAt = Number.POSITIVE_INFINITY;
      const result = await runDist(inputs(), {
        node: bin,
        onSpawn: (child: ChildProcess) => {
          sim.waitForRequests('getProjectRun', 2).then(() => {
            signalledAt = Date.now();
            child.kill(signal);
          });
        },
      });
      const cancels = sim.requests.filter((request) => request.operation === 'cancelProjectRun');
      expect(cancels).toHaveLength(1);
      expect(cancels[0]?.body).toEqual({ where: { runId: 'run-1' } });
      expect(cancels[0]?.at).toBeGreaterThanOrEqual(signalledAt);
      expect(result.signal).toBeNull();
      expect(result.code).toBe(1);
      expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'CANCELLED', success: 'false' });
      expect(result.summary).toMatch(/cancelled/i);
      expect(result.summary).toContain('Cancelled project run run-1 on the service.');
      expect(result.stdout).toContain(`Received ${signal}`);
      expect(result.state).toMatchObject({
        'runId-0': 'run-1',
        'cancellable-0': 'true',
        'settled-0': 'true',
      });
      expect(result.stderr).toBe('');
    },
  );

  // The time this path takes (SIGINT to exit) was measured once (bench/results.md, "Cancellation").
  test("a start answered after SIGINT, and a cancel that never answers: cut by the job's budget, the step exits by itself", async () => {
    // The simulator holds the start's answer until the step has taken the signal.
    const clock = manualClock(Date.now());
    sim = await Simulator.start(
      {
        project: { statuses: ['RUNNING'] },
        faults: [
          { operation: 'startProjectRun', requests: [1], fault: { kind: 'delay', ms: 3200 } },
          { operation: 'cancelProjectRun', requests: 'all', fault: { kind: 'hang' } },
        ],
      },
      { clock },
    );
    const result = await runDist(inputs(), {
      node: bin,
      onSpawn: (child: ChildProcess) => {
        sim.waitForRequests('startProjectRun').then(() => child.kill('SIGINT'));
        void printed(child, 'Received SIGINT').then(() => clock.advance(3200));
      },
    });
    expect(result.signal).toBeNull();
    expect(sim.count('cancelProjectRun')).toBeGreaterThanOrEqual(1);
    expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'CANCELLED', success: 'false' });
    const cut =
      /Could not cancel project run &#39;run-1&#39; of project &#39;proj-1&#39;: the service did not answer \(no answer within (\d+) ms\)(?: \(gave up after \d+ attempts over ([\d.]+) s\))?\. It may still be running\./;
    expect(result.summary).toMatch(cut);
    // It gave up within what was left of the job's budget, as the step's own clock tells.
    const [, withinMs, overS] = cut.exec(result.summary) ?? [];
    expect(Number(withinMs)).toBeLessThanOrEqual(CANCELLED_JOB_BUDGET_MS);
    expect(Number(overS ?? 0) * 1000).toBeLessThanOrEqual(CANCELLED_JOB_BUDGET_MS);
    // the post step will try again
    expect(result.state).toMatchObject({ 'runId-0': 'run-1', 'cancellable-0': 'true', 'settled-0': 'false' });
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
      'runId-0': 'run-1',
      'cancellable-0': 'true',
      'settled-0': 'false',
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
      env: postStepEnv({ isPost: 'true', 'runId-0': 'run-1', 'cancellable-0': 'true', 'settled-0': 'true' }),
    });
    expect(settled.code).toBe(0);
    expect(sim.requests).toHaveLength(0);

    const runId = sim.createProjectRun('proj-1');
    const failing = await runDist(inputs(), {
      node: bin,
      env: postStepEnv({ isPost: 'true', 'runId-0': runId, 'cancellable-0': 'true', 'settled-0': 'false' }),
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
    expect(main.state['cancellable-0']).toBe('false');
    const post = await runDist({ ...inputs(), wait: 'false' }, { node: bin, env: postStepEnv(main.state) });
    expect(post.code).toBe(0);
    expect(sim.count('cancelProjectRun')).toBe(0);
  });
});

import { START_GRACE_MS } from '../../src/run/signals.js';
import { runInProcess, virtualClock } from '../helpers/in-process.js';
import { projectInputs, suiteInputs } from '../helpers/inputs.js';
import { annotations } from '../helpers/runner-files.js';
import { manualClock } from '../helpers/virtual-clock.js';
import { type Operation, Simulator } from '../simulator/simulator.js';

let sim: Simulator;
afterEach(async () => {
  await sim?.stop();
});

const inputs = (extra: Record<string, string> = {}) => projectInputs(sim, extra);

/** Cancels the job (aborts) once the simulator has received `count` requests of an operation. */
function abortAfterRequests(operation: Operation, count: number): AbortController {
  const controller = new AbortController();
  void sim.waitForRequests(operation, count).then(() => controller.abort());
  return controller;
}

describe('the timeout input', () => {
  test('on expiry the project run is cancelled and the step fails with TIMEDOUT', async () => {
    sim = await Simulator.start({ project: { statuses: ['QUEUED', 'RUNNING'] } });
    const clock = virtualClock();
    const result = await runInProcess(inputs({ 'poll-interval': '10s', timeout: '2m' }), { clock });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'TIMEDOUT', success: 'false' });
    expect(sim.cancelledRunIds).toEqual(['run-1']);
    // every 10 s from 0 to 2 minutes, the last one at the deadline, then the cancel and nothing more
    expect(sim.requests.map((request) => request.operation)).toEqual([
      'startProjectRun',
      ...Array(13).fill('getProjectRun'),
      'cancelProjectRun',
    ]);
    expect(sim.requests.at(-1)?.body).toEqual({ where: { runId: 'run-1' } });
    expect(annotations(result.log, 'error')[0]).toMatch(
      /project run run-1 did not finish within the time-out of 2 min \('timeout' input\); its last status was RUNNING/,
    );
    expect(result.summary).toContain('Cancelled project run run-1 on the service.');
    // one event, one line of the log
    expect(result.log.split('Cancelled project run run-1 on the service.')).toHaveLength(2);
    expect(result.state).toMatchObject({ 'runId-0': 'run-1', 'settled-0': 'true' });
  });

  test('at the deadline the run is polled once more: one that passed just before it is PASSED, not cancelled', async () => {
    // timeout 4s, poll-interval 3s: polls at 0 s and 3 s say RUNNING, the run passes at 3.6 s
    sim = await Simulator.start({ project: { statuses: ['RUNNING', 'RUNNING', 'PASSED'] } });
    const result = await runInProcess(inputs({ 'poll-interval': '3s', timeout: '4s' }), {
      clock: virtualClock(),
    });
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true' });
    expect(sim.count('getProjectRun')).toBe(3);
    expect(sim.count('cancelProjectRun')).toBe(0);
    expect(result.state).toMatchObject({ 'settled-0': 'true' });
  });

  test('the poll at the deadline has a budget of its own: a hung one is cut, then the run is cancelled', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING'] },
      faults: [{ operation: 'getProjectRun', requests: [2], fault: { kind: 'hang' } }],
    });
    const clock = virtualClock();
    // Once the simulator holds the poll at the deadline, its budget (request-timeout) passes.
    void sim.waitForRequests('getProjectRun', 2).then(() => clock.advance(300));
    const result = await runInProcess(
      inputs({ 'poll-interval': '3s', timeout: '2s', 'request-timeout': '300ms' }),
      { clock },
    );
    expect(result.outputs.status).toBe('TIMEDOUT');
    expect(sim.requests.map((request) => request.operation)).toEqual([
      'startProjectRun',
      'getProjectRun',
      'getProjectRun',
      'cancelProjectRun',
    ]);
  });

  test('a suite run that finished at the deadline is read and reported, not timed out', async () => {
    sim = await Simulator.start({ suite: { statuses: ['RUNNING', 'RUNNING', 'FINISHED'] } });
    const result = await runInProcess(suiteInputs(sim, { 'poll-interval': '3s', timeout: '4s' }), {
      clock: virtualClock(),
    });
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true', total: '3' });
    expect(sim.count('getSuiteRunStatus')).toBe(3);
    expect(sim.count('getSuiteRunResult')).toBe(1);
  });

  test('a heartbeat is logged once a minute while nothing changes', async () => {
    sim = await Simulator.start({ project: { statuses: ['RUNNING'] } });
    const result = await runInProcess(inputs({ 'poll-interval': '10s', timeout: '210' }), {
      clock: virtualClock(),
    });
    const heartbeats = result.log.split('\n').filter((line) => line.includes('still RUNNING'));
    expect(heartbeats).toHaveLength(3);
  });

  test('with cancel-on-abort false the run is left running', async () => {
    sim = await Simulator.start({ project: { statuses: ['RUNNING'] } });
    const result = await runInProcess(
      inputs({ 'poll-interval': '10s', timeout: '1m', 'cancel-on-abort': 'false' }),
      {
        clock: virtualClock(),
      },
    );
    expect(result.outputs.status).toBe('TIMEDOUT');
    expect(sim.count('cancelProjectRun')).toBe(0);
    expect(result.log).toContain('cancel-on-abort is false');
    expect(result.state['cancellable-0']).toBe('false');
  });

  test('a hung poll cannot stall the step past the timeout', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING'] },
      faults: [{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'hang' } }],
    });
    const clock = virtualClock();
    // Once the simulator holds the first poll, the time-out (1 s) passes: not the request-timeout (30 s).
    void sim.waitForRequests('getProjectRun').then(() => clock.advance(1000));
    const result = await runInProcess(inputs({ timeout: '1s', 'request-timeout': '30s' }), { clock });
    expect(result.outputs.status).toBe('TIMEDOUT');
    expect(sim.cancelledRunIds).toEqual(['run-1']);
  });
});

describe('cancellation of the job', () => {
  test('a project run is cancelled, outputs and a short summary written', async () => {
    sim = await Simulator.start({ project: { statuses: ['RUNNING'] } });
    const controller = abortAfterRequests('getProjectRun', 2);
    const result = await runInProcess(inputs(), { cancelSignal: controller.signal });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'CANCELLED', success: 'false' });
    expect(sim.cancelledRunIds).toEqual(['run-1']);
    expect(result.summary).toMatch(/cancelled/i);
    expect(result.state).toMatchObject({ 'settled-0': 'true' });
  });

  test('a suite run cannot be cancelled: the log and summary say the remote run goes on', async () => {
    sim = await Simulator.start({ suite: { statuses: ['RUNNING'] } });
    const controller = abortAfterRequests('getSuiteRunStatus', 2);
    const result = await runInProcess(suiteInputs(sim), { cancelSignal: controller.signal });
    expect(result.outputs).toMatchObject({ status: 'CANCELLED', success: 'false' });
    expect(sim.count('cancelProjectRun')).toBe(0);
    const note =
      /Test suite runs have no cancel operation in the service's interface: test suite run suite-run-1 goes on/;
    expect(result.log).toMatch(note);
    expect(result.summary).toMatch(
      /no cancel operation in the service&#39;s interface: test suite run suite-run-1 goes on/,
    );
  });

  test('a signal while the start request is in flight cancels the run as soon as its id arrives', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING'] },
      faults: [{ operation: 'startProjectRun', requests: [1], fault: { kind: 'delay', ms: 300 } }],
    });
    // The simulator holds the start's answer for 300 ms: the signal comes while it is in flight.
    const controller = abortAfterRequests('startProjectRun', 1);
    const result = await runInProcess(inputs(), { cancelSignal: controller.signal });
    expect(result.outputs).toMatchObject({ 'run-id': 'run-1', status: 'CANCELLED' });
    expect(sim.count('getProjectRun')).toBe(0);
    expect(sim.cancelledRunIds).toEqual(['run-1']);
  });

  test.each([
    ['answers 502', { kind: 'status', status: 502, afterMs: 300 } as const, {}, /HTTP 502/],
    ['is reset', { kind: 'reset', afterMs: 300 } as const, {}, /network error ECONNRESET/],
    ['times out', { kind: 'hang' } as const, { 'request-timeout': '500ms' }, /did not answer/],
    ['is cut mid-body', { kind: 'cut', afterMs: 300 } as const, {}, /network error/],
  ])(
    'a signal while the start is in flight, and the start then %s: a run may have been started',
    async (_name, fault, extra, failure) => {
      sim = await Simulator.start({ faults: [{ operation: 'startProjectRun', requests: [1], fault }] });
      const controller = abortAfterRequests('startProjectRun', 1);
      const result = await runInProcess(inputs(extra), { cancelSignal: controller.signal });
      expect(result.outputs).toMatchObject({ status: 'CANCELLED', success: 'false' });
      expect(result.outputs['run-id']).toBeUndefined();
      const message = annotations(result.log, 'error').at(-1) ?? '';
      expect(message).toMatch(failure);
      expect(message).toMatch(/may have started/);
      expect(message).not.toMatch(/no run was started/);
      expect(sim.count('startProjectRun')).toBe(1);
    },
  );

  test('a signal while the start is in flight, and the service then refuses it (503): no run was started', async () => {
    sim = await Simulator.start({
      faults: [
        { operation: 'startProjectRun', requests: [1], fault: { kind: 'status', status: 503, afterMs: 300 } },
      ],
    });
    const controller = abortAfterRequests('startProjectRun', 1);
    const result = await runInProcess(inputs(), { cancelSignal: controller.signal });
    expect(result.outputs).toMatchObject({ status: 'CANCELLED', success: 'false' });
    expect(annotations(result.log, 'error').at(-1)).toMatch(/no run was started/);
    expect(sim.count('startProjectRun')).toBe(1);
  });

  test('a run attached with run-id is not cancelled: it belongs to the step that started it', async () => {
    sim = await Simulator.start({ project: { statuses: ['RUNNING'] } });
    const runId = sim.createProjectRun('proj-1');
    const controller = abortAfterRequests('getProjectRun', 1);
    const result = await runInProcess(inputs({ 'run-id': runId }), { cancelSignal: controller.signal });
    expect(result.outputs.status).toBe('CANCELLED');
    expect(sim.count('cancelProjectRun')).toBe(0);
    expect(result.log).toContain('was not started by this step, so it is left running');
  });

  test('a cancel request that fails only warns', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING'] },
      faults: [{ operation: 'cancelProjectRun', requests: 'all', fault: { kind: 'status', status: 500 } }],
    });
    const controller = abortAfterRequests('getProjectRun', 1);
    const result = await runInProcess(inputs(), { cancelSignal: controller.signal, clock: virtualClock() });
    expect(result.outputs.status).toBe('CANCELLED');
    expect(sim.count('cancelProjectRun')).toBe(3);
    // Not settled: the post step tries the cancel again.
    expect(result.state).toMatchObject({ 'cancellable-0': 'true', 'settled-0': 'false' });
    expect(annotations(result.log, 'warning').join('\n')).toMatch(
      /Could not cancel project run 'run-1' of project 'proj-1': HTTP 500: Internal Server Error \(gave up after 3 attempts/,
    );
  });

  test('a cancel whose retry would outlast its budget reports the service error, not a time-out', async () => {
    sim = await Simulator.start({
      project: { statuses: ['RUNNING'] },
      faults: [
        {
          operation: 'cancelProjectRun',
          requests: 'all',
          fault: { kind: 'status', status: 503, retryAfter: '10' },
        },
      ],
    });
    const controller = abortAfterRequests('getProjectRun', 1);
    const result = await runInProcess(inputs(), { cancelSignal: controller.signal, clock: virtualClock() });
    expect(sim.count('cancelProjectRun')).toBe(1);
    const warning = annotations(result.log, 'warning').join('\n');
    expect(warning).toMatch(
      /Could not cancel project run 'run-1' of project 'proj-1': HTTP 503: Service Unavailable/,
    );
    expect(warning).not.toMatch(/time-out/);
  });

  test('a job cancelled before the start sends nothing', async () => {
    sim = await Simulator.start();
    const controller = new AbortController();
    controller.abort();
    const result = await runInProcess(inputs(), { cancelSignal: controller.signal });
    expect(sim.requests).toHaveLength(0);
    expect(result.outputs).toMatchObject({ status: 'CANCELLED', success: 'false' });
    expect(result.outputs['run-id']).toBeUndefined();
  });

  test("a signal during the start's retry wait stops the retries: no second start", async () => {
    sim = await Simulator.start({
      faults: [
        {
          operation: 'startProjectRun',
          requests: [1],
          fault: { kind: 'status', status: 503, retryAfter: '5' },
        },
      ],
    });
    const controller = abortAfterRequests('startProjectRun', 1);
    // No time passes: a step that slept through the wait asked for (5 s), or the start's grace, never ends.
    const clock = manualClock();
    const result = await runInProcess(inputs(), { cancelSignal: controller.signal, clock });
    expect(clock.slept).toEqual([START_GRACE_MS]);
    expect(sim.count('startProjectRun')).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'CANCELLED', success: 'false' });
    expect(annotations(result.log, 'error').at(-1)).toMatch(
      /cancelled before the service accepted the start request/,
    );
  });

  test('a start still unanswered 3.5 s after the signal is given up, on the injected clock', async () => {
    sim = await Simulator.start({
      faults: [{ operation: 'startProjectRun', requests: 'all', fault: { kind: 'hang' } }],
    });
    const controller = abortAfterRequests('startProjectRun', 1);
    const clock = virtualClock();
    const result = await runInProcess(inputs({ 'request-timeout': '30s' }), {
      cancelSignal: controller.signal,
      clock,
    });
    // Given up when the grace passed on the step's clock: a real 30 s request-timeout never came into it.
    expect(clock.slept).toEqual([START_GRACE_MS]);
    expect(sim.count('startProjectRun')).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'CANCELLED', success: 'false' });
    expect(annotations(result.log, 'error').at(-1)).toContain(
      `went unanswered for ${START_GRACE_MS / 1000} s more`,
    );
    expect(annotations(result.log, 'error').at(-1)).toMatch(/the service may have started a run/);
  });
});

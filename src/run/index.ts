import { hideSensitiveValues } from '../inputs/sensitive-overrides.js';
import { modeOf, type Settings } from '../inputs/settings.js';
import { expandUrl } from '../inputs/url-template.js';
import type { RunOutcome } from '../report/outcome.js';
import { formatDuration } from '../runner/duration.js';
import { info, reason, warning } from '../runner/log.js';
import { saveState, setOutputLines } from '../runner/step.js';
import { line } from '../runner/text.js';
import { type CallContext, ServiceClient } from '../service/client.js';
import type { Clock } from '../service/clock.js';
import { Aborted, DeadlineExceeded, ServiceError } from '../service/errors.js';
import { pollUntil } from '../service/poll.js';
import {
  type FinishedRun,
  ProjectRunDriver,
  type RunDriver,
  type StartedRun,
  SuiteRunDriver,
} from '../service/run-driver.js';
import { emptyOutcome, finishedOutcome, type RunIdentity, withLinks } from './conclude.js';
import { type JobCancellation, type RunContext, START_GRACE_MS } from './signals.js';
import { STATE, stateOf } from './state.js';
import { openRunTunnels } from './tunnel.js';

/** Told once a target's run has started and this step waits for it (its check run goes in progress). */
type OnStarted = (index: number, run: RunIdentity) => Promise<void>;

/**
 * Every target's run, started together and each seen to its end, in the targets' order; one
 * tunnel for the step. A run that does not finish is cancelled when it is this step's to cancel.
 * One target is the case of one.
 */
export async function runTargets(
  targets: Settings[],
  context: RunContext,
  onStarted: OnStarted,
): Promise<RunOutcome[]> {
  // Set as each run starts, so that a step that fails later still names every run: one a line.
  const runIds = targets.map(() => '');
  // Several targets: a line each even when none starts.
  if (targets.length > 1) setOutputLines('run-id', runIds);
  const started: OnStarted = async (index, run) => {
    runIds[index] = run.runId ?? '';
    setOutputLines('run-id', runIds);
    if (targets[index]?.wait) await onStarted(index, run);
  };
  const tunnels = await openRunTunnels(targets, context);
  const runOne = async (settings: Settings, index: number): Promise<RunOutcome> => {
    const suiteStart = settings.target.kind === 'suite-start';
    if (tunnels.kind === 'failed') {
      const status = tunnels.error.cancelled ? 'CANCELLED' : 'ERROR';
      const why = `${tunnels.error.message} No run was started.`;
      // Only the suite runs needed it: a project run goes on.
      if (suiteStart) return emptyOutcome(identityOf(settings), status, why);
      return startAndWait(settings, index, context, started);
    }
    const outcome = await startAndWait(tunnels.targets[index] as Settings, index, context, started);
    return suiteStart && tunnels.note ? { ...outcome, notes: [...outcome.notes, tunnels.note] } : outcome;
  };
  try {
    return await Promise.all(
      targets.map(async (settings, index) => withLinks(await runOne(settings, index), settings)),
    );
  } finally {
    if (tunnels.kind === 'open') await tunnels.close();
  }
}

function identityOf(settings: Settings): RunIdentity {
  const { target } = settings;
  return {
    mode: modeOf(target),
    ...(target.kind === 'project'
      ? { projectId: target.projectId, playwrightProjectName: target.playwrightProjectName }
      : { testSuiteId: target.testSuiteId }),
    branch: settings.branch,
    environment: settings.environment,
    failOnFlaky: settings.failOnFlaky,
  };
}

async function startAndWait(
  settings: Settings,
  index: number,
  context: RunContext,
  onStarted: OnStarted,
): Promise<RunOutcome> {
  const plan = planRun(settings, context.clock);
  const { driver } = plan;
  const startedAt = context.clock.now();
  const started = await startOrAttach(plan, startedAt + settings.timeoutMs, context.job);
  if (started.kind === 'refused') return started.outcome;
  const identity = started.run;
  const { runId } = identity;

  const leftRunning = whyLeftRunning(driver, runId, plan.kind === 'attach', settings.cancelOnAbort);
  const cancellable = settings.wait && leftRunning === undefined;
  saveState(stateOf(STATE.runId, index), runId);
  saveState(stateOf(STATE.cancellable, index), String(cancellable));
  saveState(stateOf(STATE.settled, index), 'false');
  const page = expandUrl(settings.dashboardUrl, identity);
  await onStarted(index, { ...identity, dashboardUrl: typeof page === 'string' ? page : undefined });
  if (!settings.wait) return emptyOutcome(identity, 'STARTED');

  let outcome: RunOutcome;
  let settled = true;
  try {
    const result = await waitForFinish({ driver, runId, startedAt }, settings, context);
    if (result.kind === 'unfinished') {
      if (leftRunning) info(line`${leftRunning}`);
      const ended = leftRunning
        ? { note: leftRunning, settled: true }
        : await cancelRun(driver, runId, settings.requestTimeoutMs, context);
      settled = ended.settled;
      outcome = emptyOutcome(identity, result.status, result.message, [ended.note]);
    } else {
      outcome = finishedOutcome(identity, result.run);
    }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    outcome = emptyOutcome(identity, 'ERROR', error.message);
  }
  saveState(stateOf(STATE.settled, index), String(settled));
  return outcome;
}

/** The run, with what its start told of it, or the outcome when no run could be started. */
type Started =
  | { kind: 'started'; run: RunIdentity & { runId: string } }
  | { kind: 'refused'; outcome: RunOutcome };

async function startOrAttach(plan: RunPlan, deadline: number, job: JobCancellation): Promise<Started> {
  const { driver, identity } = plan;
  const refused = (status: 'CANCELLED' | 'ERROR', message: string): Started => ({
    kind: 'refused',
    outcome: emptyOutcome(identity, status, message),
  });
  if (plan.kind === 'attach') {
    const named = identity.mode === 'project' || identity.testSuiteId !== undefined;
    info(line`Attaching to ${driver.kind} ${plan.runId}${named ? ` of ${driver.target}` : ''}.`);
    return { kind: 'started', run: { ...identity, runId: plan.runId } };
  }
  if (job.signal.aborted) return refused('CANCELLED', 'The job was cancelled before the run was started.');
  const { branch, environment, playwrightProjectName } = identity;
  const details = [
    branch ? `branch '${branch}'` : 'no branch',
    environment ? `environment '${environment}'` : undefined,
    playwrightProjectName ? `Playwright project '${playwrightProjectName}'` : undefined,
  ].filter(Boolean);
  info(line`Starting a ${driver.kind} for ${driver.target} (${details.join(', ')}).`);
  try {
    // A signal stops the start's retries, but a start in flight is awaited for a while: its run id
    // is needed to cancel the run.
    const started = await plan.start({ deadline, stopRetriesOn: job.signal, signal: job.startAbandoned });
    const { runId, testSuiteName, appliedOptions } = started;
    info(line`Started ${driver.kind} ${runId}${testSuiteName ? ` (${testSuiteName})` : ''}.`);
    const projectId = identity.projectId ?? started.projectId;
    return { kind: 'started', run: { ...identity, runId, testSuiteName, projectId, appliedOptions } };
  } catch (error) {
    if (error instanceof ServiceError) return refused('ERROR', error.message);
    if (!(error instanceof Aborted)) throw error;
    return refused('CANCELLED', whyNoRunKnown(error));
  }
}

/** After a start the job's cancellation cut short. */
function whyNoRunKnown(error: Aborted): string {
  if (!error.mayHaveActed) {
    return 'The job was cancelled before the service accepted the start request: no run was started.';
  }
  if (error.abandoned) {
    return `The job was cancelled and the start request went unanswered for ${START_GRACE_MS / 1000} s more: the service may have started a run, which this step cannot cancel without its id. Check the runs on the service.`;
  }
  return `The job was cancelled while the run was being started. ${error.message}`;
}

type Unfinished = { kind: 'unfinished'; status: 'TIMEDOUT' | 'CANCELLED' | 'ERROR'; message: string };
type Waited = { kind: 'finished'; run: FinishedRun } | Unfinished;

const HEARTBEAT_MS = 60_000;
/** The poll at the deadline may run this far past it (and no further than one request-timeout). */
const LAST_LOOK_MS = 5000;

/** The poll delay with about ±10 % jitter, so that jobs started together do not poll in lockstep. */
export function jitteredInterval(pollIntervalMs: number, random: () => number): number {
  return Math.round(pollIntervalMs * (0.9 + 0.2 * random()));
}

/** A run this step waits for: its driver, its id, and when the step started it. */
interface Watched {
  driver: RunDriver;
  runId: string;
  startedAt: number;
}

/** At the deadline, one more poll: a run that finished meanwhile is reported so, and never cancelled. */
async function waitForFinish(
  { driver, runId, startedAt }: Watched,
  settings: Settings,
  { clock, job }: RunContext,
): Promise<Waited> {
  const { signal } = job;
  const deadline = startedAt + settings.timeoutMs;
  const run = `${driver.kind} ${runId}`;
  const elapsed = () => formatDuration(clock.now() - startedAt);
  let lastStatus: string | undefined;
  let lastLineAt = clock.now();
  const look = async (last: boolean): Promise<Waited | undefined> => {
    const lastLook = clock.now() + Math.min(LAST_LOOK_MS, settings.requestTimeoutMs);
    const poll = await driver.poll(runId, { deadline: last ? lastLook : deadline, signal });
    // A line when the status changes, and one a minute while it does not.
    if (poll.status !== lastStatus || clock.now() - lastLineAt >= HEARTBEAT_MS) {
      const change = lastStatus ? `${lastStatus} -> ${poll.status}` : poll.status;
      info(line`[${elapsed()}] ${run}: ${poll.status === lastStatus ? `still ${poll.status}` : change}`);
      lastStatus = poll.status;
      lastLineAt = clock.now();
    }
    if (poll.finished) return { kind: 'finished', run: poll.finished };
    return last ? timedOut(run, settings.timeoutMs, lastStatus) : undefined;
  };
  try {
    const intervalMs = () => jitteredInterval(settings.pollIntervalMs, clock.random);
    const waitMs = deadline - clock.now();
    const result = await pollUntil(look, { clock, waitMs, intervalMs, signal, lastLookWhenLate: true });
    if (result) return result;
  } catch (error) {
    // A request cut by the deadline was the last look: the run did not finish in time.
    if (error instanceof DeadlineExceeded) return timedOut(run, settings.timeoutMs, lastStatus, error);
    if (!(error instanceof Aborted)) throw error;
  }
  return {
    kind: 'unfinished',
    status: 'CANCELLED',
    message: `The job was cancelled while waiting for ${run}.`,
  };
}

/** A run still going at the deadline; an ERROR when the service was failing then, not a slow run. */
function timedOut(run: string, timeoutMs: number, lastStatus?: string, error?: DeadlineExceeded): Unfinished {
  const timeout = `the time-out of ${formatDuration(timeoutMs)} ('timeout' input)`;
  if (error?.serviceFailure) {
    const message = error.gaveUpEarly
      ? error.serviceFailure
      : `${error.serviceFailure} Still failing when ${timeout} expired.`;
    return { kind: 'unfinished', status: 'ERROR', message };
  }
  const last = lastStatus ? `; its last status was ${lastStatus}` : '';
  return {
    kind: 'unfinished',
    status: 'TIMEDOUT',
    message: `${run} did not finish within ${timeout}${last}.`,
  };
}

type RunPlan = { driver: RunDriver; identity: RunIdentity } & (
  | { kind: 'start'; start: (context: CallContext) => Promise<StartedRun> }
  | { kind: 'attach'; runId: string }
);

/** The only place where the two modes differ: which driver, and what starts a run. */
export function planRun(settings: Settings, clock: Clock): RunPlan {
  const client = new ServiceClient(settings.baseUrl, settings.apiKey, settings.requestTimeoutMs, clock);
  const { target } = settings;
  const identity = identityOf(settings);
  if (target.kind === 'project') {
    const driver = new ProjectRunDriver(client, target.projectId);
    if (target.runId !== undefined) return { kind: 'attach', driver, identity, runId: target.runId };
    const { branch, environment } = settings;
    const request = { branch, environment, playwrightProjectName: target.playwrightProjectName };
    return { kind: 'start', driver, identity, start: (context) => driver.start(request, context) };
  }
  const driver = new SuiteRunDriver(client, target.testSuiteId);
  if (target.kind === 'suite-attach') return { kind: 'attach', driver, identity, runId: target.runId };
  const { testSuiteId, options } = target;
  const start = async (context: CallContext): Promise<StartedRun> => {
    const started = await driver.start(testSuiteId, options, context);
    const appliedOptions = started.appliedOptions && hideSensitiveValues(started.appliedOptions, options);
    return { ...started, appliedOptions };
  };
  return { kind: 'start', driver, identity, start };
}

/** Sent while the job is ending. */
const CANCEL_BUDGET_MS = 5000;
const CANCEL_REQUEST_TIMEOUT_MS = 3000;

/** Why this step leaves its run running when it does not finish, if it does. */
function whyLeftRunning(driver: RunDriver, runId: string, attached: boolean, cancelOnAbort: boolean) {
  const run = `${driver.kind} ${runId}`;
  if (attached) return `${run} was not started by this step, so it is left running.`;
  if (!cancelOnAbort) return `cancel-on-abort is false: ${run} is left running.`;
  if (!driver.cancel) {
    return `Test suite runs have no cancel operation in the service's interface: ${run} goes on.`;
  }
  return undefined;
}

/**
 * By the cancelled job's deadline, or within a few seconds. A failure only warns; `settled` is false when
 * a later try (the post step) could still cancel it.
 */
export async function cancelRun(
  driver: RunDriver,
  runId: string,
  requestTimeoutMs: number,
  { clock, job }: RunContext,
): Promise<{ note: string; settled: boolean }> {
  const deadline = job.deadline ?? clock.now() + CANCEL_BUDGET_MS;
  try {
    await driver.cancel?.(runId, {
      deadline,
      requestTimeoutMs: Math.min(requestTimeoutMs, CANCEL_REQUEST_TIMEOUT_MS),
    });
    const note = line`Cancelled ${driver.kind} ${runId} on the service.`;
    info(note);
    return { note, settled: true };
  } catch (error) {
    const run = `${driver.kind} ${runId}`;
    const why = error instanceof ServiceError ? error.message : `Could not cancel ${run}: ${reason(error)}`;
    const note = line`${why} It may still be running.`;
    warning(note);
    return { note, settled: false };
  }
}

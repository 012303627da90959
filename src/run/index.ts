import { modeOf, type Settings } from '../inputs/settings.js';
import { formatDuration } from '../report/format.js';
import type { RunOutcome } from '../report/outcome.js';
import { info } from '../runner/log.js';
import { setOutput } from '../runner/step.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { ServiceError } from '../service/errors.js';
import { cancelRun, whyLeftRunning } from './cancel.js';
import { emptyOutcome, finishedOutcome, type RunIdentity } from './conclude.js';
import { planRun } from './driver.js';
import { withLinks } from './links.js';
import { type WaitResult, waitForFinish } from './poll.js';
import type { JobCancellation } from './signals.js';
import { startOrAttach } from './start.js';
import { saveRunState } from './state.js';
import { openRunTunnels } from './tunnel.js';

/**
 * Starts the run (or attaches to it), waits for its final status, and concludes: the outcome the
 * step reports, with its links to the service's pages. A run that does not finish is cancelled
 * when it is this step's to cancel.
 */
export async function runToOutcome(
  settings: Settings,
  clock: Clock,
  job: JobCancellation,
): Promise<RunOutcome> {
  const { target } = settings;
  const identity: RunIdentity = {
    mode: modeOf(target),
    ...(target.kind === 'project'
      ? { projectId: target.projectId, playwrightProjectName: target.playwrightProjectName }
      : { testSuiteId: target.testSuiteId }),
    branch: settings.branch,
    environment: settings.environment,
    failOnFlaky: settings.failOnFlaky,
  };
  const tunnels = await openRunTunnels(settings, clock, job);
  if (!('close' in tunnels)) {
    const status = tunnels.cancelled ? 'CANCELLED' : 'ERROR';
    return withLinks(emptyOutcome(identity, status, `${tunnels.message} No run was started.`), settings);
  }
  try {
    const outcome = await startAndWait(tunnels.settings, identity, clock, job);
    const notes = tunnels.note ? [...outcome.notes, tunnels.note] : outcome.notes;
    return withLinks({ ...outcome, notes }, settings);
  } finally {
    await tunnels.close();
  }
}

async function startAndWait(
  settings: Settings,
  identity: RunIdentity,
  clock: Clock,
  job: JobCancellation,
): Promise<RunOutcome> {
  const plan = planRun(settings, clock);
  const { driver } = plan;
  const startedAt = clock.now();
  const deadline = startedAt + settings.timeoutMs;

  const started = await startOrAttach(plan, identity, deadline, job);
  if ('outcome' in started) return started.outcome;
  const { runId } = started;
  identity.runId = runId;
  setOutput('run-id', runId);

  const leftRunning = whyLeftRunning(driver, runId, 'attachTo' in plan, settings.cancelOnAbort);
  const cancellable = settings.wait && leftRunning === undefined;
  saveRunState({ runId, cancellable });
  if (!settings.wait) return emptyOutcome(identity, 'STARTED');

  let outcome: RunOutcome;
  let settled = true;
  try {
    const { pollIntervalMs, requestTimeoutMs } = settings;
    const waited = { clock, signal: job.signal, startedAt, deadline, pollIntervalMs, requestTimeoutMs };
    const result = await waitForFinish(driver, runId, waited);
    if (result.kind === 'finished') {
      outcome = finishedOutcome(identity, result.run);
    } else {
      if (leftRunning) info(line`${leftRunning}`);
      const ended = leftRunning
        ? { note: leftRunning, settled: true }
        : await cancelRun(driver, runId, clock, settings.requestTimeoutMs, job.deadline);
      settled = ended.settled;
      outcome = unfinishedOf(result, identity, `${driver.kind} ${runId}`, settings.timeoutMs, [ended.note]);
    }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    outcome = emptyOutcome(identity, 'ERROR', error.message);
  }
  saveRunState({ runId, cancellable, settled });
  return outcome;
}

/** The outcome of a run that did not finish: the job was cancelled, the service failed, or time ran out. */
function unfinishedOf(
  result: Exclude<WaitResult, { kind: 'finished' }>,
  identity: RunIdentity,
  run: string,
  timeoutMs: number,
  notes: string[],
): RunOutcome {
  const timeout = `the time-out of ${formatDuration(timeoutMs)} ('timeout' input)`;
  if (result.kind === 'cancelled') {
    return emptyOutcome(identity, 'CANCELLED', `The job was cancelled while waiting for ${run}.`, notes);
  }
  if (result.serviceFailure) {
    // The service was failing when time ran out: an infrastructure failure, not a slow run.
    const message = result.gaveUpEarly
      ? result.serviceFailure
      : `${result.serviceFailure} Still failing when ${timeout} expired.`;
    return emptyOutcome(identity, 'ERROR', message, notes);
  }
  const last = result.lastStatus ? `; its last status was ${result.lastStatus}` : '';
  return emptyOutcome(identity, 'TIMEDOUT', `${run} did not finish within ${timeout}${last}.`, notes);
}

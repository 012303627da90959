import { modeOf, type Settings } from '../inputs/settings.js';
import { formatDuration } from '../report/format.js';
import type { RunOutcome } from '../report/outcome.js';
import { info } from '../runner/log.js';
import { setOutput } from '../runner/step.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { ServiceError } from '../service/errors.js';
import { cancelRun } from './cancel.js';
import { finishedOutcome, type RunIdentity, startedOutcome, unfinishedOutcome } from './conclude.js';
import { planRun } from './driver.js';
import { withLinks } from './links.js';
import { waitForFinish } from './poll.js';
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
    return withLinks(unfinishedOutcome(identity, status, `${tunnels.message} No run was started.`), settings);
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

  // A step cancels only a run it started itself and waits for.
  const leftRunning =
    'attachTo' in plan
      ? `${driver.kind} ${runId} was not started by this step, so it is left running.`
      : !settings.cancelOnAbort
        ? `cancel-on-abort is false: ${driver.kind} ${runId} is left running.`
        : undefined;
  const cancellable = settings.wait && leftRunning === undefined && driver.cancel !== undefined;
  saveRunState({ runId, cancellable });
  if (!settings.wait) return startedOutcome(identity);

  const endRun = async (): Promise<{ notes: string[]; settled: boolean }> => {
    if (leftRunning) {
      info(line`${leftRunning}`);
      return { notes: [leftRunning], settled: true };
    }
    const { note, settled } = await cancelRun(driver, runId, clock, settings.requestTimeoutMs, job.deadline);
    return { notes: [note], settled };
  };

  let outcome: RunOutcome;
  let settled = true;
  try {
    const result = await waitForFinish(driver, runId, {
      clock,
      signal: job.signal,
      startedAt,
      deadline,
      pollIntervalMs: settings.pollIntervalMs,
      requestTimeoutMs: settings.requestTimeoutMs,
    });
    if (result.kind === 'finished') {
      outcome = finishedOutcome(identity, result.run);
    } else {
      const ended = await endRun();
      settled = ended.settled;
      const timeout = `the time-out of ${formatDuration(settings.timeoutMs)} ('timeout' input)`;
      if (result.kind === 'cancelled') {
        const message = `The job was cancelled while waiting for ${driver.kind} ${runId}.`;
        outcome = unfinishedOutcome(identity, 'CANCELLED', message, ended.notes);
      } else if (result.serviceFailure) {
        // The service was failing when time ran out: an infrastructure failure, not a slow run.
        const message = result.gaveUpEarly
          ? result.serviceFailure
          : `${result.serviceFailure} Still failing when ${timeout} expired.`;
        outcome = unfinishedOutcome(identity, 'ERROR', message, ended.notes);
      } else {
        const last = result.lastStatus ? `; its last status was ${result.lastStatus}` : '';
        const message = `${driver.kind} ${runId} did not finish within ${timeout}${last}.`;
        outcome = unfinishedOutcome(identity, 'TIMEDOUT', message, ended.notes);
      }
    }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    outcome = unfinishedOutcome(identity, 'ERROR', error.message);
  }
  saveRunState({ runId, cancellable, settled });
  return outcome;
}

import * as core from '@actions/core';
import { JobCancellation, START_GRACE_MS } from './cancellation.js';
import { type Clock, systemClock } from './clock.js';
import { finishedOutcome, type RunIdentity, startedOutcome, unfinishedOutcome } from './conclude.js';
import { formatElapsed } from './duration.js';
import { InputError } from './input-error.js';
import type { RunOutcome } from './outcome.js';
import { writeReports } from './report/index.js';
import { redact } from './secrets.js';
import { Aborted, ServiceClient, ServiceError } from './service/client.js';
import type { RunDriver } from './service/driver.js';
import { ProjectRunDriver } from './service/project-run.js';
import { SuiteRunDriver } from './service/suite-run.js';
import { type InputReader, readSettings, type Settings } from './settings.js';
import { STATE, saveRunState } from './state.js';
import { onTermination } from './termination.js';
import { waitForFinish } from './wait.js';

/** The cancel of a run that timed out, or in the post step: sent while the job is ending. */
const CANCEL_BUDGET_MS = 5000;
const CANCEL_REQUEST_TIMEOUT_MS = 3000;

export interface RunDependencies {
  clock?: Clock;
  input?: InputReader;
  env?: NodeJS.ProcessEnv;
  /** Replaces the process signal handlers, for tests that cancel in-process. */
  cancelSignal?: AbortSignal;
}

export function createDriver(settings: Settings, clock: Clock): RunDriver {
  const client = new ServiceClient(settings.baseUrl, settings.apiKey, settings.requestTimeoutMs, clock);
  if (settings.mode === 'project') {
    return new ProjectRunDriver(client, {
      projectId: settings.projectId ?? '',
      branch: settings.branch,
      environment: settings.environment,
      playwrightProjectName: settings.playwrightProjectName,
    });
  }
  return new SuiteRunDriver(client, settings.testSuiteId, settings.suiteOptions);
}

export interface CancelResult {
  /** What happened, for the log and the summary. */
  line: string;
  /** False when the run may still be running and a later try (the post step) could cancel it. */
  settled: boolean;
}

/**
 * Cancels a run on the service, by `deadline` (the cancelled job's, else CANCEL_BUDGET_MS from
 * now); a failure only warns.
 */
export async function cancelRun(
  driver: RunDriver,
  runId: string,
  clock: Clock,
  requestTimeoutMs: number,
  deadline = clock.now() + CANCEL_BUDGET_MS,
): Promise<CancelResult> {
  if (!driver.cancel) {
    return {
      line: `Test suite runs have no cancel operation in the service's interface: test suite run ${runId} goes on.`,
      settled: true,
    };
  }
  try {
    await driver.cancel(runId, {
      deadline,
      requestTimeoutMs: Math.min(requestTimeoutMs, CANCEL_REQUEST_TIMEOUT_MS),
    });
    return { line: `Cancelled ${driver.kind} ${runId} on the service.`, settled: true };
  } catch (error) {
    core.warning(
      error instanceof ServiceError ? error.message : `Could not cancel ${driver.kind} ${runId}: ${error}`,
    );
    return { line: `Could not cancel ${driver.kind} ${runId}; it may still be running.`, settled: false };
  }
}

function describeStart(driver: RunDriver, settings: Settings): string {
  const details = [
    settings.branch ? `branch '${settings.branch}'` : 'no branch',
    settings.environment ? `environment '${settings.environment}'` : undefined,
    settings.playwrightProjectName ? `Playwright project '${settings.playwrightProjectName}'` : undefined,
  ].filter(Boolean);
  return `Starting a ${driver.kind} for ${driver.target} (${details.join(', ')}).`;
}

async function execute(settings: Settings, clock: Clock, job: JobCancellation): Promise<RunOutcome> {
  const { signal } = job;
  const driver = createDriver(settings, clock);
  const identity: RunIdentity = {
    mode: settings.mode,
    projectId: settings.projectId,
    testSuiteId: settings.testSuiteId,
    branch: settings.branch,
    environment: settings.environment,
    failOnFlaky: settings.failOnFlaky,
  };
  const startedAt = clock.now();
  const deadline = startedAt + settings.timeoutMs;

  let runId: string;
  if (settings.runId) {
    runId = settings.runId;
    core.info(`Attaching to ${driver.kind} ${runId}${settings.projectId ? ` of ${driver.target}` : ''}.`);
  } else {
    if (signal.aborted) {
      return unfinishedOutcome(identity, 'CANCELLED', 'The job was cancelled before the run was started.');
    }
    core.info(describeStart(driver, settings));
    try {
      // A signal stops the start's retries, but a start in flight is awaited for a while: its run
      // id is needed to cancel the run.
      const started = await driver.start({ deadline, stopRetriesOn: signal, signal: job.startAbandoned });
      runId = started.runId;
      identity.testSuiteName = started.testSuiteName;
      identity.appliedOptions = started.appliedOptions;
    } catch (error) {
      if (error instanceof ServiceError) return unfinishedOutcome(identity, 'ERROR', error.message);
      if (error instanceof Aborted) {
        const message = !error.mayHaveActed
          ? 'The job was cancelled before the service accepted the start request: no run was started.'
          : error.abandoned
            ? `The job was cancelled and the start request went unanswered for ${START_GRACE_MS / 1000} s more: the service may have started a run, which this step cannot cancel without its id. Check the runs on the service.`
            : `The job was cancelled while the run was being started. ${error.message}`;
        return unfinishedOutcome(identity, 'CANCELLED', message);
      }
      throw error;
    }
    core.info(
      `Started ${driver.kind} ${runId}${identity.testSuiteName ? ` (${identity.testSuiteName})` : ''}.`,
    );
  }
  identity.runId = runId;
  core.setOutput('run-id', runId);

  // A step cancels only a run it started itself and waits for.
  const leftRunning = settings.runId
    ? `${driver.kind} ${runId} was not started by this step, so it is left running.`
    : !settings.cancelOnAbort
      ? `cancel-on-abort is false: ${driver.kind} ${runId} is left running.`
      : undefined;
  const cancellable = settings.wait && leftRunning === undefined && driver.cancel !== undefined;
  saveRunState({ runId, cancellable });
  if (!settings.wait) return startedOutcome(identity);

  const endRun = async (): Promise<{ notes: string[]; settled: boolean }> => {
    if (leftRunning) return { notes: [leftRunning], settled: true };
    const { line, settled } = await cancelRun(driver, runId, clock, settings.requestTimeoutMs, job.deadline);
    core.info(line);
    return { notes: [line], settled };
  };

  let outcome: RunOutcome;
  let settled = true;
  try {
    const result = await waitForFinish(driver, runId, {
      clock,
      signal,
      startedAt,
      deadline,
      pollIntervalMs: settings.pollIntervalMs,
      requestTimeoutMs: settings.requestTimeoutMs,
      log: (line) => core.info(line),
    });
    if (result.kind === 'finished') {
      outcome = finishedOutcome(identity, result.run);
    } else {
      const ended = await endRun();
      settled = ended.settled;
      const timeout = `the time-out of ${formatElapsed(settings.timeoutMs)} ('timeout' input)`;
      if (result.kind === 'cancelled') {
        const message = `The job was cancelled while waiting for ${driver.kind} ${runId}.`;
        outcome = unfinishedOutcome(identity, 'CANCELLED', message, ended.notes);
      } else if (result.serviceFailure) {
        // The service was failing when time ran out: an infrastructure failure, not a slow run.
        const message = `${result.serviceFailure} Still failing when ${timeout} expired.`;
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

/** The main step: read the inputs, run, report. Every failure ends in core.setFailed, never a throw. */
export async function run(dependencies: RunDependencies = {}): Promise<void> {
  const clock = dependencies.clock ?? systemClock;
  core.saveState(STATE.isPost, 'true');
  const job = new JobCancellation(clock);
  const stopListening = dependencies.cancelSignal
    ? linkSignal(dependencies.cancelSignal, () => job.cancel())
    : onTermination(() => job.cancel());
  // Why the step fails; empty when it passes. `success` is written from this alone.
  const failures: string[] = [];
  try {
    const settings = await readSettings(dependencies.input, dependencies.env);
    const outcome = await execute(settings, clock, job);
    for (const note of outcome.notes) core.info(note);
    const reports = await writeReports(outcome, {
      summary: settings.summary,
      junitPath: settings.junitPath,
      resultsDir: settings.resultsDir,
    });
    failures.push(...reports.failures);
  } catch (error) {
    // No outcome was learned: the inputs are wrong, or something unexpected broke.
    core.setOutput('status', 'ERROR');
    if (error instanceof InputError) {
      failures.push(error.message);
    } else {
      const message = error instanceof Error ? error.message : String(error);
      core.debug(error instanceof Error && error.stack ? redact(error.stack) : '');
      failures.push(`Unexpected error: ${redact(message)}`);
    }
  } finally {
    stopListening();
    job.dispose();
  }
  core.setOutput('success', String(failures.length === 0));
  for (const failure of failures) core.setFailed(failure);
}

function linkSignal(source: AbortSignal, abort: () => void): () => void {
  if (source.aborted) abort();
  source.addEventListener('abort', abort, { once: true });
  return () => source.removeEventListener('abort', abort);
}

import type { RunOutcome } from '../report/outcome.js';
import { info } from '../runner/log.js';
import { line, type SafeText } from '../runner/text.js';
import { Aborted, ServiceError } from '../service/errors.js';
import type { RunDriver } from '../service/run-driver.js';
import { emptyOutcome, type RunIdentity } from './conclude.js';
import type { RunPlan } from './driver.js';
import { type JobCancellation, START_GRACE_MS } from './signals.js';

function describeStart(driver: RunDriver, identity: RunIdentity): SafeText {
  const { branch, environment, playwrightProjectName } = identity;
  const details = [
    branch ? `branch '${branch}'` : 'no branch',
    environment ? `environment '${environment}'` : undefined,
    playwrightProjectName ? `Playwright project '${playwrightProjectName}'` : undefined,
  ].filter(Boolean);
  return line`Starting a ${driver.kind} for ${driver.target} (${details.join(', ')}).`;
}

/**
 * Starts the run, or attaches to the one `run-id` names. Returns its id, or the outcome when no
 * run could be started (the service failed, or the job was cancelled first). Adds what the start
 * tells of the run to `identity`.
 */
export async function startOrAttach(
  plan: RunPlan,
  identity: RunIdentity,
  deadline: number,
  job: JobCancellation,
): Promise<{ runId: string } | { outcome: RunOutcome }> {
  const { driver } = plan;
  if ('attachTo' in plan) {
    const named = identity.mode === 'project' || identity.testSuiteId !== undefined;
    info(line`Attaching to ${driver.kind} ${plan.attachTo}${named ? ` of ${driver.target}` : ''}.`);
    return { runId: plan.attachTo };
  }
  if (job.signal.aborted) {
    return {
      outcome: emptyOutcome(identity, 'CANCELLED', 'The job was cancelled before the run was started.'),
    };
  }
  info(describeStart(driver, identity));
  try {
    // A signal stops the start's retries, but a start in flight is awaited for a while: its run id
    // is needed to cancel the run.
    const started = await plan.start({ deadline, stopRetriesOn: job.signal, signal: job.startAbandoned });
    identity.testSuiteName = started.testSuiteName;
    identity.projectId ??= started.projectId;
    identity.appliedOptions = started.appliedOptions;
    info(
      line`Started ${driver.kind} ${started.runId}${started.testSuiteName ? ` (${started.testSuiteName})` : ''}.`,
    );
    return { runId: started.runId };
  } catch (error) {
    if (error instanceof ServiceError) return { outcome: emptyOutcome(identity, 'ERROR', error.message) };
    if (!(error instanceof Aborted)) throw error;
    const message = !error.mayHaveActed
      ? 'The job was cancelled before the service accepted the start request: no run was started.'
      : error.abandoned
        ? `The job was cancelled and the start request went unanswered for ${START_GRACE_MS / 1000} s more: the service may have started a run, which this step cannot cancel without its id. Check the runs on the service.`
        : `The job was cancelled while the run was being started. ${error.message}`;
    return { outcome: emptyOutcome(identity, 'CANCELLED', message) };
  }
}

import { type InputReader, readSettings } from './inputs/settings.js';
import { closeLeftoverCheckRun } from './run/check-runs.js';
import { cancelRun, planRun } from './run/index.js';
import { STATE } from './run/state.js';
import { stopLeftoverTunnels } from './run/tunnel.js';
import { beginStep, info, warning } from './runner/log.js';
import { getState } from './runner/step.js';
import { line } from './runner/text.js';
import { type Clock, systemClock } from './service/clock.js';

interface CleanupDependencies {
  clock?: Clock;
  input?: InputReader;
  env?: NodeJS.ProcessEnv;
  /** What the main step saved (saveState); the runner passes it as STATE_* variables. */
  state?: (name: string) => string;
}

/** `post-if: cancelled()`: for a main step that was killed. It only warns: cleanup never fails a job. */
export async function cleanup(dependencies: CleanupDependencies = {}): Promise<void> {
  const { state = getState, clock = systemClock } = dependencies;
  beginStep();
  await stopLeftoverTunnels(state);
  const checkRunId = state(STATE.checkRunId);
  if (checkRunId) {
    try {
      const settings = await readSettings(dependencies.input, dependencies.env);
      // Bounded by the GitHub budget of each task.
      await closeLeftoverCheckRun(settings, checkRunId, clock, new AbortController().signal);
    } catch (error) {
      warning(
        line`Could not complete check run ${checkRunId}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const runId = state(STATE.runId);
  if (!runId || state(STATE.cancellable) !== 'true' || state(STATE.settled) === 'true') {
    info(line`No open run to cancel.`);
    return;
  }
  try {
    const settings = await readSettings(dependencies.input, dependencies.env);
    const { driver } = planRun(settings, clock);
    info(line`The main step did not see ${driver.kind} ${runId} to an end; cancelling it.`);
    await cancelRun(driver, runId, clock, settings.requestTimeoutMs);
  } catch (error) {
    warning(line`Could not cancel run ${runId}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

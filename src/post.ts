import { eachTarget, type InputReader, MAX_TARGETS, readSettings, type Settings } from './inputs/settings.js';
import { closeLeftoverCheckRun } from './run/check-runs.js';
import { openStep } from './run/github-client.js';
import { cancelRun, planRun } from './run/index.js';
import { JobCancellation } from './run/signals.js';
import { STATE, type StateName, stateOf } from './run/state.js';
import { stopLeftoverTunnels } from './run/tunnel.js';
import { beginStep, info, reason, warning } from './runner/log.js';
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
  const saved = (name: StateName, index: number) => state(stateOf(name, index));
  const isOpen = (index: number) =>
    saved(STATE.runId, index) !== '' &&
    saved(STATE.cancellable, index) === 'true' &&
    saved(STATE.settled, index) !== 'true';
  const left = Array.from({ length: MAX_TARGETS }, (_, index) => index).filter(
    (index) => isOpen(index) || saved(STATE.checkRunId, index) !== '',
  );
  if (!left.some(isOpen)) info(line`No open run to cancel.`);
  if (left.length === 0) return;
  let targets: Settings[];
  try {
    targets = eachTarget(await readSettings(dependencies.input, dependencies.env));
  } catch (error) {
    for (const index of left) {
      const checkRunId = saved(STATE.checkRunId, index);
      if (checkRunId) warning(line`Could not complete check run ${checkRunId}: ${reason(error)}`);
      if (isOpen(index)) warning(line`Could not cancel run ${saved(STATE.runId, index)}: ${reason(error)}`);
    }
    return;
  }
  const step = openStep(targets[0] as Settings, clock, new JobCancellation(clock));
  await Promise.all(
    left.map(async (index) => {
      const settings = targets[index];
      if (!settings) return;
      const checkRunId = saved(STATE.checkRunId, index);
      // Bounded by the GitHub budget of each request.
      await closeLeftoverCheckRun(checkRunId, step).catch((error) =>
        warning(line`Could not complete check run ${checkRunId}: ${reason(error)}`),
      );
      const runId = saved(STATE.runId, index);
      if (!isOpen(index)) return;
      const { driver } = planRun(settings, clock);
      info(line`The main step did not see ${driver.kind} ${runId} to an end; cancelling it.`);
      await cancelRun(driver, runId, settings.requestTimeoutMs, step).catch((error) =>
        warning(line`Could not cancel run ${runId}: ${reason(error)}`),
      );
    }),
  );
}

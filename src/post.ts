import * as core from '@actions/core';
import { redact } from './inputs/secrets.js';
import { type InputReader, readSettings } from './inputs/settings.js';
import { cancelRun } from './run/cancel.js';
import { planRun } from './run/driver.js';
import { STATE } from './run/state.js';
import { type Clock, systemClock } from './service/clock.js';

interface CleanupDependencies {
  clock?: Clock;
  input?: InputReader;
  env?: NodeJS.ProcessEnv;
  /** What the main step saved (core.saveState); the runner passes it as STATE_* variables. */
  state?: (name: string) => string;
}

/**
 * The post step (`post-if: cancelled()`): cancels a run the main step started and could not see to
 * an end, because it was killed. It only warns: cleanup never fails a job.
 */
export async function cleanup(dependencies: CleanupDependencies = {}): Promise<void> {
  const state = dependencies.state ?? core.getState;
  const clock = dependencies.clock ?? systemClock;
  const runId = state(STATE.runId);
  if (!runId || state(STATE.cancellable) !== 'true' || state(STATE.settled) === 'true') {
    core.info('No open run to cancel.');
    return;
  }
  try {
    const settings = await readSettings(dependencies.input, dependencies.env);
    const { driver } = planRun(settings, clock);
    core.info(`The main step did not see ${driver.kind} ${runId} to an end; cancelling it.`);
    const { line } = await cancelRun(driver, runId, clock, settings.requestTimeoutMs);
    core.info(line);
  } catch (error) {
    core.warning(
      redact(`Could not cancel run ${runId}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}

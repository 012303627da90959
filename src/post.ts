import * as core from '@actions/core';
import { systemClock } from './clock.js';
import { cancelRun, createDriver } from './main.js';
import { readSettings } from './settings.js';
import { STATE } from './state.js';

/**
 * The post step (`post-if: cancelled()`): cancels a run the main step started and could not see to
 * an end, because it was killed. It only warns: cleanup never fails a job.
 */
export async function cleanup(): Promise<void> {
  const runId = core.getState(STATE.runId);
  if (!runId || core.getState(STATE.cancellable) !== 'true' || core.getState(STATE.settled) === 'true') {
    core.info('No open run to cancel.');
    return;
  }
  try {
    const settings = await readSettings();
    const driver = createDriver(settings, systemClock);
    core.info(`The main step did not see ${driver.kind} ${runId} to an end; cancelling it.`);
    const { line } = await cancelRun(driver, runId, systemClock, settings.requestTimeoutMs);
    core.info(line);
  } catch (error) {
    core.warning(`Could not cancel run ${runId}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

import { info, warning } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { ServiceError } from '../service/errors.js';
import type { RunDriver } from '../service/run-driver.js';

/** Sent while the job is ending. */
const CANCEL_BUDGET_MS = 5000;
const CANCEL_REQUEST_TIMEOUT_MS = 3000;

/** Why this step leaves its run running when it does not finish, if it does. */
export function whyLeftRunning(driver: RunDriver, runId: string, attached: boolean, cancelOnAbort: boolean) {
  const run = `${driver.kind} ${runId}`;
  if (attached) return `${run} was not started by this step, so it is left running.`;
  if (!cancelOnAbort) return `cancel-on-abort is false: ${run} is left running.`;
  if (!driver.cancel) {
    return `Test suite runs have no cancel operation in the service's interface: ${run} goes on.`;
  }
  return undefined;
}

/** A failure only warns; `settled` is false when a later try (the post step) could still cancel it. */
export async function cancelRun(
  driver: RunDriver,
  runId: string,
  clock: Clock,
  requestTimeoutMs: number,
  deadline = clock.now() + CANCEL_BUDGET_MS,
): Promise<{ note: string; settled: boolean }> {
  try {
    await driver.cancel?.(runId, {
      deadline,
      requestTimeoutMs: Math.min(requestTimeoutMs, CANCEL_REQUEST_TIMEOUT_MS),
    });
    const note = line`Cancelled ${driver.kind} ${runId} on the service.`;
    info(note);
    return { note, settled: true };
  } catch (error) {
    const reason =
      error instanceof ServiceError ? error.message : `Could not cancel ${driver.kind} ${runId}: ${error}`;
    const note = line`${reason} It may still be running.`;
    warning(note);
    return { note, settled: false };
  }
}

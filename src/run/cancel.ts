import * as core from '@actions/core';
import { redact } from '../inputs/secrets.js';
import type { Clock } from '../service/clock.js';
import type { RunDriver } from '../service/driver.js';
import { ServiceError } from '../service/errors.js';

/** The cancel of a run that timed out, or in the post step: sent while the job is ending. */
const CANCEL_BUDGET_MS = 5000;
const CANCEL_REQUEST_TIMEOUT_MS = 3000;

interface CancelResult {
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
      redact(
        error instanceof ServiceError ? error.message : `Could not cancel ${driver.kind} ${runId}: ${error}`,
      ),
    );
    return { line: `Could not cancel ${driver.kind} ${runId}; it may still be running.`, settled: false };
  }
}

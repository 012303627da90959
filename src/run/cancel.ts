import { info, warning } from '../runner/log.js';
import { line, type SafeText } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { ServiceError } from '../service/errors.js';
import type { RunDriver } from '../service/run-driver.js';

/** The cancel of a run that timed out, or in the post step: sent while the job is ending. */
const CANCEL_BUDGET_MS = 5000;
const CANCEL_REQUEST_TIMEOUT_MS = 3000;

interface CancelResult {
  /** What happened, for the summary and the results file: the log already has it. */
  note: string;
  /** False when the run may still be running and a later try (the post step) could cancel it. */
  settled: boolean;
}

/**
 * Cancels a run on the service, by `deadline` (the cancelled job's, else CANCEL_BUDGET_MS from
 * now), and says what happened in one line of the log; a failure only warns.
 */
export async function cancelRun(
  driver: RunDriver,
  runId: string,
  clock: Clock,
  requestTimeoutMs: number,
  deadline = clock.now() + CANCEL_BUDGET_MS,
): Promise<CancelResult> {
  const said = (text: SafeText, settled: boolean, log: (text: SafeText) => unknown = info): CancelResult => {
    log(text);
    return { note: text, settled };
  };
  if (!driver.cancel) {
    return said(
      line`Test suite runs have no cancel operation in the service's interface: test suite run ${runId} goes on.`,
      true,
    );
  }
  try {
    await driver.cancel(runId, {
      deadline,
      requestTimeoutMs: Math.min(requestTimeoutMs, CANCEL_REQUEST_TIMEOUT_MS),
    });
    return said(line`Cancelled ${driver.kind} ${runId} on the service.`, true);
  } catch (error) {
    const reason =
      error instanceof ServiceError ? error.message : `Could not cancel ${driver.kind} ${runId}: ${error}`;
    return said(line`${reason} It may still be running.`, false, warning);
  }
}

import { setOutput } from '../runner/step.js';
import type { RunOutcome } from './outcome.js';

/**
 * Every output but `run-id` (set by the caller when the run starts), the file paths, and
 * `success`, which the caller sets once the step's result is known.
 */
export function setOutcomeOutputs(outcome: RunOutcome): void {
  setOutput('status', outcome.status);
  setOutput('dashboard-url', outcome.dashboardUrl ?? '');
  if (outcome.status === 'STARTED') return;
  const { total, passed, failed, flaky, skipped } = outcome.counts;
  setOutput('total', String(total));
  setOutput('passed', String(passed));
  setOutput('failed', String(failed));
  setOutput('flaky', String(flaky));
  setOutput('skipped', String(skipped));
  if (outcome.durationMs !== undefined) setOutput('duration-ms', String(Math.round(outcome.durationMs)));
  // Empty when there was nothing to compare with, so that a workflow can tell that from zero.
  setOutput('new-failures', outcome.comparison ? String(outcome.comparison.newFailures.length) : '');
  setOutput('fixed', outcome.comparison ? String(outcome.comparison.fixed.length) : '');
}

import * as core from '@actions/core';
import type { RunOutcome } from './outcome.js';

/**
 * Every output but `run-id` (set by the caller when the run starts), the file paths, and
 * `success`, which the caller sets once the step's result is known.
 */
export function setOutcomeOutputs(outcome: RunOutcome): void {
  core.setOutput('status', outcome.status);
  if (outcome.status === 'STARTED') return;
  const { total, passed, failed, flaky, skipped } = outcome.counts;
  core.setOutput('total', String(total));
  core.setOutput('passed', String(passed));
  core.setOutput('failed', String(failed));
  core.setOutput('flaky', String(flaky));
  core.setOutput('skipped', String(skipped));
  if (outcome.durationMs !== undefined) core.setOutput('duration-ms', String(Math.round(outcome.durationMs)));
}

import { redact } from '../runner/secrets.js';
import { linked } from './escape.js';
import { countsLine, headingOf, judgmentLine } from './format.js';
import type { RunOutcome } from './outcome.js';
import { recordText } from './record.js';
import { renderSummary } from './summary.js';

/** GitHub refuses a check run's summary over 65,535 characters, and over as many UTF-8 bytes. */
export const CHECK_SUMMARY_MAX = 65_535;
/** The summary's section gets what the marker and its frame leave. */
const SECTION_BUDGET_BYTES = CHECK_SUMMARY_MAX - 1_000;
const TITLE_MAX_CHARS = 500;

/** Tells the action's check runs from another app's or workflow's of the same name. */
export const CHECK_RUN_MARKER = '<!-- test-run-action check -->';

/** Created as soon as the remote run has started. */
export function inProgressCheckRun(outcome: Pick<RunOutcome, 'mode' | 'runId' | 'dashboardUrl'>): {
  title: string;
  summary: string;
} {
  const kind = outcome.mode === 'project' ? 'Project run' : 'Test suite run';
  const run = outcome.runId ? `<code>${outcome.runId}</code>` : '';
  const page = outcome.dashboardUrl
    ? ` ${linked(outcome.dashboardUrl, "The service's page for the run")}.`
    : '';
  return {
    title: 'Running',
    summary: redact(`${kind} ${run} started; waiting for it.${page}\n\n${CHECK_RUN_MARKER}\n`),
  };
}

/** The outcome (fail-on applied), the target's section of the job summary, and the record for later runs. */
export function completedCheckRun(outcome: RunOutcome): { title: string; summary: string; text?: string } {
  const title = `${headingOf(outcome)}: ${countsLine(outcome.counts)}${judgmentLine(outcome)}`;
  const section = renderSummary([outcome], { junitWritten: false, budgetBytes: SECTION_BUDGET_BYTES });
  return {
    title: redact(title.length > TITLE_MAX_CHARS ? `${title.slice(0, TITLE_MAX_CHARS - 1)}…` : title),
    summary: redact(`${section}\n${CHECK_RUN_MARKER}\n`),
    // Not redacted: a secret's mask could cut into a record that then no longer reads.
    ...(outcome.record ? { text: recordText(outcome.record) } : {}),
  };
}

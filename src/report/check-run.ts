import { redact } from '../runner/secrets.js';
import { DIGEST_MAX_CHARS, type Digest, digestLine, digestOf, readDigest } from './digest.js';
import { linked } from './escape.js';
import { comparisonHeadline, countsLine, headingOf } from './format.js';
import { historyText } from './history.js';
import { type RunOutcome, WITH_RESULTS } from './outcome.js';
import { type TargetKey, targetKey } from './pr-comment.js';
import { renderSummary } from './summary.js';

/** GitHub refuses a check run's summary over 65,535 characters, and over as many UTF-8 bytes. */
export const CHECK_SUMMARY_MAX = 65_535;
/** The summary's section gets what the marker, the digest and their frame leave. */
const SECTION_BUDGET_BYTES = CHECK_SUMMARY_MAX - DIGEST_MAX_CHARS - 1_000;
const TITLE_MAX_CHARS = 500;

/**
 * Whose result it is: a run of the branch itself (push, schedule, dispatch, merge queue) may be a
 * later run's baseline; a pull request's never is.
 */
export type CheckRunOwner = 'branch' | 'pull-request';

export function checkRunMarker(target: TargetKey, owner: CheckRunOwner): string {
  return `<!-- test-run-action check ${targetKey(target)} of=${owner} -->`;
}

/** Created as soon as the remote run has started. */
export function inProgressCheckRun(
  outcome: TargetKey & Pick<RunOutcome, 'runId' | 'dashboardUrl'>,
  owner: CheckRunOwner,
): { title: string; summary: string } {
  const kind = outcome.mode === 'project' ? 'Project run' : 'Test suite run';
  const run = outcome.runId ? `<code>${outcome.runId}</code>` : '';
  const page = outcome.dashboardUrl
    ? ` ${linked(outcome.dashboardUrl, "The service's page for the run")}.`
    : '';
  return {
    title: 'Running',
    summary: redact(`${kind} ${run} started; waiting for it.${page}\n\n${checkRunMarker(outcome, owner)}\n`),
  };
}

/** The outcome (fail-on applied), the target's section of the job summary, and the digest for later runs. */
export function completedCheckRun(
  outcome: RunOutcome,
  context: { owner: CheckRunOwner; commit: string },
): { title: string; summary: string; text?: string } {
  const compared = outcome.comparison ? ` · ${comparisonHeadline(outcome.comparison)}` : '';
  const title = `${headingOf(outcome)}: ${countsLine(outcome.counts)}${compared}`;
  const section = renderSummary([outcome], { junitWritten: false, budgetBytes: SECTION_BUDGET_BYTES });
  const digest = WITH_RESULTS.includes(outcome.status)
    ? `${digestLine(digestOf(outcome.testCases, context.commit))}\n`
    : '';
  return {
    title: redact(title.length > TITLE_MAX_CHARS ? `${title.slice(0, TITLE_MAX_CHARS - 1)}…` : title),
    summary: redact(`${section}\n${checkRunMarker(outcome, context.owner)}\n${digest}`),
    // Not redacted: hex and commas only, which a secret's mask could cut into a history that no longer reads.
    ...(outcome.history ? { text: historyText(outcome.history) } : {}),
  };
}

/** The digest of a check run's summary, when its marker says `owner`'s run wrote it for this target. */
export function digestIn(
  summary: string | null | undefined,
  target: TargetKey,
  owner: CheckRunOwner,
): Digest | undefined {
  if (!summary?.includes(checkRunMarker(target, owner))) return undefined;
  return readDigest(summary ?? undefined);
}

import type { Settings } from '../inputs/settings.js';
import { baselineIn } from '../report/comment-digest.js';
import { compareRuns, comparisonHeadline } from '../report/comparison.js';
import { plural } from '../report/format.js';
import type { RunOutcome } from '../report/outcome.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import { failureMessage, runName } from './conclude.js';
import type { PullRequestThread } from './pr-comment.js';

/** Statuses of a run that finished: its test cases tell the step's result. */
const FINISHED = new Set(['PASSED', 'FAILED']);

/**
 * The outcome with what changed since the previous run of this target (read from its comment's
 * digest, when there is one), and the step's result under `fail-on`: with `new`, a finished run
 * whose failures all failed then too passes the step; a run that did not finish fails it either
 * way; with nothing to compare with, `new` falls back to `any`, and the log says so.
 */
export function judgeAgainstPrevious(
  outcome: RunOutcome,
  earlier: Pick<PullRequestThread, 'body' | 'headSha' | 'whyNone'>,
  failOn: Settings['failOn'],
): RunOutcome {
  if (outcome.status === 'STARTED') return outcome;
  const { digest, rerun } = baselineIn(earlier.body, earlier.headSha);
  const comparison = digest && compareRuns(outcome.reportOrder, digest);
  const compared = comparison ? { ...outcome, comparison } : outcome;
  const previous = rerun
    ? 'the run before this commit (this is a re-run)'
    : 'the previous run of this target';
  if (comparison) info(line`Since ${previous}: ${comparisonHeadline(comparison)}.`);
  if (failOn !== 'new' || outcome.success) return compared;
  if (!comparison) {
    const why =
      earlier.body === undefined
        ? earlier.whyNone
        : rerun
          ? 'this commit was reported before, with nothing to compare with then either'
          : "the earlier comment holds no run's digest";
    info(line`fail-on is 'new', but there is nothing to compare with (${why}): any failure fails the step.`);
    return compared;
  }
  const { newFailures, stillFailing, notCompared } = comparison;
  const failing = newFailures.length + stillFailing.length + notCompared.length;
  if (!FINISHED.has(outcome.status) || failing === 0) return compared;
  const unknown = notCompared.length > 0 ? `${notCompared.length} could not be compared, ` : '';
  if (newFailures.length > 0 || notCompared.length > 0) {
    const why =
      newFailures.length > 0
        ? `${plural(newFailures.length, 'test case')} failed that did not fail in the previous run`
        : `${plural(notCompared.length, 'failing test case')} could not be compared with the previous run, which had more failures than its comment holds`;
    const message = `${runName(outcome)}: ${why} (${unknown}${failing} failing in all; fail-on is 'new').`;
    return { ...compared, message: failureMessage(message, outcome.dashboardUrl) };
  }
  const note = `${plural(failing, 'test case')} failed as in the previous run of this target: with fail-on 'new', known failures do not fail the step.`;
  info(line`${note}`);
  return { ...compared, success: true, message: undefined, notes: [...outcome.notes, note] };
}

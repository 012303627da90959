import type { Settings } from '../inputs/settings.js';
import { commitTested } from '../inputs/workflow-run.js';
import { branchDigestIn } from '../report/check-run.js';
import { baselineIn, type Digest, unionOf } from '../report/comment-digest.js';
import type { RunOutcome } from '../report/outcome.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { Aborted, GitHubError } from '../service/errors.js';
import type { GitHub } from '../service/github.js';
import { CHECK_RUN_PAGES, checkRunName, checkRunOwner } from './check-runs.js';
import { connectGitHub, type GitHubTask, logFailure } from './github-client.js';
import type { EarlierComment } from './pr-comment.js';
import type { PullRequestsOfRun } from './pull-requests.js';

/** A commit without a result (its run was skipped) is passed over for its first parent, this many times. */
const LOOKBACK_COMMITS = 5;
/** Only results written by this app count: every workflow's token acts as it. */
const ACTIONS_APP = 'github-actions';

const READ: GitHubTask = {
  doing: "read the base branch's results",
  forbidden: "The github-token needs 'checks: read' (and 'pull-requests: read' on a pull request).",
};

/** What a run is compared with, or why there is nothing. */
export type Baseline = { digest: Digest; against: string } | { digest?: undefined; whyNone: string };
type Target = Parameters<typeof branchDigestIn>[1];
type Result = { sha: string; digest: Digest };
const short = (sha: string) => sha.slice(0, 7);

/**
 * Pull request `number`'s baseline is its base branch: this target's result at the merge base (or
 * the nearest first parent with one), with what fails at the base branch's head known too. A
 * branch's (no `number`) is its own previous result.
 */
async function branchBaseline(
  settings: Settings,
  number: number | undefined,
  target: Target,
  clock: Clock,
  signal: AbortSignal,
): Promise<Baseline> {
  const { workflow } = settings;
  const commit = commitTested(workflow);
  const [owner, repo] = (workflow.repository ?? '').split('/');
  if (!commit || !owner || !repo) return { whyNone: 'the commit tested is not known' };
  if (!settings.githubToken) return { whyNone: "input 'github-token' is empty" };
  const github = (await connectGitHub(settings, READ, clock, signal))?.({ owner, repo });
  if (!github) return { whyNone: 'GitHub could not be reached' };
  try {
    const name = checkRunName(settings);
    const results = resultsOf(github, await github.appId(ACTIONS_APP), name, target);
    if (number === undefined) {
      const start = workflow.mergeGroup?.baseSha ?? (await github.firstParent(commit));
      const previous = start && (await results.nearest(start));
      if (previous)
        return { digest: previous.digest, against: `${short(previous.sha)} (this branch's previous result)` };
      return { whyNone: `no earlier commit of this branch has a result of '${name}'` };
    }
    // Read fresh: the payload's base is the one of the pull request's last update, and a re-run reuses it.
    const { base } = await github.pull(number);
    if (!base.ref) return { whyNone: "GitHub did not name the pull request's base branch" };
    const atMergeBase = await results.nearest(await github.mergeBase(base.ref, commit));
    if (!atMergeBase) return { whyNone: `${base.ref} has no result of '${name}' at the merge base` };
    const head = base.sha && base.sha !== atMergeBase.sha ? await results.at(base.sha) : undefined;
    const also = head ? ` and its head ${short(head.sha)}` : '';
    return {
      digest: head ? unionOf(atMergeBase.digest, head.digest) : atMergeBase.digest,
      against: `${base.ref} at ${short(atMergeBase.sha)}${also} (the base branch)`,
    };
  } catch (error) {
    if (error instanceof Aborted) return { whyNone: 'the job was cancelled' };
    if (!(error instanceof GitHubError)) throw error;
    logFailure(error, READ, info);
    return { whyNone: "the base branch's results could not be read" };
  }
}

/** This target's results on commits, as only a run of the branch itself, through the GitHub Actions app, wrote them. */
function resultsOf(github: GitHub, appId: number, name: string, target: Target) {
  const at = async (sha: string): Promise<Result | undefined> => {
    const named = (await github.checkRunsOf(sha, CHECK_RUN_PAGES)).filter((run) => run.name === name);
    for (const run of named) {
      const digest = run.app?.id === appId ? branchDigestIn(run.output.summary, target) : undefined;
      if (digest) return { sha, digest };
    }
    if (named.length > 0) {
      info(
        line`Ignored ${named.length} check run(s) named '${name}' on ${short(sha)}: not written by a run of the branch itself through the GitHub Actions app.`,
      );
    }
    return undefined;
  };
  /** On `sha` or the nearest of its first parents that has one, within the look-back. */
  const nearest = async (sha: string): Promise<Result | undefined> => {
    let here: string | undefined = sha;
    for (let looked = 0; here !== undefined && looked < LOOKBACK_COMMITS; looked++) {
      const result = await at(here);
      if (result) return result;
      here = await github.firstParent(here);
    }
    return undefined;
  };
  return { at, nearest };
}

/**
 * What a run is compared with, or why there is nothing: decided here alone. The base branch's
 * result (a branch's own previous one), else the previous run on the pull request (its comment).
 */
export async function findBaseline(
  settings: Settings,
  found: PullRequestsOfRun,
  ran: RunOutcome,
  earlier: EarlierComment,
  clock: Clock,
  signal: AbortSignal,
): Promise<Baseline> {
  if (ran.status === 'STARTED') return { whyNone: 'the run was started with wait: false' };
  const fromComment = commentBaseline(earlier);
  // GitHub is asked only where a comparison was asked for: its requests are shared by every job.
  if (settings.failOn !== 'new' && settings.prComment === 'off') return fromComment;
  const onBranch = checkRunOwner(settings) === 'branch';
  const number = found.pullRequests[0]?.number ?? settings.workflow.pullRequest?.number;
  // Neither a base branch nor a comment: one reason, the lookup's.
  if (!onBranch && number === undefined) {
    return { whyNone: found.whyNone ?? 'the pull request could not be found' };
  }
  if (!FINISHED.includes(ran.status)) {
    return fromComment.digest && !onBranch ? fromComment : { whyNone: 'the run did not finish' };
  }
  const fromBranch = await branchBaseline(settings, onBranch ? undefined : number, ran, clock, signal);
  // With pr-comment 'off' there is no comment to fall back on.
  if (fromBranch.digest || onBranch || settings.prComment === 'off') return fromBranch;
  const fallback = fromComment.digest ? 'the previous run on the pull request' : 'nothing';
  info(
    line`No result of the base branch to compare with (${fromBranch.whyNone}): comparing with ${fallback}.`,
  );
  return fromComment;
}

/** The fallback: the run the earlier comment on the pull request reported, or why there is none. */
function commentBaseline(earlier: EarlierComment): Baseline {
  const { digest, rerun } = baselineIn(earlier.body, earlier.headSha);
  if (digest) {
    const against = rerun
      ? 'the run before this commit (this is a re-run)'
      : 'the previous run of this target';
    return { digest, against };
  }
  const whyNone =
    earlier.body === undefined
      ? earlier.whyNone
      : rerun
        ? 'this commit was reported before, with nothing to compare with then either'
        : "the earlier comment holds no run's digest";
  return { whyNone };
}

/** Only a run that finished has test cases to compare, and only then is GitHub asked. */
const FINISHED: readonly string[] = ['PASSED', 'FAILED', 'INTERRUPTED'];

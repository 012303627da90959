import type { Settings } from '../inputs/settings.js';
import { BRANCH_EVENTS, commitTested } from '../inputs/workflow-run.js';
import { type CheckRunOwner, digestIn } from '../report/check-run.js';
import { type Digest, unionOf } from '../report/digest.js';
import { HISTORY_MARK, type History, lastResults, readHistory } from '../report/history.js';
import { type RunOutcome, WITH_RESULTS } from '../report/outcome.js';
import type { TargetKey } from '../report/pr-comment.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import { Aborted, GitHubError, isForbidden } from '../service/errors.js';
import type { GitHub } from '../service/github.js';
import { checkRunName, checkRunOwner } from './check-runs.js';
import { type GitHubTask, gitHubFor, logFailure, type StepContext } from './github-client.js';
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

/** What a run is compared with (with the base branch's history where its result carries one), or why there is nothing. */
export type Baseline =
  | { kind: 'found'; digest: Digest; against: string; base: string; history?: History }
  | { kind: 'none'; whyNone: string };
type Result = { sha: string; digest: Digest; history?: History };
const short = (sha: string) => sha.slice(0, 7);
const none = (whyNone: string): Baseline => ({ kind: 'none', whyNone });

/**
 * Pull request `number`'s baseline is its base branch: this target's result at the merge base (or
 * the nearest first parent with one), with what fails at the base branch's head known too. A
 * branch's (no `number`) is its own previous result.
 */
async function branchBaseline(
  settings: Settings,
  number: number | undefined,
  target: TargetKey,
  step: StepContext,
): Promise<Baseline> {
  const { workflow } = settings;
  const commit = commitTested(workflow);
  if (!commit || !workflow.repository) return none('the commit tested is not known');
  if (!settings.githubToken) return none("input 'github-token' is empty");
  const github = await step.github();
  if (!github) return none('GitHub could not be reached');
  try {
    const name = checkRunName(settings);
    const results = resultsOf(github, await github.appId(ACTIONS_APP), name, target, 'branch');
    if (number === undefined) {
      const start = workflow.mergeGroup?.baseSha ?? (await github.firstParent(commit));
      const previous = start && (await nearestOnBranch(github, settings, workflow.branch, start, results));
      if (!previous) return none(`no earlier commit of this branch has a result of '${name}'`);
      const against = `${short(previous.sha)} (this branch's previous result)`;
      const base = workflow.branch ?? 'this branch';
      return { kind: 'found', digest: previous.digest, against, base, history: previous.history };
    }
    // Read fresh: the payload's base is the one of the pull request's last update, and a re-run reuses it.
    const { base } = await github.pull(number);
    if (!base.ref) return none("GitHub did not name the pull request's base branch");
    const mergeBase = await github.mergeBase(base.ref, commit);
    const atMergeBase = await nearestOnBranch(github, settings, base.ref, mergeBase, results);
    if (!atMergeBase) return none(`${base.ref} has no result of '${name}' at the merge base`);
    const head = base.sha && base.sha !== atMergeBase.sha ? await results.at(base.sha) : undefined;
    const also = head ? ` and its head ${short(head.sha)}` : '';
    return {
      kind: 'found',
      digest: head ? unionOf(atMergeBase.digest, head.digest) : atMergeBase.digest,
      against: `${base.ref} at ${short(atMergeBase.sha)}${also} (the base branch)`,
      base: base.ref,
      history: atMergeBase.history && lastResults(atMergeBase.history, settings.history),
    };
  } catch (error) {
    return unread(error, "the base branch's results could not be read");
  }
}

function unread(error: unknown, whyNone: string): Baseline {
  if (error instanceof Aborted) return none('the job was cancelled');
  if (!(error instanceof GitHubError)) throw error;
  logFailure(error, READ, info);
  return none(whyNone);
}

/** Of this workflow's runs of the branch, the newest this many commits are looked at. */
const WORKFLOW_RUN_CANDIDATES = 5;

/**
 * The branch's result nearest before `sha` (or on it), whatever the distance: among the commits of
 * this workflow's completed runs of the branch, the nearest ancestor with a result (by ancestry,
 * never by time: a re-run of an old commit is not the newest). Else round 5's look-back, with a line.
 */
async function nearestOnBranch(
  github: GitHub,
  { workflow }: Settings,
  branch: string | undefined,
  sha: string,
  results: ReturnType<typeof resultsOf>,
): Promise<Result | undefined> {
  const file = workflow.workflowFile;
  if (!file || !branch) return results.nearest(sha);
  let best: { result: Result; ahead: number } | undefined;
  try {
    const runs = await github.workflowRuns(file, branch);
    const commits = new Set(runs.filter(({ event }) => BRANCH_EVENTS.includes(event)).map((run) => run.sha));
    for (const candidate of [...commits].slice(0, WORKFLOW_RUN_CANDIDATES)) {
      const ahead = await github.aheadOf(candidate, sha);
      if (ahead === undefined || (best && ahead >= best.ahead)) continue;
      const result = await results.at(candidate);
      if (result) best = { result, ahead };
    }
  } catch (error) {
    if (!(error instanceof GitHubError) || error instanceof Aborted) throw error;
    const advice = isForbidden(error) ? " (the workflow needs 'permissions: actions: read')" : '';
    info(
      line`Could not list this workflow's runs of ${branch}${advice}: looking back ${LOOKBACK_COMMITS} commits instead. ${error.message}`,
    );
    return results.nearest(sha);
  }
  if (best) return best.result;
  info(
    line`No run of ${file} on ${branch} has a result of this target before ${short(sha)}: looking back ${LOOKBACK_COMMITS} commits instead.`,
  );
  return results.nearest(sha);
}

/** This target's results on commits, as only `owner`'s runs, through the GitHub Actions app, wrote them. */
function resultsOf(github: GitHub, appId: number, name: string, target: TargetKey, owner: CheckRunOwner) {
  const at = async (sha: string): Promise<Result | undefined> => {
    const named = (await github.checkRunsOf(sha)).filter((run) => run.name === name);
    for (const run of named) {
      const digest = run.app?.id === appId ? digestIn(run.output.summary, target, owner) : undefined;
      if (digest)
        return { sha, digest, history: owner === 'branch' ? historyIn(run.output.text, sha) : undefined };
    }
    if (named.length > 0) {
      const whose = owner === 'branch' ? 'a run of the branch itself' : 'a run of the pull request';
      info(
        line`Ignored ${named.length} check run(s) named '${name}' on ${short(sha)}: not written by ${whose} through the GitHub Actions app.`,
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

/** A history that does not validate is ignored with one line: the run starts a fresh one. */
function historyIn(text: string | null | undefined, sha: string): History | undefined {
  const history = readHistory(text);
  if (!history && text?.includes(HISTORY_MARK)) {
    info(
      line`The history in the result on ${short(sha)} does not validate: it is ignored, and a fresh one starts.`,
    );
  }
  return history;
}

/**
 * The fallback: the previous run on the pull request, the check run of the commit the action's own
 * comment reported. On a re-run of that commit, its check run as the listing at the start found it.
 */
async function pullRequestBaseline(
  settings: Settings,
  earlier: EarlierComment,
  target: TargetKey,
  step: StepContext,
): Promise<Baseline> {
  if (settings.checkRun === 'false') {
    return none("check-run is 'false', so no earlier run's result is stored on the pull request");
  }
  if (earlier.commit === undefined) return none(earlier.whyNone);
  const github = await gitHubFor(step, settings, READ, info);
  if (!github) return none('GitHub could not be reached');
  try {
    const name = checkRunName(settings);
    const results = resultsOf(github, await github.appId(ACTIONS_APP), name, target, 'pull-request');
    const previous = await results.at(earlier.commit);
    if (!previous)
      return none(`the commit it last reported, ${short(earlier.commit)}, has no result of '${name}'`);
    const rerun = earlier.commit === commitTested(settings.workflow);
    const against = rerun
      ? 'the previous run of this commit (this is a re-run)'
      : 'the previous run of this target';
    return { kind: 'found', digest: previous.digest, against, base: 'the pull request' };
  } catch (error) {
    return unread(error, "the previous run's result could not be read");
  }
}

/**
 * What a run is compared with, or why there is nothing: decided here alone. The base branch's
 * result (a branch's own previous one), else the previous run on the pull request.
 */
export async function findBaseline(
  settings: Settings,
  found: PullRequestsOfRun,
  ran: RunOutcome,
  earlier: EarlierComment,
  step: StepContext,
): Promise<Baseline> {
  if (ran.status === 'STARTED') return none('the run was started with wait: false');
  // GitHub is asked only where a comparison was asked for: its requests are shared by every job.
  if (settings.failOn !== 'new' && settings.prComment === 'off') return none('no comparison was asked for');
  const onBranch = checkRunOwner(settings) === 'branch';
  const number = found.pullRequests[0]?.number ?? settings.workflow.pullRequest?.number;
  // Neither a base branch nor a comment: one reason, the lookup's.
  if (!onBranch && number === undefined) return none(found.whyNone ?? 'the pull request could not be found');
  if (!WITH_RESULTS.includes(ran.status)) {
    return onBranch ? none('the run did not finish') : pullRequestBaseline(settings, earlier, ran, step);
  }
  const fromBranch = await branchBaseline(settings, onBranch ? undefined : number, ran, step);
  // With pr-comment 'off' there is no comment to fall back on.
  if (fromBranch.kind === 'found' || onBranch || settings.prComment === 'off') return fromBranch;
  const fallback = await pullRequestBaseline(settings, earlier, ran, step);
  const compared =
    fallback.kind === 'found' ? 'the previous run on the pull request' : `nothing (${fallback.whyNone})`;
  info(
    line`No result of the base branch to compare with (${fromBranch.whyNone}): comparing with ${compared}.`,
  );
  return fallback;
}

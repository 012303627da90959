import { defaultNote } from '../inputs/options.js';
import type { Settings, SharedSettings } from '../inputs/settings.js';
import {
  BRANCH_EVENTS,
  branchOfRun,
  commitTested,
  isPullRequestEvent,
  type PullRequestRef,
} from '../inputs/workflow-run.js';
import type { RecordOwner } from '../report/record.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import { Aborted, GitHubError } from '../service/errors.js';
import type { GitHub, Pull } from '../service/github.js';
import { type GitHubTask, logFailure, type StepContext, usesGitHub } from './github-client.js';

/** One commit at the head of several pull requests: this many get the comment. */
const MAX_PULL_REQUESTS = 3;
/** A fork's commit is looked for among this many pages of 100 open pull requests. */
const MAX_OPEN_PAGES = 3;

/** Where the run belongs: to a branch itself, or to pull requests (the first one's base is its baseline). */
export interface PullRequestsOfRun {
  /** Whose result the run is: only a branch's own may be a later run's baseline. */
  of: RecordOwner;
  /** A branch's own run: the branch. */
  branch?: string;
  pullRequests: PullRequestRef[];
  /** Undefined when a warning said so already. */
  whyNone?: string;
}

const LOOKUP: GitHubTask = {
  doing: 'find the pull request of this run',
  forbidden: "The github-token needs 'pull-requests: read' (which 'write' includes).",
};

const none = (whyNone?: string): PullRequestsOfRun => ({ of: 'pull-request', pullRequests: [], whyNone });

/**
 * See docs/pr-comment.md's table of events. A push or dispatch of a branch other than the default one is
 * the run of the open pull request whose head it is, unless the branch is itself the base of an
 * open pull request (a `develop`). GitHub is asked only when a comment, a comparison or a check
 * run is due.
 */
export async function findPullRequests(
  settings: SharedSettings,
  step: StepContext,
): Promise<PullRequestsOfRun> {
  const { workflow, pullRequestNumber } = settings;
  const branch = branchOfRun(workflow, pullRequestNumber);
  // A branch's own run: a tag's push or a detached dispatch has no branch, but no pull request either.
  const ofBranchEvent = pullRequestNumber === undefined && BRANCH_EVENTS.includes(workflow.eventName ?? '');
  if (branch !== undefined || ofBranchEvent) return ofBranch(settings, branch, step);
  // Also for fail-on 'new': the pull request names the base branch to compare with.
  const asked = (settings.prComment !== 'off' || settings.failOn === 'new') && settings.wait;
  const explicit = pullRequestNumber !== undefined && asked;
  if (!explicit && isPullRequestEvent(workflow.eventName)) {
    const { pullRequest } = workflow;
    return pullRequest
      ? { of: 'pull-request', pullRequests: [pullRequest] }
      : none('the event payload names no pull request');
  }
  if (!explicit && !workflow.eventCommit) return none(notOnPullRequest(workflow.eventName));
  if (!asked) return none();
  const { repo } = workflow;
  if (!repo) return none('GITHUB_REPOSITORY does not name the repository');
  const github = await step.github();
  if (!github) return none();
  try {
    const found = await lookUp(github, settings);
    if (typeof found === 'string') return none(found);
    if (found.length > MAX_PULL_REQUESTS) {
      info(
        line`The commit is the head of ${found.length} open pull requests: the first ${MAX_PULL_REQUESTS} get the comment.`,
      );
    }
    // The comment's write checks that this is still the head of each.
    const headSha = commitTested(workflow);
    const pullRequests = found.slice(0, MAX_PULL_REQUESTS);
    return { of: 'pull-request', pullRequests: pullRequests.map((number) => ({ ...repo, number, headSha })) };
  } catch (error) {
    // A cancelled job ends as CANCELLED through its runs, not here.
    if (error instanceof Aborted) return none('the job was cancelled');
    if (!(error instanceof GitHubError)) throw error;
    logFailure(error, LOOKUP);
    return none();
  }
}

/**
 * A branch's push (or dispatch, or a workflow_run of one) that is the head of an open pull request
 * is that pull request's run; a lookup that fails leaves it one of no known pull request, so that
 * it never records a branch result it may not have (in doubt, nothing to compare with).
 */
async function ofBranch(
  settings: SharedSettings,
  branch: string | undefined,
  step: StepContext,
): Promise<PullRequestsOfRun> {
  const { workflow } = settings;
  const event = workflow.eventName;
  const own: PullRequestsOfRun = { of: 'branch', branch, pullRequests: [], whyNone: notOnPullRequest(event) };
  const pushed = event === 'push' || event === 'workflow_dispatch' || event === 'workflow_run';
  if (!pushed || branch === undefined || branch === workflow.defaultBranch || !usesGitHub(settings))
    return own;
  const { repo } = workflow;
  const commit = commitTested(workflow);
  const github = await step.github();
  if (!repo || !commit || !github) return own;
  try {
    const heads = await github.openPulls((pull) => pull.head.sha === commit, 1, {
      head: `${repo.owner}:${branch}`,
    });
    if (heads.length === 0) return own;
    const isBase = await github.openPulls(() => true, 1, { base: branch, perPage: 1 });
    if (isBase.length > 0) return own;
    const [first, ...others] = [...heads].sort(
      (a, b) =>
        Number(b.base.ref === workflow.defaultBranch) - Number(a.base.ref === workflow.defaultBranch) ||
        a.number - b.number,
    ) as [Pull, ...Pull[]];
    const also =
      others.length > 0 ? ` (also the head of ${others.map((pull) => `#${pull.number}`).join(', ')})` : '';
    info(
      line`${branch} at ${commit.slice(0, 7)} is the head of pull request #${first.number}${also}: this run is the pull request's, judged against its base branch.`,
    );
    return { of: 'pull-request', pullRequests: [{ ...repo, number: first.number, headSha: commit }] };
  } catch (error) {
    if (error instanceof Aborted) return none('the job was cancelled');
    if (!(error instanceof GitHubError)) throw error;
    logFailure(error, LOOKUP);
    return none(`whether ${branch} is the head of a pull request could not be read`);
  }
}

const notOnPullRequest = (event: string | undefined) =>
  `the workflow runs on ${event ?? 'an unknown event'}, not on a pull request`;

/** The numbers of the pull requests found, or why there are none. */
async function lookUp(github: GitHub, settings: SharedSettings): Promise<number[] | string> {
  const { workflow, pullRequestNumber } = settings;
  if (pullRequestNumber !== undefined) {
    const pull = await github.pull(pullRequestNumber);
    return pull.state === 'open' ? [pull.number] : `pull request #${pull.number} is ${pull.state}`;
  }
  const { sha, pullRequests: listed, head } = workflow.eventCommit ?? { sha: '' };
  // Kept only with its base here and the commit tested at its head: a fork's lookalike is not it.
  const ours = (pull: Pull) =>
    pull.state === 'open' &&
    pull.head.sha === sha &&
    pull.base.repo.full_name.toLowerCase() === workflow.repository?.toLowerCase();
  // workflow_run: the payload's list, left empty by GitHub for a fork; deployment_status (no list):
  // GitHub's commit-to-pull-request association, which answers [] for a fork's commit. Then by head
  // owner:branch (workflow_run), or by head commit (deployment_status, or a deleted fork's
  // workflow_run: head_repository null).
  let found: { number: number }[] = listed
    ? listed.filter((pull) => pull.headSha === undefined || pull.headSha === sha)
    : (await github.pullsOfCommit(sha)).filter(ours);
  if (found.length === 0) found = await github.openPulls(ours, head ? 1 : MAX_OPEN_PAGES, { head });
  if (found.length === 0) return `no open pull request has commit ${sha.slice(0, 7)} at its head`;
  return found.map(({ number }) => number).sort((a, b) => a - b);
}

/** The default note names the pull request found (it was built before GitHub was asked); the user's stays. */
export function withPullRequestNote(settings: Settings, found: PullRequestsOfRun): Settings {
  const [first] = found.pullRequests;
  const { target } = settings;
  if (target.kind !== 'suite-start' || first === undefined) return settings;
  const metadata = target.options.metadata;
  if (metadata?.note === undefined || metadata.note !== defaultNote(settings.workflow)) return settings;
  const note = defaultNote(settings.workflow, first);
  return {
    ...settings,
    target: { ...target, options: { ...target.options, metadata: { ...metadata, note } } },
  };
}

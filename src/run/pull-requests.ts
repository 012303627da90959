import { defaultNote } from '../inputs/options.js';
import type { Settings, SharedSettings } from '../inputs/settings.js';
import { commitTested, isPullRequestEvent, type PullRequestRef } from '../inputs/workflow-run.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import { Aborted, GitHubError } from '../service/errors.js';
import type { GitHub, Pull } from '../service/github.js';
import { type GitHubTask, gitHubFor, logFailure, type StepContext } from './github-client.js';

/** One commit at the head of several pull requests: this many get the comment. */
const MAX_PULL_REQUESTS = 3;
/** A fork's commit is looked for among this many pages of 100 open pull requests. */
const MAX_OPEN_PAGES = 3;

/** The first one's comment is compared with. */
export interface PullRequestsOfRun {
  pullRequests: PullRequestRef[];
  /** Undefined when a warning said so already. */
  whyNone?: string;
}

const LOOKUP: GitHubTask = {
  doing: 'find the pull request of this run',
  forbidden: "The github-token needs 'pull-requests: read' (which 'write' includes).",
};

const none = (whyNone?: string): PullRequestsOfRun => ({ pullRequests: [], whyNone });

/** See the README's table of events. GitHub is asked only when a comment is due. */
export async function findPullRequests(
  settings: SharedSettings,
  step: StepContext,
): Promise<PullRequestsOfRun> {
  const { workflow, pullRequestNumber } = settings;
  // Also for fail-on 'new': the pull request names the base branch to compare with.
  const asked = (settings.prComment !== 'off' || settings.failOn === 'new') && settings.wait;
  const explicit = pullRequestNumber !== undefined && asked;
  if (!explicit && isPullRequestEvent(workflow.eventName)) {
    const { pullRequest } = workflow;
    return pullRequest ? { pullRequests: [pullRequest] } : none('the event payload names no pull request');
  }
  if (!explicit && !workflow.eventCommit) {
    return none(`the workflow runs on ${workflow.eventName ?? 'an unknown event'}, not on a pull request`);
  }
  if (!asked) return none();
  const { repo } = workflow;
  if (!repo) return none('GITHUB_REPOSITORY does not name the repository');
  const github = await gitHubFor(step, settings, LOOKUP);
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
    return { pullRequests: pullRequests.map((number) => ({ ...repo, number, headSha })) };
  } catch (error) {
    // A cancelled job ends as CANCELLED through its runs, not here.
    if (error instanceof Aborted) return none('the job was cancelled');
    if (!(error instanceof GitHubError)) throw error;
    logFailure(error, LOOKUP);
    return none();
  }
}

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
  if (found.length === 0) found = await github.openPulls(ours, head ? 1 : MAX_OPEN_PAGES, head);
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

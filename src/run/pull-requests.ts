import { defaultNote } from '../inputs/options.js';
import type { Settings } from '../inputs/settings.js';
import { isPullRequestEvent, type PullRequestRef } from '../inputs/workflow-run.js';
import { info, warning } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import {
  type CommentContext,
  type FoundPullRequest,
  GitHubError,
  PullRequestLookup,
} from '../service/github.js';
import { githubClient } from './github-client.js';

/** One commit at the head of several pull requests: this many get the comment, the first is compared with. */
export const MAX_PULL_REQUESTS = 3;
/** A fork's commit is looked for among this many pages of 100 open pull requests. */
const MAX_OPEN_PAGES = 3;

/** The pull requests this run belongs to, in number order; the first one's comment is compared with. */
export interface PullRequestsOfRun {
  pullRequests: PullRequestRef[];
  /** Why there is none, for the log; undefined when a warning said so already. */
  whyNone?: string;
}

const none = (whyNone?: string): PullRequestsOfRun => ({ pullRequests: [], whyNone });

/**
 * Where the comment goes (see the README's table of events): the payload's pull request, or one
 * found on GitHub from the commit the event is about, or the `pull-request` input's. GitHub is
 * asked only when a comment is due; a failed lookup is one warning.
 */
export async function findPullRequests(
  settings: Settings,
  clock: Clock,
  signal: AbortSignal,
): Promise<PullRequestsOfRun> {
  const { workflow, pullRequestNumber } = settings;
  const asked = settings.prComment !== 'off' && settings.wait;
  const explicit = pullRequestNumber !== undefined && asked;
  if (!explicit && isPullRequestEvent(workflow.eventName)) {
    const { pullRequest } = workflow;
    return pullRequest ? { pullRequests: [pullRequest] } : none('the event payload names no pull request');
  }
  if (!explicit && !workflow.eventCommit) {
    return none(`the workflow runs on ${workflow.eventName ?? 'an unknown event'}, not on a pull request`);
  }
  if (!asked) return none();
  const [owner, repo] = (workflow.repository ?? '').split('/');
  if (!owner || !repo) return none('GITHUB_REPOSITORY does not name the repository');
  if (!settings.githubToken) {
    warning(
      line`Could not look for the pull request: input 'github-token' is empty (it defaults to the workflow's token).`,
    );
    return none();
  }
  const { octokit, context } = await githubClient(settings, settings.githubToken, clock, signal);
  const lookup = new PullRequestLookup(octokit, { owner, repo }, workflow.apiUrl);
  try {
    const found = await lookUp(lookup, settings, context);
    if (typeof found === 'string') return none(found);
    const pullRequests = found.map(({ number, headSha }) => ({ owner, repo, number, headSha }));
    if (pullRequests.length > MAX_PULL_REQUESTS) {
      info(
        line`The commit is the head of ${pullRequests.length} open pull requests: the first ${MAX_PULL_REQUESTS} get the comment.`,
      );
    }
    return { pullRequests: pullRequests.slice(0, MAX_PULL_REQUESTS) };
  } catch (error) {
    if (!(error instanceof GitHubError)) throw error;
    const permission =
      error.status === 403 || error.status === 404
        ? " The github-token needs 'pull-requests: read' (which 'write' includes)."
        : '';
    warning(line`Could not find the pull request of this run. ${error.message}${permission}`);
    return none();
  }
}

/** The open pull requests of the run, by number; or why there is none. */
async function lookUp(
  lookup: PullRequestLookup,
  settings: Settings,
  context: CommentContext,
): Promise<FoundPullRequest[] | string> {
  const { workflow, pullRequestNumber } = settings;
  if (pullRequestNumber !== undefined) {
    const pull = await lookup.get(pullRequestNumber, context);
    return pull.state === 'open' ? [pull] : `pull request #${pull.number} is ${pull.state}`;
  }
  const { sha, pullRequests: listed, head } = workflow.eventCommit ?? { sha: '' };
  // Kept only with its base here and the commit tested at its head: a fork's lookalike is not it.
  const ours = (pull: FoundPullRequest) =>
    pull.state === 'open' &&
    pull.headSha === sha &&
    pull.baseRepository.toLowerCase() === workflow.repository?.toLowerCase();
  let found: FoundPullRequest[];
  if (listed !== undefined) {
    // workflow_run: the payload's list, left empty by GitHub for a fork; then by head owner:branch.
    const same = listed.filter((pull) => pull.headSha === undefined || pull.headSha === sha);
    found = same.map(({ number }) => ({ number, state: 'open', headSha: sha, baseRepository: '' }));
    if (found.length === 0 && head) found = (await lookup.open(context, 1, head)).filter(ours);
  } else {
    // deployment_status: GitHub's commit-to-pull-request association answers [] for a fork's commit.
    found = (await lookup.ofCommit(sha, context)).filter(ours);
    if (found.length === 0) found = (await lookup.open(context, MAX_OPEN_PAGES)).filter(ours);
  }
  if (found.length === 0) return `no open pull request has commit ${sha.slice(0, 7)} at its head`;
  return found.sort((a, b) => a.number - b.number);
}

/**
 * The settings with the default note of a suite run naming the pull request found (the note is
 * built with the inputs, before GitHub is asked); a note the user wrote stays as it is.
 */
export function withPullRequestNote(
  settings: Settings,
  found: PullRequestsOfRun,
  env: NodeJS.ProcessEnv,
): Settings {
  const [first] = found.pullRequests;
  const { target } = settings;
  if (target.kind !== 'suite-start' || first === undefined) return settings;
  const metadata = target.options.metadata;
  if (metadata?.note === undefined || metadata.note !== defaultNote(env)) return settings;
  const note = defaultNote(env, first);
  return {
    ...settings,
    target: { ...target, options: { ...target.options, metadata: { ...metadata, note } } },
  };
}

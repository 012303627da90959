import type { SharedSettings } from '../inputs/settings.js';
import { warning } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { GitHubError } from '../service/errors.js';
import type { GitHub } from '../service/github.js';
import { USER_AGENT } from '../service/user-agent.js';

/** Each task: a lookup, or one pull request's comment. */
const GITHUB_BUDGET_MS = 30_000;
const GITHUB_REQUEST_TIMEOUT_MS = 10_000;

/** For its warnings: "Could not <doing>", and what a 403 or 404 means. */
export interface GitHubTask {
  doing: string;
  forbidden: string;
}

/** Each repository's task gets a fresh budget; undefined, after one warning, without a token. */
export async function connectGitHub(
  settings: SharedSettings,
  task: GitHubTask,
  clock: Clock,
  signal: AbortSignal,
): Promise<((repository: { owner: string; repo: string }, until?: number) => GitHub) | undefined> {
  const token = settings.githubToken;
  if (!token) {
    warning(
      line`Could not ${task.doing}: input 'github-token' is empty (it defaults to the workflow's token).`,
    );
    return undefined;
  }
  // Octokit, and zod for GitHub's answers, come only with the comment or lookup: every other run
  // starts without them.
  const [{ getOctokit }, { GitHub, githubFetch }] = await Promise.all([
    import('@actions/github'),
    import('../service/github.js'),
  ]);
  const { apiUrl } = settings.workflow;
  const requestTimeoutMs = Math.min(settings.requestTimeoutMs, GITHUB_REQUEST_TIMEOUT_MS);
  const octokit = getOctokit(token, {
    baseUrl: apiUrl,
    userAgent: USER_AGENT,
    request: { fetch: githubFetch(apiUrl, requestTimeoutMs, clock) },
  });
  // `until`: a cancelled job's deadline, which no budget may outlast.
  return ({ owner, repo }, until = Number.POSITIVE_INFINITY) => {
    const deadline = Math.min(clock.now() + GITHUB_BUDGET_MS, until);
    return new GitHub(octokit, apiUrl, { owner, repo }, { clock, deadline, requestTimeoutMs, signal });
  };
}

export function logFailure(error: unknown, task: GitHubTask, log = warning): undefined {
  const reason = error instanceof Error ? error.message : String(error);
  const forbidden = error instanceof GitHubError && (error.status === 403 || error.status === 404);
  log(line`Could not ${task.doing}. ${reason}${forbidden ? ` ${task.forbidden}` : ''}`);
  return undefined;
}

import type { Settings } from '../inputs/settings.js';
import { formatDuration } from '../report/format.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { type CommentContext, githubFetch, type Octokit } from '../service/github.js';
import { USER_AGENT } from '../service/user-agent.js';

/** Each GitHub task (a lookup, one pull request's comment) gets this long; each request, at most 10 s. */
const GITHUB_BUDGET_MS = 30_000;
const GITHUB_REQUEST_TIMEOUT_MS = 10_000;

/** Octokit over the project's transport, and a fresh budget for the requests of one task. */
export async function githubClient(
  settings: Settings,
  token: string,
  clock: Clock,
  signal: AbortSignal,
): Promise<{ octokit: Octokit; context: CommentContext }> {
  // Octokit comes only with the comment: the start of every other run stays as it is.
  const { getOctokit } = await import('@actions/github');
  const { apiUrl } = settings.workflow;
  const requestTimeoutMs = Math.min(settings.requestTimeoutMs, GITHUB_REQUEST_TIMEOUT_MS);
  const octokit = getOctokit(token, {
    baseUrl: apiUrl,
    userAgent: USER_AGENT,
    request: { fetch: githubFetch(apiUrl, requestTimeoutMs) },
  });
  const context: CommentContext = {
    clock,
    deadline: clock.now() + GITHUB_BUDGET_MS,
    requestTimeoutMs,
    signal,
    onRetry: (what, failure, delayMs) =>
      info(line`Could not ${what} (${failure}); trying again in ${formatDuration(delayMs)}.`),
  };
  return { octokit, context };
}

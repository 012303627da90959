import type { SharedSettings } from '../inputs/settings.js';
import { info, warning } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { isForbidden, RateLimited } from '../service/errors.js';
import type { GitHub } from '../service/github.js';
import { USER_AGENT } from '../service/user-agent.js';
import type { JobCancellation } from './signals.js';

const GITHUB_REQUEST_TIMEOUT_MS = 10_000;
/** How long one request may wait for GitHub's rate limits, in all (and never past `timeout`). */
const RATE_LIMIT_BOUND_MS = 120_000;

/** What every part of one step's work shares: the clock, the job, and one connection to GitHub. */
export interface StepContext {
  clock: Clock;
  job: JobCancellation;
  /** The repository's connection, opened on first use; undefined without a token or a repository. */
  github: () => Promise<GitHub | undefined>;
  /** The requests the step sent to GitHub, for the debug log; undefined when it sent none. */
  requestCount: () => Promise<string | undefined>;
}

/** For its warnings: "Could not <doing>", and what a 403 or 404 means. */
export interface GitHubTask {
  doing: string;
  forbidden: string;
}

/**
 * Whether the step asks GitHub for anything: a check run, a comparison, a comment, or the
 * quarantine (which a pull request checks against its base branch). Decided here, once.
 */
export function usesGitHub(settings: SharedSettings): boolean {
  return (
    settings.wait &&
    (settings.checkRun !== 'false' ||
      settings.failOn === 'new' ||
      settings.prComment !== 'off' ||
      settings.quarantine.length > 0)
  );
}

export function openStep(settings: SharedSettings, clock: Clock, job: JobCancellation): StepContext {
  let connection: Promise<GitHub | undefined> | undefined;
  const github = () => {
    connection ??= open(settings, clock, job);
    return connection;
  };
  const requestCount = async () => (await connection?.catch(() => undefined))?.requestCount();
  return { clock, job, github, requestCount };
}

/**
 * None where the step asks GitHub for nothing, or cannot: then one line, said once for the step,
 * says what is not done and why.
 */
async function open(settings: SharedSettings, clock: Clock, job: JobCancellation) {
  if (!usesGitHub(settings)) return undefined;
  const { githubToken: token, workflow } = settings;
  const { repo, apiUrl } = workflow;
  if (!token || !repo) {
    const why = token
      ? 'GITHUB_REPOSITORY does not name the repository'
      : "input 'github-token' is empty (it defaults to the workflow's token)";
    // A warning where the workflow asked for a comment, a check run or the gate by name.
    const asked = settings.prComment !== 'off' || settings.checkRun === 'true' || settings.failOn === 'new';
    (asked ? warning : info)(
      line`GitHub is not used: ${why}. No check run, pull request comment or comparison with the base branch.`,
    );
    return undefined;
  }
  // Octokit, and zod for GitHub's answers, come only with a GitHub request: every other run starts without them.
  const [{ getOctokit }, { GitHub, githubFetch }] = await Promise.all([
    import('@actions/github'),
    import('../service/github.js'),
  ]);
  const requestTimeoutMs = Math.min(settings.requestTimeoutMs, GITHUB_REQUEST_TIMEOUT_MS);
  const octokit = getOctokit(token, {
    baseUrl: apiUrl,
    userAgent: USER_AGENT,
    request: { fetch: githubFetch(apiUrl, requestTimeoutMs, clock) },
  });
  return new GitHub(octokit, apiUrl, repo, {
    clock,
    requestTimeoutMs,
    signal: job.signal,
    until: () => job.deadline,
    rateLimitMs: Math.min(RATE_LIMIT_BOUND_MS, settings.timeoutMs),
  });
}

export function logFailure(error: unknown, task: GitHubTask, log = warning): undefined {
  if (error instanceof RateLimited && error.toldAlready) return undefined;
  const reason = error instanceof Error ? error.message : String(error);
  log(line`Could not ${task.doing}. ${reason}${isForbidden(error) ? ` ${task.forbidden}` : ''}`);
  return undefined;
}

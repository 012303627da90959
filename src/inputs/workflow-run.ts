import { readFileSync } from 'node:fs';

/** The pull request a workflow runs for, from the event payload, in the base repository. */
export interface PullRequestRef {
  owner: string;
  repo: string;
  number: number;
  /** The pull request's head commit (GITHUB_SHA is a temporary merge commit that is on no branch). */
  headSha?: string;
}

/** What the runner tells of the workflow run: for the default note and the pull request comment. */
export interface WorkflowRun {
  eventName?: string;
  apiUrl: string;
  serverUrl: string;
  repository?: string;
  /** The commit the workflow runs on (on a pull request, the merge commit). */
  sha?: string;
  runId?: string;
  runAttempt?: string;
  /** On pull_request and pull_request_target events, the pull request of the event payload. */
  pullRequest?: PullRequestRef;
  /** On deployment_status and workflow_run events, the commit tested and what the payload says of it. */
  eventCommit?: EventCommit;
}

/** The commit a deployment_status or workflow_run event is about: not GITHUB_SHA. */
export interface EventCommit {
  /** `deployment.sha`, or `workflow_run.head_sha`. */
  sha: string;
  /** workflow_run: the triggering run's pull requests into this repository (GitHub leaves it empty for a fork). */
  pullRequests?: { number: number; headSha?: string }[];
  /** workflow_run: the head as `owner:branch`, to find a fork's pull request by. */
  head?: string;
}

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);

export function isPullRequestEvent(eventName: string | undefined): boolean {
  return PULL_REQUEST_EVENTS.has(eventName ?? '');
}

/** The pull request of a pull_request event's payload; undefined when it names none or cannot be read. */
function readPullRequest(env: NodeJS.ProcessEnv): PullRequestRef | undefined {
  if (!isPullRequestEvent(env.GITHUB_EVENT_NAME) || !env.GITHUB_EVENT_PATH) return undefined;
  let payload: {
    pull_request?: { number?: unknown; head?: { sha?: unknown } };
    repository?: { full_name?: unknown };
  };
  try {
    payload = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
  } catch {
    return undefined;
  }
  const fullName = env.GITHUB_REPOSITORY || payload?.repository?.full_name;
  const [owner, repo] = typeof fullName === 'string' ? fullName.split('/') : [];
  const number = payload?.pull_request?.number;
  if (!owner || !repo || typeof number !== 'number') return undefined;
  const headSha = payload.pull_request?.head?.sha;
  return { owner, repo, number, headSha: typeof headSha === 'string' ? headSha : undefined };
}

type Payload = Record<string, Record<string, unknown> | undefined>;

/** The event payload of deployment_status and workflow_run events, as far as it is used. */
function readEventCommit(env: NodeJS.ProcessEnv): EventCommit | undefined {
  const event = env.GITHUB_EVENT_NAME;
  if ((event !== 'deployment_status' && event !== 'workflow_run') || !env.GITHUB_EVENT_PATH) return undefined;
  let payload: Payload;
  try {
    payload = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
  } catch {
    return undefined;
  }
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  if (event === 'deployment_status') {
    const sha = text(payload?.deployment?.sha);
    return sha ? { sha } : undefined;
  }
  const run = payload?.workflow_run as
    | { head_sha?: unknown; head_branch?: unknown; head_repository?: { owner?: { login?: unknown } } }
    | undefined;
  const sha = text(run?.head_sha);
  if (!sha) return undefined;
  const owner = text(run?.head_repository?.owner?.login);
  const branch = text(run?.head_branch);
  return {
    sha,
    pullRequests: runPullRequests(payload),
    head: owner && branch ? `${owner}:${branch}` : undefined,
  };
}

/** `workflow_run.pull_requests` whose base is this repository (GitHub lists some of other repositories). */
function runPullRequests(payload: Payload): { number: number; headSha?: string }[] {
  const list = payload?.workflow_run?.pull_requests;
  const here = payload?.repository?.id;
  if (!Array.isArray(list)) return [];
  return list
    .filter((pull) => typeof pull?.number === 'number')
    .filter(
      (pull) => typeof here !== 'number' || pull.base?.repo?.id === undefined || pull.base.repo.id === here,
    )
    .map((pull) => ({
      number: pull.number,
      headSha: typeof pull.head?.sha === 'string' ? pull.head.sha : undefined,
    }));
}

export function readWorkflowRun(env: NodeJS.ProcessEnv): WorkflowRun {
  return {
    eventName: env.GITHUB_EVENT_NAME || undefined,
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    serverUrl: env.GITHUB_SERVER_URL || 'https://github.com',
    repository: env.GITHUB_REPOSITORY || undefined,
    sha: env.GITHUB_SHA || undefined,
    runId: env.GITHUB_RUN_ID || undefined,
    runAttempt: env.GITHUB_RUN_ATTEMPT || undefined,
    pullRequest: readPullRequest(env),
    eventCommit: readEventCommit(env),
  };
}

/** The workflow run's page, or of one attempt of it; undefined outside a runner. */
export function workflowRunUrl(
  workflow: WorkflowRun,
  options: { attempt?: boolean } = {},
): string | undefined {
  if (!workflow.repository || !workflow.runId) return undefined;
  const attempt = options.attempt && workflow.runAttempt ? `/attempts/${workflow.runAttempt}` : '';
  return `${workflow.serverUrl}/${workflow.repository}/actions/runs/${workflow.runId}${attempt}`;
}

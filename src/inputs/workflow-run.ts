import { readFileSync } from 'node:fs';
import { isRecord } from './options-text.js';

/** A repository, as `owner/repo` names it. */
export interface Repo {
  owner: string;
  repo: string;
}

/** `owner/repo` parsed, or undefined where it names no repository. */
function parseRepo(fullName: string | undefined): Repo | undefined {
  const [owner, repo] = (fullName ?? '').split('/');
  return owner && repo ? { owner, repo } : undefined;
}

/** In the base repository. */
export interface PullRequestRef extends Repo {
  number: number;
  /**
   * The commit tested (`commitTested`), written to only while it is the pull request's head
   * (GITHUB_SHA on pull_request is a temporary merge commit that is on no branch).
   */
  headSha?: string;
  /** pull_request: its head is in another repository (or in one deleted since, `head.repo: null`). */
  fromFork?: boolean;
}

/** The commit a deployment_status or workflow_run event is about (tested), not GITHUB_SHA. */
interface EventCommit {
  sha: string;
  /** deployment_status: the state reported (`success`, `pending`, `in_progress`, `failure`, …). */
  deploymentState?: string;
  /** workflow_run: the triggering run's pull requests into this repository (GitHub leaves it empty for a fork). */
  pullRequests?: { number: number; headSha?: string }[];
  /** workflow_run: `owner:branch`, to find a fork's pull request by. */
  head?: string;
  /** workflow_run: the triggering run's branch, when that run was a push, schedule or dispatch of this repository's own branch. */
  branchRun?: string;
}

/** The events on which a run tests a branch itself, not a pull request: their results may be a baseline. */
export const BRANCH_EVENTS = ['push', 'schedule', 'workflow_dispatch', 'merge_group'];

export const isPullRequestEvent = (eventName: string | undefined) =>
  eventName === 'pull_request' || eventName === 'pull_request_target';

function readPayload(env: NodeJS.ProcessEnv): unknown {
  try {
    return env.GITHUB_EVENT_PATH ? JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) : undefined;
  } catch {
    return undefined;
  }
}

const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((here, key) => (isRecord(here) ? here[key] : undefined), value);
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function readPullRequest(env: NodeJS.ProcessEnv, payload: unknown): PullRequestRef | undefined {
  if (!isPullRequestEvent(env.GITHUB_EVENT_NAME)) return undefined;
  const number = at(payload, 'pull_request', 'number');
  const fullName = env.GITHUB_REPOSITORY || text(at(payload, 'repository', 'full_name')) || '';
  const base = parseRepo(fullName);
  if (!base || typeof number !== 'number') return undefined;
  const headRepository = text(at(payload, 'pull_request', 'head', 'repo', 'full_name'));
  const fromFork = headRepository?.toLowerCase() !== fullName.toLowerCase();
  return { ...base, number, headSha: text(at(payload, 'pull_request', 'head', 'sha')), fromFork };
}

function readEventCommit(env: NodeJS.ProcessEnv, payload: unknown): EventCommit | undefined {
  if (env.GITHUB_EVENT_NAME === 'deployment_status') {
    const sha = text(at(payload, 'deployment', 'sha'));
    return sha ? { sha, deploymentState: text(at(payload, 'deployment_status', 'state')) } : undefined;
  }
  if (env.GITHUB_EVENT_NAME !== 'workflow_run') return undefined;
  const run = (...keys: string[]) => at(payload, 'workflow_run', ...keys);
  const sha = text(run('head_sha'));
  if (!sha) return undefined;
  const [owner, branch] = [text(run('head_repository', 'owner', 'login')), text(run('head_branch'))];
  const here = at(payload, 'repository', 'id');
  const list = run('pull_requests');
  // GitHub lists some pull requests into other repositories: only those into this one are kept.
  const pullRequests = (Array.isArray(list) ? list : []).flatMap((pull) => {
    const [number, base] = [at(pull, 'number'), at(pull, 'base', 'repo', 'id')];
    if (typeof number !== 'number' || (typeof here === 'number' && base !== undefined && base !== here))
      return [];
    return [{ number, headSha: text(at(pull, 'head', 'sha')) }];
  });
  const ofBranch =
    BRANCH_EVENTS.includes(String(run('event'))) &&
    typeof here === 'number' &&
    run('head_repository', 'id') === here;
  const head = owner && branch ? `${owner}:${branch}` : undefined;
  return { sha, pullRequests, head, branchRun: ofBranch ? branch : undefined };
}

/** merge_group: the queue's temporary commit, tested, and the base branch's commit it was built on. */
function readMergeGroup(env: NodeJS.ProcessEnv, payload: unknown): WorkflowRun['mergeGroup'] {
  if (env.GITHUB_EVENT_NAME !== 'merge_group') return undefined;
  const headSha = text(at(payload, 'merge_group', 'head_sha'));
  const queue = /^gh-readonly-queue\/(.+)\/pr-/.exec(env.GITHUB_REF_NAME ?? '')?.[1];
  const baseBranch = text(at(payload, 'merge_group', 'base_ref'))?.replace(/^refs\/heads\//, '') ?? queue;
  return headSha ? { headSha, baseSha: text(at(payload, 'merge_group', 'base_sha')), baseBranch } : undefined;
}

/** The run of the workflow this step is in, as the runner's variables and event payload tell it; fields are undefined outside a runner. */
export interface WorkflowRun {
  eventName?: string;
  apiUrl: string;
  serverUrl: string;
  /** `owner/repo`. */
  repository?: string;
  /** `repository` parsed; undefined where it names no repository. */
  repo?: Repo;
  sha?: string;
  runId?: string;
  runAttempt?: string;
  /** `GITHUB_ACTION`: the step's id, or a name the runner made unique in the job. */
  stepId?: string;
  pullRequest?: PullRequestRef;
  eventCommit?: EventCommit;
  mergeGroup?: { headSha: string; baseSha?: string; baseBranch?: string };
  /** The repository's default branch, as the event payload names it. */
  defaultBranch?: string;
  /** The workflow's file name (`e2e.yml`), from GITHUB_WORKFLOW_REF: its runs hold the branch's results. */
  workflowFile?: string;
  /** GITHUB_REF_NAME when the ref is a branch. */
  branch?: string;
}

export function readWorkflowRun(env: NodeJS.ProcessEnv): WorkflowRun {
  const payload = readPayload(env);
  return {
    eventName: env.GITHUB_EVENT_NAME || undefined,
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    serverUrl: env.GITHUB_SERVER_URL || 'https://github.com',
    repository: env.GITHUB_REPOSITORY || undefined,
    repo: parseRepo(env.GITHUB_REPOSITORY),
    sha: env.GITHUB_SHA || undefined,
    runId: env.GITHUB_RUN_ID || undefined,
    runAttempt: env.GITHUB_RUN_ATTEMPT || undefined,
    stepId: env.GITHUB_ACTION || undefined,
    pullRequest: readPullRequest(env, payload),
    eventCommit: readEventCommit(env, payload),
    mergeGroup: readMergeGroup(env, payload),
    defaultBranch: text(at(payload, 'repository', 'default_branch')),
    workflowFile: /^[^@]*\/\.github\/workflows\/([^/@]+)@/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1],
    branch: env.GITHUB_REF_TYPE === 'branch' ? env.GITHUB_REF_NAME || undefined : undefined,
  };
}

/** The commit the workflow tested: where its check run goes and what its comment names. */
export function commitTested(workflow: WorkflowRun): string | undefined {
  return (
    workflow.pullRequest?.headSha ?? workflow.eventCommit?.sha ?? workflow.mergeGroup?.headSha ?? workflow.sha
  );
}

/**
 * The branch whose own run this is, when it is one: a push, schedule, dispatch or merge queue (its
 * base branch), or a workflow_run of one of those in this repository. Anything else, a preview
 * deployment included, is a pull request's (a branch's push may still be one: run/pull-requests.ts).
 */
export function branchOfRun(
  workflow: WorkflowRun,
  pullRequestNumber: number | undefined,
): string | undefined {
  if (pullRequestNumber !== undefined) return undefined;
  if (workflow.eventName === 'workflow_run') return workflow.eventCommit?.branchRun;
  if (workflow.mergeGroup) return workflow.mergeGroup.baseBranch;
  return BRANCH_EVENTS.includes(workflow.eventName ?? '') ? workflow.branch : undefined;
}

export function workflowRunUrl(
  workflow: WorkflowRun,
  options: { attempt?: boolean } = {},
): string | undefined {
  if (!workflow.repository || !workflow.runId) return undefined;
  const attempt = options.attempt && workflow.runAttempt ? `/attempts/${workflow.runAttempt}` : '';
  return `${workflow.serverUrl}/${workflow.repository}/actions/runs/${workflow.runId}${attempt}`;
}

/**
 * A deployment_status event is sent for every state of a deployment, and only `success` says that
 * its URL is up: a workflow that does not filter on it tests a deployment that may not exist yet.
 */
export function deploymentNotReady(workflow: WorkflowRun): string | undefined {
  if (workflow.eventName !== 'deployment_status') return undefined;
  const state = workflow.eventCommit?.deploymentState;
  if (state === undefined || state === 'success') return undefined;
  return `This deployment_status event reports the state '${state}', not 'success': the deployment may not be up, and tests of its URL may fail. Run the job on success only: if: github.event.deployment_status.state == 'success'.`;
}

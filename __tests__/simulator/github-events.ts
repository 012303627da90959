/**
 * Event payloads shaped like GitHub's own (trimmed to what a client reads, and a little more), for
 * GITHUB_EVENT_PATH: a preview deployment's `deployment_status`, `workflow_run` from the same
 * repository or from a fork, `push`, `schedule` and `merge_group`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPOSITORY_ID = 700_000_001;
const FORK_ID = 700_000_999;

function repository(fullName: string, id: number) {
  const [owner, name] = fullName.split('/');
  return {
    id,
    name,
    full_name: fullName,
    private: false,
    owner: { login: owner, id: 9919, type: 'User' },
    html_url: `https://github.com/${fullName}`,
    url: `https://api.github.com/repos/${fullName}`,
    fork: id !== REPOSITORY_ID,
    default_branch: 'main',
  };
}

const sender = { login: 'vercel[bot]', id: 35613825, type: 'Bot' };

/** `deployment_status` as a hosting service's preview deployment of `sha` makes it (Vercel's shape). */
export function deploymentStatusEvent(options: {
  repository: string;
  sha: string;
  ref?: string;
  environment?: string;
  state?: string;
}) {
  const environment = options.environment ?? 'Preview';
  const api = `https://api.github.com/repos/${options.repository}`;
  return {
    action: 'created',
    deployment_status: {
      url: `${api}/deployments/1001/statuses/2001`,
      id: 2001,
      state: options.state ?? 'success',
      environment,
      target_url: 'https://shop-git-feature-preview.vercel.app',
      environment_url: 'https://shop-git-feature-preview.vercel.app',
      creator: sender,
    },
    deployment: {
      url: `${api}/deployments/1001`,
      id: 1001,
      sha: options.sha,
      ref: options.ref ?? options.sha,
      task: 'deploy',
      payload: {},
      environment,
      production_environment: environment === 'Production',
      transient_environment: environment !== 'Production',
      creator: sender,
    },
    repository: repository(options.repository, REPOSITORY_ID),
    sender,
  };
}

/**
 * `workflow_run` (completed) of a `pull_request` workflow: its head, and `pull_requests` as GitHub
 * fills it: the pull requests into this repository from a branch of it; empty for a fork's.
 */
export function workflowRunEvent(options: {
  repository: string;
  headSha: string;
  headBranch: string;
  /** `owner/repo` of the head; default the repository itself. */
  headRepository?: string;
  /** Pull request numbers, for a head in the repository itself. */
  pullRequests?: number[];
}) {
  const base = repository(options.repository, REPOSITORY_ID);
  const fork = options.headRepository !== undefined && options.headRepository !== options.repository;
  const head = fork ? repository(options.headRepository as string, FORK_ID) : base;
  const short = (repo: typeof base) => ({ id: repo.id, url: repo.url, name: repo.name });
  return {
    action: 'completed',
    workflow_run: {
      id: 9001,
      name: 'CI',
      event: 'pull_request',
      status: 'completed',
      conclusion: 'success',
      head_branch: options.headBranch,
      head_sha: options.headSha,
      run_number: 12,
      run_attempt: 1,
      pull_requests: (fork ? [] : (options.pullRequests ?? [])).map((number) => ({
        url: `${base.url}/pulls/${number}`,
        id: 1_000_000 + number,
        number,
        head: { ref: options.headBranch, sha: options.headSha, repo: short(base) },
        base: { ref: 'main', sha: 'b'.repeat(40), repo: short(base) },
      })),
      head_repository: head,
      repository: base,
    },
    workflow: { id: 77, name: 'CI', path: '.github/workflows/ci.yml' },
    repository: base,
    sender: { login: 'octocat', id: 583231, type: 'User' },
  };
}

const commitAuthor = { name: 'Octo Cat', email: 'octocat@example.com', username: 'octocat' };

/** A commit as push and merge_group payloads show one (GitHub's simple-commit, `head_commit`). */
function simpleCommit(sha: string) {
  return {
    id: sha,
    tree_id: sha.split('').reverse().join(''),
    message: `Commit ${sha.slice(0, 7)}`,
    timestamp: '2024-05-01T12:00:00Z',
    author: commitAuthor,
    committer: commitAuthor,
  };
}

/**
 * `push` of `branch` to `after` (GitHub's webhook-push, trimmed): `repository.default_branch` is
 * 'main', so a push of another branch can be told from one of the default branch.
 */
export function pushEvent(options: { repository: string; branch: string; after: string; before?: string }) {
  const base = repository(options.repository, REPOSITORY_ID);
  const before = options.before ?? '0'.repeat(40);
  return {
    ref: `refs/heads/${options.branch}`,
    before,
    after: options.after,
    base_ref: null,
    created: before === '0'.repeat(40),
    deleted: false,
    forced: false,
    compare: `${base.html_url}/compare/${before.slice(0, 12)}...${options.after.slice(0, 12)}`,
    commits: [
      { ...simpleCommit(options.after), distinct: true, url: `${base.html_url}/commit/${options.after}` },
    ],
    head_commit: {
      ...simpleCommit(options.after),
      distinct: true,
      url: `${base.html_url}/commit/${options.after}`,
    },
    pusher: { name: commitAuthor.name, email: commitAuthor.email },
    repository: { ...base, master_branch: base.default_branch },
    sender: { login: 'octocat', id: 583231, type: 'User' },
  };
}

/** `schedule`: GitHub gives no webhook payload, only the cron expression and the workflow's path. */
export function scheduleEvent(options: { workflow: string; cron?: string }) {
  return { schedule: options.cron ?? '0 3 * * *', workflow: `.github/workflows/${options.workflow}` };
}

/**
 * `merge_group` (checks_requested) of pull request `pullRequest` (head `pullRequestHead`) queued
 * into `baseBranch`: GitHub tests `headSha` on the queue's temporary branch
 * `gh-readonly-queue/{base}/pr-{number}-{pull request head}`, built on `baseSha`.
 */
export function mergeGroupEvent(options: {
  repository: string;
  headSha: string;
  baseSha: string;
  baseBranch: string;
  pullRequest: number;
  pullRequestHead: string;
}) {
  return {
    action: 'checks_requested',
    merge_group: {
      head_sha: options.headSha,
      head_ref: `refs/heads/${mergeQueueBranch(options)}`,
      base_sha: options.baseSha,
      base_ref: `refs/heads/${options.baseBranch}`,
      head_commit: simpleCommit(options.headSha),
    },
    repository: repository(options.repository, REPOSITORY_ID),
    sender: { login: 'octocat', id: 583231, type: 'User' },
  };
}

/** The merge queue's temporary branch of a pull request, as GITHUB_REF_NAME names it on `merge_group`. */
export function mergeQueueBranch(options: {
  baseBranch: string;
  pullRequest: number;
  pullRequestHead: string;
}) {
  return `gh-readonly-queue/${options.baseBranch}/pr-${options.pullRequest}-${options.pullRequestHead}`;
}

/** Writes a payload to a new temporary file and returns its path, for GITHUB_EVENT_PATH. */
export function eventFile(payload: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'event-')), 'event.json');
  fs.writeFileSync(file, JSON.stringify(payload));
  return file;
}

/** The runner's variables for a push to `main` of octo/shop at `commit`, with GitHub at `apiUrl`. */
export function pushToMainEnv(apiUrl: string, commit: string): Record<string, string> {
  return {
    GITHUB_API_URL: apiUrl,
    GITHUB_REPOSITORY: 'octo/shop',
    GITHUB_RUN_ID: '4242',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_SHA: commit,
    GITHUB_REF_NAME: 'main',
    GITHUB_REF_TYPE: 'branch',
    GITHUB_EVENT_PATH: eventFile({
      ref: 'refs/heads/main',
      after: commit,
      repository: repository('octo/shop', REPOSITORY_ID),
    }),
  };
}

/**
 * A simulator of the GitHub REST API's issue-comment endpoints, for end-to-end tests of the sticky
 * pull-request comment, with the pulls and commit endpoints around them, of the Checks API's check
 * runs, and of a workflow's runs (where a branch's previous result is looked for).
 *
 * It serves like https://api.github.com (or a GitHub Enterprise `/api/v3` with `prefix`) over real
 * HTTP on 127.0.0.1, with repositories whose pull requests hold comments, scripted by a `Scenario`:
 * which token is valid, whether it may write, which pull requests exist with which comments, which
 * commits and branches a repository has, which GitHub App the token acts for and whether it may
 * write check runs, which workflow runs there were, and which requests fail and how. Every request
 * is logged, with when it arrived and when it was answered, so a test can check what the client
 * sent, how many requests it had in flight at once (`maxInFlight`) and how many it made
 * (`requestCounts`, from `resetCounts`).
 *
 * Choices where GitHub's behaviour is not copied exactly (see also the comments below):
 * - Order of checks for a request: route (unknown -> 404, no auth needed), faults, auth (401),
 *   repository / issue / comment lookup (404), read-only token (403), body (400 / 422), operation.
 * - A faulted request changes no state, except 'delay' (answers normally, state changes when it
 *   answers), the '-after-effect' kinds and a 'rate-limit' with `afterEffect` (the operation is
 *   performed, then the answer is replaced).
 * - Rate limits are faults ('rate-limit'), never counted: a primary limit answers 403 (or 429) with
 *   x-ratelimit-remaining 0 and the reset, a secondary one 403 (or 429) with its message and a
 *   retry-after only when the fault gives one, as GitHub words them (its docs' "Rate limits for the
 *   REST API"). Other answers carry no x-ratelimit-* headers (GitHub's all do).
 * - Request numbers (`LoggedRequest.n`, `FaultRule.requests`) count every request of an operation
 *   since the simulator started; `setScenario` does not reset them, nor the comments and check runs.
 * - Link headers point at `/repositories/{id}/issues/{n}/comments` as GitHub's do, so pages after
 *   the first are logged with that path; the simulator serves both forms for every repository
 *   operation.
 * - Timestamps have GitHub's one-second resolution, and each create / update gets a stamp at least
 *   one second after the previous one, so `updated_at` always changes (it may run slightly ahead of
 *   the clock when a test writes many comments within a second).
 * - Owner and repository names are case-insensitive, as on GitHub.
 * - GraphQL answers one query, the token's `viewer { login databaseId }` (the scenario's `user`,
 *   as GitHub answers for an installation token: the bot's login with `[bot]`, its user id);
 *   any other query gets GraphQL's `errors`.
 * - Commits are a graph of shas and parents only: no trees, files, diffs or signatures (getCommit
 *   and compare answer `files: []`), one author and one date for all. A ref is a branch (`main`,
 *   `heads/main`, `refs/heads/main`), a sha or an unambiguous prefix of 4+ hex digits, in one path
 *   segment (encoded, as Octokit sends it); tags and `owner:branch` heads are not simulated.
 * - getGitCommit (the Git database's commit object: tree, parents with their git/commits urls,
 *   message, no files or GitHub users) takes a full 40-hex sha only, in either case: it is not a
 *   ref-resolving route. A branch, `heads/…`, a prefix or an unknown sha all answer 404 Not Found
 *   (GitHub's description lists 404 and 409 for it, no 422; getCommit says 422 No commit found).
 *   The 409 of an empty repository is not simulated.
 * - listPulls filters by `state`, `head` (`owner:branch`) and `base` (a branch name) as GitHub does,
 *   and lists newest first (GitHub's default, `sort=created`, `direction=desc`); `sort` and
 *   `direction` are ignored.
 * - compare's merge base is git merge-base's; when there are several (criss-cross merges), the
 *   nearest to the head. Its `commits` are all those ahead, parents first, in one answer (GitHub
 *   pages them past 250).
 * - Check runs: the token acts for one GitHub App (`app`), and an app's runs on a commit share one
 *   check suite. Not simulated: annotations, images and actions (`annotations_count` is 0), the
 *   runs' `pull_requests` (always []), the check-suite endpoints, rerequests, and the statuses and
 *   conclusion only GitHub sets (waiting, requested, pending, stale). No external_id shows as '',
 *   no details_url as the app's homepage, as on GitHub.
 * - A check-run write checks: repository (404), check run (404), the `checks` permission (403),
 *   another app's run (403), body (400 / 422 with the schema's messages, characters counted as code
 *   points), head commit (422), the output's UTF-8 bytes (422 Validation Failed).
 * - A check run's output.summary and output.text are each limited to MAX_CHECK_OUTPUT_LENGTH
 *   characters, then as many UTF-8 bytes, on create and update alike; both are stored whole.
 * - listCheckRunsForRef lists newest first (by id); `filter=latest`, the default, keeps the newest
 *   run per name and app by id (GitHub says by completed_at), and `status` filters what it kept, as
 *   `check_name` and `app_id` do. Pages hold `per_page` runs (default 30, at most 100), each with its
 *   whole output, so a page of other apps' runs can be megabytes, as on GitHub.
 * - getApp answers without a token, as for a public app; it knows GITHUB_ACTIONS_APP, OTHER_APP,
 *   the scenario's app and the check runs' apps.
 * - Workflow runs (listWorkflowRuns) are the scenario's `workflowRuns`, read live: a workflow exists
 *   when a run names its file, and `workflow_id` is that file name or the workflow's made-up id.
 *   Order of checks: repository (404), the actions permission (`actions: 'none'` -> 403), workflow
 *   (404). Newest first by created_at, then id. `status` matches a run's status or its conclusion
 *   (as GitHub's does); `branch`, `event` and `head_sha` match exactly; `actor`, `created`,
 *   `check_suite_id` and `exclude_pull_requests` are ignored, and so is GitHub's cap of 1,000
 *   results for a filtered listing. A run's name is its path (as for a workflow without `name:`),
 *   its pull_requests [], its actor HUMAN_USER, its run_number its place among its workflow's runs
 *   by creation; a completed run was updated five minutes after it was created. The jobs, logs,
 *   artifacts and check suites its urls name are not simulated.
 */

import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { components } from '@octokit/openapi-types';
import {
  faultFor,
  isObject,
  JsonServer,
  type FaultRule as JsonServerFaultRule,
  type LoggedRequest as JsonServerRequest,
  listeningServer,
  normalisePrefix,
  type ParsedBody,
  type Reply,
  type StartOptions,
  send,
  streamForever,
} from './json-server.js';

export type IssueComment = components['schemas']['issue-comment'];
export type Commit = components['schemas']['commit'];
export type GitCommit = components['schemas']['git-commit'];
export type CommitComparison = components['schemas']['commit-comparison'];
export type CheckRun = components['schemas']['check-run'];
export type App = NonNullable<components['schemas']['integration']>;
export type CheckStatus = 'queued' | 'in_progress' | 'completed';
export type CheckConclusion = NonNullable<CheckRun['conclusion']>;
export type AuthorAssociation = components['schemas']['author-association'];
export type WorkflowRun = components['schemas']['workflow-run'];
export type WorkflowRunStatus = 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending';
export type WorkflowRunConclusion =
  | 'success'
  | 'failure'
  | 'neutral'
  | 'cancelled'
  | 'skipped'
  | 'timed_out'
  | 'action_required'
  | 'stale'
  | 'startup_failure';

export type Operation =
  | 'listComments' // GET   {prefix}/repos/{owner}/{repo}/issues/{issue_number}/comments?per_page&page
  | 'createComment' // POST  {prefix}/repos/{owner}/{repo}/issues/{issue_number}/comments  body {body}
  | 'updateComment' // PATCH {prefix}/repos/{owner}/{repo}/issues/comments/{comment_id}    body {body}
  | 'graphql' // POST  /graphql (GitHub Enterprise: /api/graphql beside /api/v3)  body {query}: viewer only
  | 'getPull' // GET   {prefix}/repos/{owner}/{repo}/pulls/{pull_number}
  | 'listPulls' // GET   {prefix}/repos/{owner}/{repo}/pulls?state&head&base&per_page&page
  | 'commitPulls' // GET   {prefix}/repos/{owner}/{repo}/commits/{sha}/pulls
  | 'getCommit' // GET   {prefix}/repos/{owner}/{repo}/commits/{ref}  (ref: a sha, a sha's prefix or a branch)
  | 'getGitCommit' // GET   {prefix}/repos/{owner}/{repo}/git/commits/{commit_sha}  (a full sha only)
  | 'compare' // GET   {prefix}/repos/{owner}/{repo}/compare/{base}...{head}
  | 'createCheckRun' // POST  {prefix}/repos/{owner}/{repo}/check-runs  body {name, head_sha, status, conclusion, output, ...}
  | 'updateCheckRun' // PATCH {prefix}/repos/{owner}/{repo}/check-runs/{check_run_id}  body as createCheckRun's, all optional
  | 'listCheckRunsForRef' // GET   {prefix}/repos/{owner}/{repo}/commits/{ref}/check-runs?filter&check_name&status&app_id&per_page&page
  | 'getApp' // GET   {prefix}/apps/{app_slug}  (no token needed, as for a public app)
  | 'listWorkflowRuns' // GET   {prefix}/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs?branch&event&status&head_sha&per_page&page
  | 'deleteComment'; // DELETE {prefix}/repos/{owner}/{repo}/issues/comments/{comment_id} -> 204

export interface SimUser {
  login: string;
  id: number;
  type: 'Bot' | 'User' | 'Organization';
}

/** A GitHub App, as a token acts for one when it writes check runs. */
export interface SimApp {
  id: number;
  slug: string;
  name: string;
  owner: SimUser;
  description?: string;
  /** The app's homepage, GitHub's details_url of a check run that gives none; default its html_url. */
  externalUrl?: string;
  /** ISO times; default APP_CREATED_AT, `updatedAt` default `createdAt`. */
  createdAt?: string;
  updatedAt?: string;
  /** Default { checks: 'write', metadata: 'read' }. */
  permissions?: Record<string, string>;
  /** Default []. */
  events?: string[];
}

/** A check run that exists when the simulator starts, or that a test adds with `seedCheckRun`. */
export interface SeedCheckRun {
  owner: string;
  repo: string;
  headSha: string;
  name: string;
  /** Default GITHUB_ACTIONS_APP. */
  app?: SimApp;
  /** Default 'completed' (always 'completed' when a conclusion is given). */
  status?: CheckStatus;
  /** Default 'success' when completed. */
  conclusion?: CheckConclusion;
  output?: { title: string; summary: string; text?: string };
  /** ISO times; default the time of seeding (`completedAt` only when completed). */
  startedAt?: string;
  completedAt?: string;
  detailsUrl?: string;
  externalId?: string;
}

export interface SeedComment {
  body: string;
  /** Default GITHUB_ACTIONS_BOT. */
  user?: SimUser;
  /** Default 'NONE' for a bot, 'MEMBER' for a user. */
  authorAssociation?: AuthorAssociation;
  /** ISO time; default the time of seeding. `updatedAt` defaults to `createdAt`. */
  createdAt?: string;
  updatedAt?: string;
}

export interface PullRequestSeed {
  owner: string;
  repo: string;
  number: number;
  comments?: SeedComment[];
}

export type Fault =
  /** Answer this status; body default {message: '<reason phrase>', documentation_url, status}. */
  | {
      kind: 'status';
      status: number;
      retryAfter?: string;
      /** Epoch seconds: also send x-ratelimit-remaining: 0 and this x-ratelimit-reset (a rate-limit 403 / 429). */
      rateLimitReset?: number;
      body?: unknown;
    }
  | { kind: 'reset' } // destroy the socket without any answer (after reading the request)
  | { kind: 'hang' } // read the request, never answer (socket stays open until stop())
  | { kind: 'delay'; ms: number } // answer normally, after ms
  | { kind: 'status-after-effect'; status: number; body?: unknown } // perform the operation, then answer status
  | { kind: 'reset-after-effect' } // perform the operation, then destroy the socket without an answer
  | { kind: 'deleted' } // updateComment / updateCheckRun: the comment or check run is gone just before; this answers 404
  | { kind: 'endless' } // 200, a JSON list whose first comment's body never ends
  | { kind: 'text'; text: string } // 200 with this body as text/html (a captive portal's page, say)
  | { kind: 'link'; next: string } // answer normally, with a Link header naming `next` as the next page
  | { kind: 'redirect'; status: 301 | 302 | 307 | 308; location: string }
  /**
   * GitHub's primary rate limit, as an installation token meets it: `status` (default 403) with
   * x-ratelimit-limit 1000 (GITHUB_TOKEN's per repository), -remaining 0, -used 1000, -reset
   * (`reset`, epoch seconds; default an hour from now) and -resource core, and the message "API
   * rate limit exceeded for installation ID INSTALLATION_ID. ...". With `afterEffect`, the
   * operation is performed first (GitHub does not promise a limited write had no effect).
   */
  | { kind: 'rate-limit'; limit: 'primary'; status?: 403 | 429; reset?: number; afterEffect?: boolean }
  /**
   * A secondary rate limit: `status` (default 403), "You have exceeded a secondary rate limit. ...",
   * with retry-after `retryAfter` seconds when given, else no rate-limit header at all (as GitHub
   * may answer a content-creating request). `afterEffect` as for the primary limit.
   */
  | {
      kind: 'rate-limit';
      limit: 'secondary';
      status?: 403 | 429;
      retryAfter?: number;
      afterEffect?: boolean;
    };

export type FaultRule = JsonServerFaultRule<Operation, Fault>;
export type LoggedRequest = JsonServerRequest<Operation>;

export interface Scenario {
  /** The valid token (default DEFAULT_TOKEN), sent as `Authorization: token X` or `Bearer X`. */
  token?: string;
  /** The token may read but not write: creates, updates and deletes -> 403 'Resource not accessible by integration'. */
  readOnly?: boolean;
  /** Who the token acts as: the author of the comments created through the API, and GraphQL's viewer; default GITHUB_ACTIONS_BOT. */
  user?: SimUser;
  /** Path prefix the API is mounted under, e.g. '/api/v3' as on GitHub Enterprise (default ''). */
  prefix?: string;
  /**
   * Pull requests that exist, with their comments (seeded when the simulator starts). When set, other
   * repositories (but those `commits`, `branches`, `workflowRuns` or check runs name) and issue
   * numbers -> 404; when absent, every owner/repo#number exists, empty at first.
   */
  pullRequests?: PullRequestSeed[];
  faults?: FaultRule[];
  /**
   * Pull requests as the pulls endpoints show them (read live: `setScenario` may change them). The
   * commit's pulls list only those whose head is in the base repository, as GitHub answers [] for
   * a commit that exists only in a fork. Default: SAMPLE_PULL_REQUEST, open at its head, the pull
   * request of `pullRequestEnv`.
   */
  pulls?: SimPull[];
  /**
   * The repositories' commits (read live, as `pulls`). When set, a repository's commits are those
   * listed here, the parents they name (a parent not listed is a root) and its branches' heads;
   * another sha -> 422 (getCommit) or 404 (compare). When absent, every 40-hex sha is a commit
   * without parents, so a test that needs no history need not describe one.
   */
  commits?: SimCommit[];
  /** Branches and their heads (read live): a ref names one as `main`, `heads/main` or `refs/heads/main`. */
  branches?: SimBranch[];
  /**
   * The GitHub App the token belongs to (default GITHUB_ACTIONS_APP): the app of the check runs it
   * creates, and the only one whose check runs it may update.
   */
  app?: SimApp;
  /**
   * The token's checks permission (default 'write'): 'read' -> createCheckRun and updateCheckRun
   * answer 403 'Resource not accessible by integration'; 'none' -> listCheckRunsForRef too.
   * `readOnly` is the comments' permission: it does not touch this one.
   */
  checks?: 'write' | 'read' | 'none';
  /** Check runs seeded when the simulator starts (`setScenario` does not seed them again). */
  checkRuns?: SeedCheckRun[];
  /**
   * The repositories' workflow runs (read live, as `pulls`), of every workflow: a workflow exists
   * when a run names its file. Default none.
   */
  workflowRuns?: SimWorkflowRun[];
  /** The token's actions permission (default 'read'): 'none' -> listWorkflowRuns answers 403. */
  actions?: 'read' | 'none';
}

/** A run of a workflow of octo/shop, as listWorkflowRuns lists it. */
export interface SimWorkflowRun {
  owner: string;
  repo: string;
  /** The workflow's file in .github/workflows, e.g. 'e2e.yml'. */
  workflow: string;
  /** Default FIRST_WORKFLOW_RUN_ID + the run's index in `workflowRuns`. */
  id?: number;
  headSha: string;
  headBranch: string;
  /** What triggered it: 'push', 'schedule', 'workflow_dispatch', 'merge_group', 'pull_request', ... */
  event: string;
  /** Default 'completed'. */
  status?: WorkflowRunStatus;
  /** Default 'success' when completed, else null. */
  conclusion?: WorkflowRunConclusion | null;
  /** ISO time; default WORKFLOW_RUNS_FROM plus a minute for each run before it in `workflowRuns`. */
  createdAt?: string;
  /** Default 1; 2 and more for a re-run. */
  runAttempt?: number;
}

/** A commit of octo/shop: its parents, first parent first (a merge has two or more). */
export interface SimCommit {
  owner: string;
  repo: string;
  sha: string;
  parents: string[];
  /** Default 'Commit <first 7 hex digits>'. */
  message?: string;
}

/** A branch of octo/shop and the commit at its head. */
export interface SimBranch {
  owner: string;
  repo: string;
  name: string;
  sha: string;
}

/** A pull request of the pulls endpoints: octo/shop#7 from `head` (`owner/repo`, default the base). */
export interface SimPull {
  owner: string;
  repo: string;
  number: number;
  headSha: string;
  headRef: string;
  /** `owner/repo` of the head; default the base repository (not a fork). */
  head?: string;
  /** Default 'open'. */
  state?: 'open' | 'closed';
  /** The base branch; default 'main'. */
  baseRef?: string;
  /** The base's sha; default the head of `baseRef` in `branches`, else DEFAULT_BASE_SHA. */
  baseSha?: string;
}

/** The operations of the check run and of the base branch's results, beside those of the comment. */
const CHECK_RUN_OPERATIONS: readonly (Operation | 'unknown')[] = [
  'getApp',
  'getCommit',
  'getGitCommit',
  'compare',
  'listCheckRunsForRef',
  'createCheckRun',
  'updateCheckRun',
  'listWorkflowRuns',
];

export const DEFAULT_TOKEN = 'ghs_test-token';

/** The installation the token belongs to, as a rate limit's message names it. */
export const INSTALLATION_ID = 52_000_001;

/** The user GITHUB_TOKEN acts as (its real id). */
export const GITHUB_ACTIONS_BOT: SimUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

export const HUMAN_USER: SimUser = { login: 'octocat', id: 583231, type: 'User' };

/** The app GITHUB_TOKEN belongs to, with GitHub.com's values (permissions and events abridged). */
export const GITHUB_ACTIONS_APP: SimApp = {
  id: 15368,
  slug: 'github-actions',
  name: 'GitHub Actions',
  owner: { login: 'github', id: 9919, type: 'Organization' },
  description: 'Automate your workflow from idea to production',
  externalUrl: 'https://help.github.com/en/actions',
  createdAt: '2018-07-30T09:30:17Z',
  updatedAt: '2024-04-10T20:33:16Z',
  permissions: {
    actions: 'write',
    checks: 'write',
    contents: 'write',
    issues: 'write',
    metadata: 'read',
    pull_requests: 'write',
    statuses: 'write',
  },
  events: ['check_run', 'check_suite', 'issue_comment', 'pull_request', 'push', 'workflow_run'],
};

/** Another app writing check runs on the same commits: its runs are not GITHUB_TOKEN's to update. */
export const OTHER_APP: SimApp = {
  id: 9426,
  slug: 'some-ci',
  name: 'Some CI',
  owner: { login: 'some-ci-org', id: 7_700_001, type: 'Organization' },
  description: 'A CI service of its own',
  externalUrl: 'https://ci.example.com',
};

/** An app's created_at when its SimApp gives none. */
export const APP_CREATED_AT = '2020-01-01T00:00:00Z';

export const MAX_BODY_LENGTH = 65536;

/** A check run's output.summary and output.text: at most this many characters, and as many UTF-8 bytes. */
export const MAX_CHECK_OUTPUT_LENGTH = 65535;

/** A pull request's base sha when neither the pull nor the scenario's branches give one. */
export const DEFAULT_BASE_SHA = 'b'.repeat(40);

const DOCS = {
  rest: 'https://docs.github.com/rest',
  listComments: 'https://docs.github.com/rest/issues/comments#list-issue-comments',
  createComment: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
  updateComment: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment',
  getPull: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request',
  listPulls: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests',
  commitPulls: 'https://docs.github.com/rest/commits/commits#list-pull-requests-associated-with-a-commit',
  getCommit: 'https://docs.github.com/rest/commits/commits#get-a-commit',
  getGitCommit: 'https://docs.github.com/rest/git/commits#get-a-commit-object',
  compare: 'https://docs.github.com/rest/commits/commits#compare-two-commits',
  createCheckRun: 'https://docs.github.com/rest/checks/runs#create-a-check-run',
  updateCheckRun: 'https://docs.github.com/rest/checks/runs#update-a-check-run',
  listCheckRunsForRef: 'https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference',
  getApp: 'https://docs.github.com/rest/apps/apps#get-an-app',
  listWorkflowRuns: 'https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow',
  deleteComment: 'https://docs.github.com/rest/issues/comments#delete-an-issue-comment',
  primaryRateLimit: 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api',
  secondaryRateLimit:
    'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits',
} as const;

/** GitHub's error body: {message, documentation_url, status} (status as a string, as GitHub sends it). */
function githubError(status: number, message: string, documentationUrl: string = DOCS.rest) {
  return { message, documentation_url: documentationUrl, status: String(status) };
}

/** Every simulated commit's author and committer date. */
const COMMIT_DATE = '2024-05-01T12:00:00Z';

/** Every simulated commit's author and committer. */
const COMMIT_PERSON = {
  name: HUMAN_USER.login,
  email: `${HUMAN_USER.id}+${HUMAN_USER.login}@users.noreply.github.com`,
};

/** Every simulated commit's signature: none. */
const UNSIGNED = { verified: false, reason: 'unsigned', payload: null, signature: null, verified_at: null };

/** A simulated commit's tree: a stable made-up sha. */
function treeSha(sha: string): string {
  return createHash('sha1').update(`tree of ${sha}`).digest('hex');
}

// Above 2^31, as GitHub's comment ids are now: a client that stores them in an int32 breaks here too.
const FIRST_COMMENT_ID = 2_400_000_001;
const FIRST_REPOSITORY_ID = 700_000_001;
// Check runs and suites: above 2^32 too, as GitHub's are now.
const FIRST_CHECK_RUN_ID = 30_000_000_001;
const FIRST_CHECK_SUITE_ID = 20_000_000_001;
/** A workflow run's id when its SimWorkflowRun gives none: this plus its index in `workflowRuns`. */
export const FIRST_WORKFLOW_RUN_ID = 10_000_000_001;
/** A workflow run's check suite: made up, this plus the run's id. */
const WORKFLOW_RUN_SUITE_OFFSET = 15_000_000_000;
/** The first workflow run's created_at when its SimWorkflowRun gives none; each next one a minute later. */
export const WORKFLOW_RUNS_FROM = '2024-05-01T12:00:00Z';
/** The id of a repository's owner, as the workflow runs' repository shows it. */
const REPOSITORY_OWNER_ID = 9919;

interface StoredComment {
  id: number;
  issue: number;
  body: string;
  user: SimUser;
  authorAssociation: AuthorAssociation;
  createdAt: string;
  updatedAt: string;
}

interface StoredCheckRun {
  id: number;
  headSha: string;
  name: string;
  app: SimApp;
  suiteId: number;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  startedAt: string | null;
  completedAt: string | null;
  /** null: none given (GitHub then shows the app's homepage). */
  detailsUrl: string | null;
  externalId: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
}

interface Repository {
  id: number;
  owner: string;
  repo: string;
  /** Issue number -> comments in ascending id order. */
  issues: Map<number, StoredComment[]>;
  /** In ascending id order. */
  checkRuns: StoredCheckRun[];
}

type RepoRef = { owner: string; repo: string } | { id: number };

interface Route {
  operation: Operation;
  repo: RepoRef;
  /** Issue number (list, create), comment id (update, delete) or pull request number (getPull). */
  number: number;
  /** commitPulls: the commit. */
  sha?: string;
  /** getCommit: the ref as the path names it (decoded); getGitCommit: the sha; compare: the base. */
  ref?: string;
  /** compare: the head. */
  head?: string;
  /** getApp: the app's slug. */
  slug?: string;
  /** listWorkflowRuns: the workflow's file name or id. */
  workflow?: string;
}

export class GitHubSimulator extends JsonServer<Operation> {
  /** Base URL to give Octokit (`baseUrl`) or the action (`GITHUB_API_URL`): origin + prefix. */
  readonly url: string;

  private scenario: Scenario;
  /** Keyed by lower-case 'owner/repo'. */
  private readonly repositories = new Map<string, Repository>();
  private nextCommentId = FIRST_COMMENT_ID;
  private nextRepositoryId = FIRST_REPOSITORY_ID;
  private nextCheckRunId = FIRST_CHECK_RUN_ID;
  private nextCheckSuiteId = FIRST_CHECK_SUITE_ID;
  /** 'repository id:sha:app id' -> the check suite holding that app's runs on that commit. */
  private readonly checkSuites = new Map<string, number>();
  private nextRequestId = 1;
  private lastStamp = 0;

  private constructor(server: Server, scenario: Scenario, options: StartOptions) {
    super(server, options.clock);
    this.scenario = scenario;
    this.url = this.origin + normalisePrefix(scenario.prefix);
    for (const pr of scenario.pullRequests ?? []) {
      this.seedComments(pr.owner, pr.repo, pr.number, pr.comments ?? []);
    }
    for (const run of scenario.checkRuns ?? []) this.seedCheckRun(run);
  }

  static async start(scenario: Scenario = {}, options: StartOptions = {}): Promise<GitHubSimulator> {
    return new GitHubSimulator(await listeningServer(options), scenario, options);
  }

  /** The operations requested, in order, but those of the check run and of the base branch's results. */
  commentCalls(): (Operation | 'unknown')[] {
    return this.requests
      .map((request) => request.operation)
      .filter((operation) => !CHECK_RUN_OPERATIONS.includes(operation));
  }

  /** Replaces the scenario. Comments, check runs and request counts stay; nothing is seeded again. */
  setScenario(scenario: Scenario): void {
    this.scenario = scenario;
  }

  /** Adds comments to a pull request (creating it if needed) and returns them as the API shows them. */
  seedComments(owner: string, repo: string, issue: number, seeds: SeedComment[]): IssueComment[] {
    const repository = this.repository(owner, repo, true);
    const list = issueComments(repository, issue, true);
    const now = githubTime(this.clock.now());
    const added = seeds.map((seed) => {
      const user = seed.user ?? GITHUB_ACTIONS_BOT;
      const createdAt = seed.createdAt ?? now;
      const comment: StoredComment = {
        id: this.nextCommentId++,
        issue,
        body: seed.body,
        user,
        authorAssociation: seed.authorAssociation ?? defaultAssociation(user),
        createdAt,
        updatedAt: seed.updatedAt ?? createdAt,
      };
      list.push(comment);
      return comment;
    });
    this.lastStamp = Math.max(this.lastStamp, Date.parse(now));
    return added.map((c) => this.render(repository, c));
  }

  /** The current comments of a pull request in ascending id order, as the API shows them ([] when none). */
  comments(owner: string, repo: string, issue: number): IssueComment[] {
    const repository = this.repository(owner, repo, false);
    if (!repository) return [];
    return (repository.issues.get(issue) ?? []).map((c) => this.render(repository, c));
  }

  /** Adds a check run (creating the repository if needed) and returns it as the API shows it. */
  seedCheckRun(seed: SeedCheckRun): CheckRun {
    const repository = this.repository(seed.owner, seed.repo, true);
    const now = githubTime(this.clock.now());
    const run = this.newCheckRun(repository, seed.headSha.toLowerCase(), seed.app ?? GITHUB_ACTIONS_APP, now);
    const status = seed.conclusion !== undefined ? 'completed' : (seed.status ?? 'completed');
    Object.assign(run, {
      name: seed.name,
      status,
      conclusion: status === 'completed' ? (seed.conclusion ?? 'success') : null,
      startedAt: seed.startedAt ?? now,
      completedAt: status === 'completed' ? (seed.completedAt ?? now) : null,
      detailsUrl: seed.detailsUrl ?? null,
      externalId: seed.externalId ?? null,
      output: {
        title: seed.output?.title ?? null,
        summary: seed.output?.summary ?? null,
        text: seed.output?.text ?? null,
      },
    } satisfies Partial<StoredCheckRun>);
    return this.renderCheckRun(repository, run);
  }

  /**
   * A repository's check runs as the API shows them, newest first as listCheckRunsForRef lists them
   * with filter=all; only those on `headSha` when given. [] when none.
   */
  checkRuns(owner: string, repo: string, headSha?: string): CheckRun[] {
    const repository = this.repository(owner, repo, false);
    if (!repository) return [];
    return repository.checkRuns
      .filter((run) => headSha === undefined || run.headSha === headSha.toLowerCase())
      .sort((a, b) => b.id - a.id)
      .map((run) => this.renderCheckRun(repository, run));
  }

  /** The repository's numeric id, used in Link headers (`/repositories/{id}/...`); creates the repository. */
  repositoryId(owner: string, repo: string): number {
    return this.repository(owner, repo, true).id;
  }

  // ---- request handling ----

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const route = this.route(req.method ?? 'GET', path);
    const { n, body } = await this.receive(req, route?.operation ?? 'unknown');
    if (this.stopped) return;

    if (!route) {
      this.send(res, { status: 404, body: githubError(404, 'Not Found') });
      return;
    }

    const fault = faultFor(this.scenario.faults, route.operation, n);
    switch (fault?.kind) {
      case undefined:
        this.send(res, this.answer(route, req, path, body));
        return;
      case 'status':
        this.send(res, faultReply(fault.status, fault.body, fault.retryAfter, fault.rateLimitReset));
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        return; // the socket stays open until the client gives up or stop() destroys it
      case 'delay':
        this.later(fault.ms, () => this.send(res, this.answer(route, req, path, body)));
        return;
      case 'status-after-effect':
        this.answer(route, req, path, body);
        this.send(res, faultReply(fault.status, fault.body));
        return;
      case 'reset-after-effect':
        this.answer(route, req, path, body);
        req.socket.destroy();
        return;
      case 'deleted':
        this.remove(route);
        this.send(res, this.answer(route, req, path, body));
        return;
      case 'endless':
        streamForever(res, '[{"id": 1, "html_url": "https://github.com/", "body": "');
        return;
      case 'text':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fault.text);
        return;
      case 'link': {
        const reply = this.answer(route, req, path, body);
        this.send(res, { ...reply, headers: { ...reply.headers, link: `<${fault.next}>; rel="next"` } });
        return;
      }
      case 'redirect':
        this.send(res, { status: fault.status, body: {}, headers: { location: fault.location } });
        return;
      case 'rate-limit':
        if (fault.afterEffect) this.answer(route, req, path, body);
        this.send(res, this.rateLimitReply(fault));
        return;
    }
  }

  /** Sends with an x-github-request-id (the reply's own, if it has one). */
  private send(res: ServerResponse, reply: Reply): void {
    const id = reply.headers?.['x-github-request-id'] ?? this.requestId();
    send(res, { ...reply, headers: { ...reply.headers, 'x-github-request-id': id } });
  }

  private requestId(): string {
    return `SIM:${this.nextRequestId++}`;
  }

  /** A rate limit's answer, as GitHub words it; its message names its request id, as GitHub's does. */
  private rateLimitReply(fault: Extract<Fault, { kind: 'rate-limit' }>): Reply {
    const status = fault.status ?? 403;
    const id = this.requestId();
    const support = `If you reach out to GitHub Support for help, please include the request ID ${id}.`;
    if (fault.limit === 'secondary') {
      const message = `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. ${support}`;
      const headers: Record<string, string> = { 'x-github-request-id': id };
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      return { status, body: githubError(status, message, DOCS.secondaryRateLimit), headers };
    }
    const reset = fault.reset ?? Math.floor(this.clock.now() / 1000) + 3600;
    const message = `API rate limit exceeded for installation ID ${INSTALLATION_ID}. ${support}`;
    return {
      status,
      body: githubError(status, message, DOCS.primaryRateLimit),
      headers: {
        'x-github-request-id': id,
        'x-ratelimit-limit': '1000',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-used': '1000',
        'x-ratelimit-reset': String(reset),
        'x-ratelimit-resource': 'core',
      },
    };
  }

  /** Deletes the comment (or check run) an update route names, as someone on the web page would. */
  private remove(route: Route): void {
    for (const repository of this.repositories.values()) {
      for (const list of [...repository.issues.values(), repository.checkRuns]) {
        const index = list.findIndex((each) => each.id === route.number);
        if (index >= 0) list.splice(index, 1);
      }
    }
  }

  /** GraphQL's path: /graphql, or /api/graphql beside GitHub Enterprise's /api/v3. */
  private graphqlPath(): string {
    const prefix = normalisePrefix(this.scenario.prefix);
    return prefix.endsWith('/v3') ? `${prefix.slice(0, -'/v3'.length)}/graphql` : `${prefix}/graphql`;
  }

  private route(method: string, rawPath: string): Route | undefined {
    const pathOnly = rawPath.split('?')[0] ?? '';
    if (method === 'POST' && pathOnly === this.graphqlPath()) {
      return { operation: 'graphql', repo: { id: 0 }, number: 0 };
    }
    const prefix = normalisePrefix(this.scenario.prefix);
    if (!pathOnly.startsWith(`${prefix}/`)) return undefined;
    const segments = pathOnly.slice(prefix.length + 1).split('/');
    if (segments.some((s) => s === '')) return undefined;
    let params: string[];
    try {
      params = segments.map((s) => decodeURIComponent(s));
    } catch {
      return undefined;
    }
    if (method === 'GET' && params[0] === 'apps' && params.length === 2) {
      return { operation: 'getApp', repo: { id: 0 }, number: 0, slug: params[1] };
    }
    // /repos/{owner}/{repo}/rest... or /repositories/{id}/rest...
    let repo: RepoRef;
    let rest: string[];
    if (params[0] === 'repos' && params.length >= 3) {
      repo = { owner: params[1] as string, repo: params[2] as string };
      rest = params.slice(3);
    } else if (params[0] === 'repositories' && params.length >= 2 && isId(params[1])) {
      repo = { id: Number(params[1]) };
      rest = params.slice(2);
    } else {
      return undefined;
    }
    const pulls = method === 'GET' ? pullsRoute(rest) : undefined;
    if (pulls) return { ...pulls, repo };
    const [actions, workflows, workflow, runs, ...deeper] = rest;
    if (method === 'GET' && actions === 'actions' && workflows === 'workflows' && runs === 'runs') {
      return deeper.length === 0 ? { operation: 'listWorkflowRuns', repo, number: 0, workflow } : undefined;
    }
    const commits = commitsRoute(method, rest);
    if (commits) return { ...commits, repo };
    const [issues, a, b, ...more] = rest;
    if (issues !== 'issues' || more.length > 0) return undefined;
    if (isId(a) && b === 'comments') {
      if (method === 'GET') return { operation: 'listComments', repo, number: Number(a) };
      if (method === 'POST') return { operation: 'createComment', repo, number: Number(a) };
    }
    if (a === 'comments' && isId(b) && method === 'PATCH') {
      return { operation: 'updateComment', repo, number: Number(b) };
    }
    if (a === 'comments' && isId(b) && method === 'DELETE') {
      return { operation: 'deleteComment', repo, number: Number(b) };
    }
    return undefined;
  }

  /** undefined when the request carries the scenario's token, else the 401 to answer. */
  private unauthorised(req: IncomingMessage): Reply | undefined {
    const header = req.headers.authorization;
    if (header === undefined) return { status: 401, body: githubError(401, 'Requires authentication') };
    const match = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(header);
    if (match?.[1] === (this.scenario.token ?? DEFAULT_TOKEN)) return undefined;
    return { status: 401, body: githubError(401, 'Bad credentials') };
  }

  private answer(route: Route, req: IncomingMessage, path: string, body: ParsedBody): Reply {
    // A public app answers without a token; a wrong one still gets 401.
    const anonymous = route.operation === 'getApp' && req.headers.authorization === undefined;
    const denied = anonymous ? undefined : this.unauthorised(req);
    if (denied) return denied;
    if (route.operation === 'graphql') return this.graphql(body);
    const docs = DOCS[route.operation];
    const notFound: Reply = { status: 404, body: githubError(404, 'Not Found', docs) };
    if (route.operation === 'getApp') {
      const app = this.apps().find((each) => each.slug === route.slug?.toLowerCase());
      return app ? { status: 200, body: renderApp(app) } : notFound;
    }
    // With `pullRequests`, the repositories are those it, `commits`, `branches` or a check run names.
    const strict = this.scenario.pullRequests !== undefined;
    const ref = route.repo;
    const repository =
      'id' in ref
        ? [...this.repositories.values()].find((r) => r.id === ref.id)
        : this.repository(ref.owner, ref.repo, !strict || this.inGraph(ref.owner, ref.repo));
    if (!repository) return notFound;
    if (
      route.operation === 'getPull' ||
      route.operation === 'listPulls' ||
      route.operation === 'commitPulls'
    ) {
      return this.pullsAnswer(route, repository, path) ?? notFound;
    }
    if (route.operation === 'getCommit' || route.operation === 'compare') {
      return this.commitsAnswer(route, repository, docs);
    }
    if (route.operation === 'listWorkflowRuns') return this.workflowRunsAnswer(route, repository, path, docs);
    if (route.operation === 'getGitCommit') {
      // An object id, not a ref: a branch or a prefix is not found, nor is an unknown sha.
      const graph = new CommitGraph(this.scenario, repository);
      const sha = /^[0-9a-f]{40}$/i.test(route.ref ?? '') ? graph.resolve(route.ref ?? '') : undefined;
      return sha ? { status: 200, body: this.renderGitCommit(repository, graph, sha) } : notFound;
    }
    if (
      route.operation === 'createCheckRun' ||
      route.operation === 'updateCheckRun' ||
      route.operation === 'listCheckRunsForRef'
    ) {
      return this.checksAnswer(route, repository, path, body, docs);
    }

    if (route.operation === 'updateComment') {
      const comment = findComment(repository, route.number);
      if (!comment) return notFound;
      const text = this.validBody(body, docs);
      if (typeof text !== 'string') return text;
      comment.body = text;
      comment.updatedAt = this.stamp();
      return { status: 200, body: this.render(repository, comment) };
    }

    if (route.operation === 'deleteComment') return this.deleteAnswer(repository, route.number, docs);

    const list = issueComments(repository, route.number, !strict);
    if (!list) return notFound;

    if (route.operation === 'listComments') return this.listPage(repository, route.number, list, path);

    const text = this.validBody(body, docs);
    if (typeof text !== 'string') return text;
    const user = this.scenario.user ?? GITHUB_ACTIONS_BOT;
    const createdAt = this.stamp();
    const comment: StoredComment = {
      id: this.nextCommentId++,
      issue: route.number,
      body: text,
      user,
      authorAssociation: defaultAssociation(user),
      createdAt,
      updatedAt: createdAt,
    };
    list.push(comment);
    return {
      status: 201,
      body: this.render(repository, comment),
      headers: { location: commentUrl(this.url, repository, comment.id) },
    };
  }

  /** 204 with no body; 404 for a comment that is not there (deleted already), 403 for a read-only token. */
  private deleteAnswer(repository: Repository, id: number, docs: string): Reply {
    const comment = findComment(repository, id);
    if (!comment) return { status: 404, body: githubError(404, 'Not Found', docs) };
    if (this.scenario.readOnly) {
      return { status: 403, body: githubError(403, 'Resource not accessible by integration', docs) };
    }
    const list = repository.issues.get(comment.issue) ?? [];
    list.splice(list.indexOf(comment), 1);
    return { status: 204, body: undefined };
  }

  /** GraphQL: the viewer, and nothing else. */
  private graphql(body: ParsedBody): Reply {
    const query = isObject(body.value) && typeof body.value.query === 'string' ? body.value.query : '';
    if (!/\bviewer\s*\{/.test(query)) {
      return { status: 200, body: { errors: [{ message: 'The simulator answers the viewer query only.' }] } };
    }
    const user = this.scenario.user ?? GITHUB_ACTIONS_BOT;
    return { status: 200, body: { data: { viewer: { login: user.login, databaseId: user.id } } } };
  }

  /** The comment text of a create / update, or the reply refusing it (403 read-only, 400, 422). */
  private validBody(body: ParsedBody, docs: string): string | Reply {
    if (this.scenario.readOnly) {
      return { status: 403, body: githubError(403, 'Resource not accessible by integration', docs) };
    }
    if (body.invalid) return { status: 400, body: githubError(400, 'Problems parsing JSON', docs) };
    const value = isObject(body.value) ? body.value.body : undefined;
    if (value === undefined) {
      return { status: 422, body: githubError(422, 'Invalid request.\n\n"body" wasn\'t supplied.', docs) };
    }
    if (typeof value !== 'string') {
      const shown = value === null ? 'nil' : JSON.stringify(value);
      const message = `Invalid request.\n\nFor 'properties/body', ${shown} is not a string.`;
      return { status: 422, body: githubError(422, message, docs) };
    }
    // GitHub counts characters (code points), not UTF-16 units.
    if ([...value].length > MAX_BODY_LENGTH) {
      return {
        status: 422,
        body: {
          message: 'Validation Failed',
          errors: [
            {
              resource: 'IssueComment',
              code: 'unprocessable',
              field: 'data',
              message: `Body is too long (maximum is ${MAX_BODY_LENGTH} characters)`,
            },
          ],
          documentation_url: docs,
          status: '422',
        },
      };
    }
    return value;
  }

  private listPage(repository: Repository, issue: number, list: StoredComment[], path: string): Reply {
    const query = new URLSearchParams(path.split('?')[1] ?? '');
    const base = `${this.url}/repositories/${repository.id}/issues/${issue}/comments`;
    return this.page(base, list, query, (c) => this.render(repository, c));
  }

  /** The pulls endpoints; undefined for a pull request that does not exist. */
  private pullsAnswer(route: Route, repository: Repository, path: string): Reply | undefined {
    const here = `${repository.owner}/${repository.repo}`.toLowerCase();
    const all: SimPull[] = this.scenario.pulls ?? [SAMPLE_PULL_REQUEST];
    const pulls = all.filter((p) => `${p.owner}/${p.repo}`.toLowerCase() === here);
    const graph = new CommitGraph(this.scenario, repository);
    const render = (pull: SimPull) =>
      renderPull(pull, this.url, pull.baseSha ?? graph.branch(pull.baseRef ?? 'main') ?? DEFAULT_BASE_SHA);
    if (route.operation === 'getPull') {
      const pull = pulls.find((p) => p.number === route.number);
      return pull && { status: 200, body: render(pull) };
    }
    if (route.operation === 'commitPulls') {
      const inBase = (p: SimPull) => (p.head ?? here).toLowerCase() === here;
      return { status: 200, body: pulls.filter((p) => p.headSha === route.sha && inBase(p)).map(render) };
    }
    // listPulls: `state` (open, closed or all; default open), `head` (`user:ref-name` or
    // `organization:ref-name`) and `base` (a base branch's name), as GitHub's description names them.
    const query = new URLSearchParams(path.split('?')[1] ?? '');
    const state = query.get('state') ?? 'open';
    const head = query.get('head')?.toLowerCase();
    const base = query.get('base');
    const matching = pulls
      .filter((p) => state === 'all' || (p.state ?? 'open') === state)
      .filter((p) => !head || `${(p.head ?? here).split('/')[0]}:${p.headRef}`.toLowerCase() === head)
      .filter((p) => !base || (p.baseRef ?? 'main') === base)
      .sort((a, b) => b.number - a.number); // GitHub's default: newest first
    return this.page(`${this.url}/repositories/${repository.id}/pulls`, matching.map(render), query);
  }

  /** True when the scenario's commits, branches or workflow runs name the repository. */
  private inGraph(owner: string, repo: string): boolean {
    const here = `${owner}/${repo}`.toLowerCase();
    const { commits = [], branches = [], workflowRuns = [] } = this.scenario;
    return [...commits, ...branches, ...workflowRuns].some(
      (each) => `${each.owner}/${each.repo}`.toLowerCase() === here,
    );
  }

  /**
   * listWorkflowRuns: one workflow's runs (by file name or id), newest first (created_at, then
   * id), filtered by branch, event, head_sha and status (a status or a conclusion), in pages.
   * Order of checks: permission (403), workflow (404).
   */
  private workflowRunsAnswer(route: Route, repository: Repository, path: string, docs: string): Reply {
    if ((this.scenario.actions ?? 'read') === 'none') {
      return { status: 403, body: githubError(403, 'Resource not accessible by integration', docs) };
    }
    const here = `${repository.owner}/${repository.repo}`.toLowerCase();
    const all = (this.scenario.workflowRuns ?? []).map((run, index) => workflowRunDefaults(run, index));
    const mine = all.filter((run) => `${run.owner}/${run.repo}`.toLowerCase() === here);
    const file = mine
      .map((run) => run.workflow)
      .find((name) => name === route.workflow || String(workflowId(repository, name)) === route.workflow);
    if (file === undefined) return { status: 404, body: githubError(404, 'Not Found', docs) };
    // Oldest first: a run's number is its place among its workflow's runs.
    const runs = mine
      .filter((run) => run.workflow === file)
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id)
      .map((run, index) => ({ ...run, runNumber: index + 1 }));
    const query = new URLSearchParams(path.split('?')[1] ?? '');
    const matches = (value: string, wanted: string | null) => wanted === null || value === wanted;
    const status = query.get('status');
    const listed = runs
      .filter((run) => matches(run.headBranch, query.get('branch')))
      .filter((run) => matches(run.event, query.get('event')))
      .filter((run) => matches(run.headSha.toLowerCase(), query.get('head_sha')?.toLowerCase() ?? null))
      .filter((run) => status === null || run.status === status || run.conclusion === status)
      .reverse();
    const id = workflowId(repository, file);
    const base = `${this.url}/repositories/${repository.id}/actions/workflows/${id}/runs`;
    const graph = new CommitGraph(this.scenario, repository);
    const reply = this.page(base, listed, query, (run) => this.renderWorkflowRun(repository, graph, run));
    return { ...reply, body: { total_count: listed.length, workflow_runs: reply.body } };
  }

  private renderWorkflowRun(
    repository: Repository,
    graph: CommitGraph,
    run: ResolvedWorkflowRun & { runNumber: number },
  ): WorkflowRun {
    const { owner, repo } = repository;
    const api = `${this.url}/repos/${owner}/${repo}`;
    const runUrl = `${api}/actions/runs/${run.id}`;
    const suiteId = WORKFLOW_RUN_SUITE_OFFSET + run.id;
    const workflow = workflowId(repository, run.workflow);
    const finished = run.status === 'completed';
    const sha = run.headSha.toLowerCase();
    const message = graph.message(sha);
    const repositoryShown = renderMinimalRepository(this.url, repository);
    return {
      id: run.id,
      name: `.github/workflows/${run.workflow}`,
      node_id: `WFR_kwLO${Buffer.from(`${repository.id}:${run.id}`).toString('base64url')}`,
      check_suite_id: suiteId,
      check_suite_node_id: `CS_kwDO${Buffer.from(`${repository.id}:${suiteId}`).toString('base64url')}`,
      head_branch: run.headBranch,
      head_sha: sha,
      path: `.github/workflows/${run.workflow}`,
      run_number: run.runNumber,
      run_attempt: run.runAttempt,
      referenced_workflows: [],
      event: run.event,
      status: run.status,
      conclusion: run.conclusion,
      workflow_id: workflow,
      url: runUrl,
      html_url: `https://github.com/${owner}/${repo}/actions/runs/${run.id}`,
      pull_requests: [],
      created_at: run.createdAt,
      // A finished run took five minutes.
      updated_at: finished ? githubTime(Date.parse(run.createdAt) + 5 * 60_000) : run.createdAt,
      actor: renderUser(HUMAN_USER),
      triggering_actor: renderUser(HUMAN_USER),
      run_started_at: run.createdAt,
      jobs_url: `${runUrl}/jobs`,
      logs_url: `${runUrl}/logs`,
      check_suite_url: `${api}/check-suites/${suiteId}`,
      artifacts_url: `${runUrl}/artifacts`,
      cancel_url: `${runUrl}/cancel`,
      rerun_url: `${runUrl}/rerun`,
      previous_attempt_url: run.runAttempt > 1 ? `${runUrl}/attempts/${run.runAttempt - 1}` : null,
      workflow_url: `${api}/actions/workflows/${workflow}`,
      head_commit: {
        id: sha,
        tree_id: treeSha(sha),
        message,
        timestamp: COMMIT_DATE,
        author: COMMIT_PERSON,
        committer: COMMIT_PERSON,
      },
      repository: repositoryShown,
      head_repository: repositoryShown,
      head_repository_id: repository.id,
      display_title: message.split('\n')[0] ?? message,
    };
  }

  /** The apps getApp knows: GitHub Actions, OTHER_APP, the scenario's and those of the check runs. */
  private apps(): SimApp[] {
    const runs = [...this.repositories.values()].flatMap((r) => r.checkRuns.map((run) => run.app));
    return [this.scenario.app, GITHUB_ACTIONS_APP, OTHER_APP, ...runs].filter(
      (app): app is SimApp => app !== undefined,
    );
  }

  /**
   * The check-run endpoints. Order of checks: check run lookup (404), permission (403), another
   * app's check run (403), body (400 / 422), head commit (422), output's bytes (422).
   */
  private checksAnswer(
    route: Route,
    repository: Repository,
    path: string,
    body: ParsedBody,
    docs: string,
  ): Reply {
    const permission = this.scenario.checks ?? 'write';
    const forbidden: Reply = {
      status: 403,
      body: githubError(403, 'Resource not accessible by integration', docs),
    };
    const graph = new CommitGraph(this.scenario, repository);
    const noCommit = (sha: string): Reply => ({
      status: 422,
      body: githubError(422, `No commit found for SHA: ${sha}`, docs),
    });

    if (route.operation === 'listCheckRunsForRef') {
      if (permission === 'none') return forbidden;
      const sha = graph.resolve(route.ref ?? '');
      if (!sha) return noCommit(route.ref ?? '');
      return this.checkRunsPage(repository, sha, route.ref ?? '', path);
    }

    const app = this.scenario.app ?? GITHUB_ACTIONS_APP;
    const updating = route.operation === 'updateCheckRun';
    const existing = updating ? repository.checkRuns.find((run) => run.id === route.number) : undefined;
    if (updating && !existing) return { status: 404, body: githubError(404, 'Not Found', docs) };
    if (permission !== 'write') return forbidden;
    if (existing && existing.app.id !== app.id) {
      const message = `Invalid app_id \`${existing.app.id}\` - check run can only be modified by the GitHub App that created it.`;
      return { status: 403, body: githubError(403, message, docs) };
    }
    const parsed = checkRunInput(body, !updating, docs);
    if ('reply' in parsed) return parsed.reply;
    const { input } = parsed;
    const headSha = input.headSha ?? '';
    const sha = existing?.headSha ?? (/^[0-9a-f]{40}$/i.test(headSha) ? graph.resolve(headSha) : undefined);
    if (!sha) return noCommit(headSha);
    const tooBig = outputBytesError(input, docs);
    if (tooBig) return tooBig;
    const now = githubTime(this.clock.now());
    const run = existing ?? this.newCheckRun(repository, sha, app, now);
    applyCheckRunInput(run, input, now);
    return { status: existing ? 200 : 201, body: this.renderCheckRun(repository, run) };
  }

  /** listCheckRunsForRef's page: filter=latest keeps the newest run per name and app, before `status` filters. */
  private checkRunsPage(repository: Repository, sha: string, ref: string, path: string): Reply {
    const query = new URLSearchParams(path.split('?')[1] ?? '');
    const name = query.get('check_name');
    const appId = query.get('app_id');
    const status = query.get('status');
    let runs = repository.checkRuns
      .filter((run) => run.headSha === sha)
      .filter((run) => name === null || run.name === name)
      .filter((run) => appId === null || String(run.app.id) === appId)
      .sort((a, b) => b.id - a.id);
    if (query.get('filter') !== 'all') {
      const seen = new Set<string>();
      runs = runs.filter((run) => {
        const key = `${run.app.id}:${run.name}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    runs = runs.filter((run) => status === null || run.status === status);
    const base = `${this.url}/repositories/${repository.id}/commits/${encodeURIComponent(ref)}/check-runs`;
    const reply = this.page(base, runs, query, (run) => this.renderCheckRun(repository, run));
    return { ...reply, body: { total_count: runs.length, check_runs: reply.body } };
  }

  /** A new queued check run, started now, added to the repository (its other fields are the caller's). */
  private newCheckRun(repository: Repository, headSha: string, app: SimApp, now: string): StoredCheckRun {
    const run: StoredCheckRun = {
      id: this.nextCheckRunId++,
      headSha,
      name: '',
      app,
      suiteId: this.checkSuiteId(repository, headSha, app),
      status: 'queued',
      conclusion: null,
      startedAt: now,
      completedAt: null,
      detailsUrl: null,
      externalId: null,
      output: { title: null, summary: null, text: null },
    };
    repository.checkRuns.push(run);
    return run;
  }

  /** The check suite of an app's runs on a commit (one per app and commit, as for an app's API-made runs). */
  private checkSuiteId(repository: Repository, sha: string, app: SimApp): number {
    const key = `${repository.id}:${sha}:${app.id}`;
    let id = this.checkSuites.get(key);
    if (id === undefined) {
      id = this.nextCheckSuiteId++;
      this.checkSuites.set(key, id);
    }
    return id;
  }

  private renderCheckRun(repository: Repository, run: StoredCheckRun): CheckRun {
    const { owner, repo } = repository;
    const api = `${this.url}/repos/${owner}/${repo}`;
    return {
      id: run.id,
      head_sha: run.headSha,
      node_id: `CR_kwDO${Buffer.from(`${repository.id}:${run.id}`).toString('base64url')}`,
      external_id: run.externalId ?? '',
      url: `${api}/check-runs/${run.id}`,
      html_url: `https://github.com/${owner}/${repo}/runs/${run.id}`,
      details_url: run.detailsUrl ?? appHomepage(run.app),
      status: run.status,
      conclusion: run.conclusion,
      started_at: run.startedAt,
      completed_at: run.completedAt,
      output: {
        ...run.output,
        annotations_count: 0,
        annotations_url: `${api}/check-runs/${run.id}/annotations`,
      },
      name: run.name,
      check_suite: { id: run.suiteId },
      app: renderApp(run.app),
      pull_requests: [],
    };
  }

  /** getCommit and compare, over the scenario's commits and branches as they are now. */
  private commitsAnswer(route: Route, repository: Repository, docs: string): Reply {
    const graph = new CommitGraph(this.scenario, repository);
    const base = graph.resolve(route.ref ?? '');
    if (route.operation === 'getCommit') {
      // GitHub says SHA whatever the ref named (a branch too).
      if (!base)
        return { status: 422, body: githubError(422, `No commit found for SHA: ${route.ref}`, docs) };
      const commit: Commit = {
        ...this.renderCommit(repository, graph, base),
        stats: { total: 0, additions: 0, deletions: 0 },
        files: [],
      };
      return { status: 200, body: commit };
    }
    const head = graph.resolve(route.head ?? '');
    if (!base || !head) return { status: 404, body: githubError(404, 'Not Found', docs) };
    const mergeBase = graph.mergeBase(base, head);
    if (!mergeBase) {
      const message = `No common ancestor between ${route.ref} and ${route.head}.`;
      return { status: 404, body: githubError(404, message, docs) };
    }
    const ahead = graph.only(head, base);
    const behindBy = graph.only(base, head).length;
    const status =
      ahead.length === 0 ? (behindBy === 0 ? 'identical' : 'behind') : behindBy === 0 ? 'ahead' : 'diverged';
    const { owner, repo } = repository;
    const basehead = `${encodeURIComponent(route.ref ?? '')}...${encodeURIComponent(route.head ?? '')}`;
    const web = `https://github.com/${owner}/${repo}`;
    const comparison: CommitComparison = {
      url: `${this.url}/repos/${owner}/${repo}/compare/${basehead}`,
      html_url: `${web}/compare/${basehead}`,
      permalink_url: `${web}/compare/${owner}:${base.slice(0, 7)}...${owner}:${head.slice(0, 7)}`,
      diff_url: `${web}/compare/${basehead}.diff`,
      patch_url: `${web}/compare/${basehead}.patch`,
      base_commit: this.renderCommit(repository, graph, base),
      merge_base_commit: this.renderCommit(repository, graph, mergeBase),
      status,
      ahead_by: ahead.length,
      behind_by: behindBy,
      total_commits: ahead.length,
      commits: ahead.map((sha) => this.renderCommit(repository, graph, sha)),
      files: [],
    };
    return { status: 200, body: comparison };
  }

  /** A commit as the Git database shows it (getGitCommit): no files, no GitHub users, parents' git urls. */
  private renderGitCommit(repository: Repository, graph: CommitGraph, sha: string): GitCommit {
    const { owner, repo } = repository;
    const api = `${this.url}/repos/${owner}/${repo}`;
    const web = `https://github.com/${owner}/${repo}`;
    const tree = treeSha(sha);
    return {
      sha,
      node_id: `C_kwDO${Buffer.from(`${repository.id}:${sha}`).toString('base64url')}`,
      url: `${api}/git/commits/${sha}`,
      html_url: `${web}/commit/${sha}`,
      author: { ...COMMIT_PERSON, date: COMMIT_DATE },
      committer: { ...COMMIT_PERSON, date: COMMIT_DATE },
      tree: { sha: tree, url: `${api}/git/trees/${tree}` },
      message: graph.message(sha),
      parents: graph.parents(sha).map((parent) => ({
        sha: parent,
        url: `${api}/git/commits/${parent}`,
        html_url: `${web}/commit/${parent}`,
      })),
      verification: UNSIGNED,
    };
  }

  /** A commit as getCommit and compare show it (without getCommit's stats and files). */
  private renderCommit(repository: Repository, graph: CommitGraph, sha: string): Commit {
    const { owner, repo } = repository;
    const api = `${this.url}/repos/${owner}/${repo}`;
    const web = `https://github.com/${owner}/${repo}`;
    const tree = treeSha(sha);
    return {
      url: `${api}/commits/${sha}`,
      sha,
      node_id: `C_kwDO${Buffer.from(`${repository.id}:${sha}`).toString('base64url')}`,
      html_url: `${web}/commit/${sha}`,
      comments_url: `${api}/commits/${sha}/comments`,
      commit: {
        url: `${api}/git/commits/${sha}`,
        author: { ...COMMIT_PERSON, date: COMMIT_DATE },
        committer: { ...COMMIT_PERSON, date: COMMIT_DATE },
        message: graph.message(sha),
        comment_count: 0,
        tree: { sha: tree, url: `${api}/git/trees/${tree}` },
        verification: UNSIGNED,
      },
      author: renderUser(HUMAN_USER),
      committer: renderUser(HUMAN_USER),
      parents: graph.parents(sha).map((parent) => ({
        sha: parent,
        url: `${api}/commits/${parent}`,
        html_url: `${web}/commit/${parent}`,
      })),
    };
  }

  /** One page of a list, with GitHub's Link header (prev, next, last, first; the query kept). */
  private page<T>(
    base: string,
    all: T[],
    query: URLSearchParams,
    render: (item: T) => unknown = (item) => item,
  ): Reply {
    const perPage = Math.min(positiveInt(query.get('per_page')) ?? 30, 100);
    const page = positiveInt(query.get('page')) ?? 1;
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const link = (p: number, rel: string) => {
      const q = new URLSearchParams(query);
      q.set('page', String(p));
      return `<${base}?${q}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(page - 1, 'prev'));
    if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
    if (page > 1) links.push(link(1, 'first'));
    const body = all.slice((page - 1) * perPage, page * perPage).map(render);
    return { status: 200, body, headers: links.length > 0 ? { link: links.join(', ') } : {} };
  }

  /** Now at GitHub's one-second resolution, and at least a second after the previous stamp. */
  private stamp(): string {
    const now = Math.floor(this.clock.now() / 1000) * 1000;
    this.lastStamp = Math.max(now, this.lastStamp + 1000);
    return githubTime(this.lastStamp);
  }

  private repository(owner: string, repo: string, create: true): Repository;
  private repository(owner: string, repo: string, create: boolean): Repository | undefined;
  private repository(owner: string, repo: string, create: boolean): Repository | undefined {
    const key = `${owner}/${repo}`.toLowerCase();
    let repository = this.repositories.get(key);
    if (!repository && create) {
      repository = { id: this.nextRepositoryId++, owner, repo, issues: new Map(), checkRuns: [] };
      this.repositories.set(key, repository);
    }
    return repository;
  }

  private render(repository: Repository, comment: StoredComment): IssueComment {
    const { owner, repo } = repository;
    const api = `${this.url}/repos/${owner}/${repo}`;
    return {
      url: commentUrl(this.url, repository, comment.id),
      html_url: `https://github.com/${owner}/${repo}/pull/${comment.issue}#issuecomment-${comment.id}`,
      issue_url: `${api}/issues/${comment.issue}`,
      id: comment.id,
      node_id: `IC_kwDO${Buffer.from(`${repository.id}:${comment.id}`).toString('base64url')}`,
      user: renderUser(comment.user),
      created_at: comment.createdAt,
      updated_at: comment.updatedAt,
      author_association: comment.authorAssociation,
      body: comment.body,
      reactions: {
        url: `${api}/issues/comments/${comment.id}/reactions`,
        total_count: 0,
        '+1': 0,
        '-1': 0,
        laugh: 0,
        hooray: 0,
        confused: 0,
        heart: 0,
        rocket: 0,
        eyes: 0,
      },
      performed_via_github_app: null,
    };
  }
}

// ---- pull_request event ----

export interface PullRequestEventOptions {
  owner: string;
  repo: string;
  number: number;
  /** Default 'opened'. */
  action?: string;
  /** Default 40 hex digits derived from the number. */
  headSha?: string;
  /** Default 'feature-{number}'. */
  headRef?: string;
  /** Default 'main'. */
  baseRef?: string;
  baseSha?: string;
  /** Author of the pull request and sender of the event; default HUMAN_USER. */
  user?: SimUser;
}

/** The pull request the end-to-end tests comment on: octo/shop#7, head feature-7 at feedface…. */
export const SAMPLE_PULL_REQUEST = {
  owner: 'octo',
  repo: 'shop',
  number: 7,
  headSha: 'feedface'.padEnd(40, '0'),
  headRef: 'feature-7',
} as const satisfies PullRequestEventOptions;

/**
 * A minimal but realistic `pull_request` webhook payload, to write to the file named by
 * GITHUB_EVENT_PATH (with GITHUB_EVENT_NAME=pull_request). The head is in the same repository.
 */
export function pullRequestEvent(options: PullRequestEventOptions) {
  const { owner, repo, number } = options;
  const user = renderUser(options.user ?? HUMAN_USER);
  const ownerUser = renderUser({ login: owner, id: 9919, type: 'User' });
  const fullName = `${owner}/${repo}`;
  const repository = {
    id: FIRST_REPOSITORY_ID,
    node_id: 'R_kgDOSimRepo',
    name: repo,
    full_name: fullName,
    private: false,
    owner: ownerUser,
    html_url: `https://github.com/${fullName}`,
    url: `https://api.github.com/repos/${fullName}`,
    default_branch: options.baseRef ?? 'main',
  };
  const sha = (seed: string) => seed.padEnd(40, '0').slice(0, 40);
  const head = {
    label: `${owner}:${options.headRef ?? `feature-${number}`}`,
    ref: options.headRef ?? `feature-${number}`,
    sha: options.headSha ?? sha(`a${number}`),
    user: ownerUser,
    repo: repository,
  };
  const base = {
    label: `${owner}:${options.baseRef ?? 'main'}`,
    ref: options.baseRef ?? 'main',
    sha: options.baseSha ?? sha(`b${number}`),
    user: ownerUser,
    repo: repository,
  };
  return {
    action: options.action ?? 'opened',
    number,
    pull_request: {
      url: `https://api.github.com/repos/${fullName}/pulls/${number}`,
      id: 1_000_000 + number,
      node_id: `PR_kwDOSim${number}`,
      html_url: `https://github.com/${fullName}/pull/${number}`,
      issue_url: `https://api.github.com/repos/${fullName}/issues/${number}`,
      comments_url: `https://api.github.com/repos/${fullName}/issues/${number}/comments`,
      number,
      state: 'open',
      locked: false,
      title: `Pull request ${number}`,
      user,
      body: null,
      draft: false,
      merged: false,
      head,
      base,
    },
    repository,
    sender: user,
  };
}

// ---- helpers ----

/** A SimWorkflowRun with its defaults filled in. */
type ResolvedWorkflowRun = Required<Omit<SimWorkflowRun, 'conclusion'>> & {
  conclusion: WorkflowRunConclusion | null;
};

/** `run` with its defaults; `index` is its place in the scenario's `workflowRuns`. */
function workflowRunDefaults(run: SimWorkflowRun, index: number): ResolvedWorkflowRun {
  const status = run.status ?? 'completed';
  const createdAt = run.createdAt ?? Date.parse(WORKFLOW_RUNS_FROM) + index * 60_000;
  return {
    ...run,
    id: run.id ?? FIRST_WORKFLOW_RUN_ID + index,
    status,
    conclusion: run.conclusion !== undefined ? run.conclusion : status === 'completed' ? 'success' : null,
    createdAt: githubTime(Math.floor(new Date(createdAt).getTime() / 1000) * 1000),
    runAttempt: run.runAttempt ?? 1,
  };
}

/** A workflow's id: made up from its repository and file, the same in every simulator. */
function workflowId(repository: Repository, file: string): number {
  const key = [repository.owner.toLowerCase(), repository.repo.toLowerCase(), file].join('/');
  return 100_000_000 + Number.parseInt(createHash('sha1').update(key).digest('hex').slice(0, 6), 16);
}

/** A repository as a workflow run shows it (minimal-repository): its name, owner and API urls. */
function renderMinimalRepository(
  apiUrl: string,
  repository: Repository,
): components['schemas']['minimal-repository'] {
  const { owner, repo } = repository;
  const api = `${apiUrl}/repos/${owner}/${repo}`;
  return {
    id: repository.id,
    node_id: `R_kgDO${Buffer.from(String(repository.id)).toString('base64url')}`,
    name: repo,
    full_name: `${owner}/${repo}`,
    owner: renderUser({ login: owner, id: REPOSITORY_OWNER_ID, type: 'Organization' }),
    private: false,
    html_url: `https://github.com/${owner}/${repo}`,
    description: null,
    fork: false,
    url: api,
    archive_url: `${api}/{archive_format}{/ref}`,
    assignees_url: `${api}/assignees{/user}`,
    blobs_url: `${api}/git/blobs{/sha}`,
    branches_url: `${api}/branches{/branch}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    comments_url: `${api}/comments{/number}`,
    commits_url: `${api}/commits{/sha}`,
    compare_url: `${api}/compare/{base}...{head}`,
    contents_url: `${api}/contents/{+path}`,
    contributors_url: `${api}/contributors`,
    deployments_url: `${api}/deployments`,
    downloads_url: `${api}/downloads`,
    events_url: `${api}/events`,
    forks_url: `${api}/forks`,
    git_commits_url: `${api}/git/commits{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    hooks_url: `${api}/hooks`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    issue_events_url: `${api}/issues/events{/number}`,
    issues_url: `${api}/issues{/number}`,
    keys_url: `${api}/keys{/key_id}`,
    labels_url: `${api}/labels{/name}`,
    languages_url: `${api}/languages`,
    merges_url: `${api}/merges`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    pulls_url: `${api}/pulls{/number}`,
    releases_url: `${api}/releases{/id}`,
    stargazers_url: `${api}/stargazers`,
    statuses_url: `${api}/statuses/{sha}`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    tags_url: `${api}/tags`,
    teams_url: `${api}/teams`,
    trees_url: `${api}/git/trees{/sha}`,
  };
}

/** The pulls routes after /repos/{owner}/{repo} (GET only). */
function pullsRoute(rest: string[]): Omit<Route, 'repo'> | undefined {
  const [a, b, c, ...more] = rest;
  if (more.length > 0) return undefined;
  if (a === 'pulls' && b === undefined) return { operation: 'listPulls', number: 0 };
  if (a === 'pulls' && isId(b) && c === undefined) return { operation: 'getPull', number: Number(b) };
  if (a === 'commits' && b && /^[0-9a-f]{4,40}$/i.test(b) && c === 'pulls') {
    return { operation: 'commitPulls', number: 0, sha: b };
  }
  return undefined;
}

/** A pull request as the REST API shows it, as far as a client of the pulls endpoints reads it. */
function renderPull(pull: SimPull, apiUrl: string, baseSha: string) {
  const base = `${pull.owner}/${pull.repo}`;
  const head = pull.head ?? base;
  const repository = (fullName: string) => ({
    name: fullName.split('/')[1],
    full_name: fullName,
    owner: { login: fullName.split('/')[0] },
    fork: fullName !== base,
    url: `${apiUrl}/repos/${fullName}`,
  });
  return {
    url: `${apiUrl}/repos/${base}/pulls/${pull.number}`,
    id: 1_000_000 + pull.number,
    number: pull.number,
    state: pull.state ?? 'open',
    html_url: `https://github.com/${base}/pull/${pull.number}`,
    title: `Pull request ${pull.number}`,
    user: renderUser(HUMAN_USER),
    head: {
      label: `${head.split('/')[0]}:${pull.headRef}`,
      ref: pull.headRef,
      sha: pull.headSha,
      repo: repository(head),
    },
    base: {
      label: `${pull.owner}:${pull.baseRef ?? 'main'}`,
      ref: pull.baseRef ?? 'main',
      sha: baseSha,
      repo: repository(base),
    },
  };
}

/** The commit and check-run routes after /repos/{owner}/{repo}; a ref is one path segment, encoded. */
function commitsRoute(method: string, rest: string[]): Omit<Route, 'repo'> | undefined {
  const [a, b, c, ...more] = rest;
  if (more.length > 0) return undefined;
  if (a === 'check-runs' && c === undefined) {
    if (method === 'POST' && b === undefined) return { operation: 'createCheckRun', number: 0 };
    if (method === 'PATCH' && isId(b)) return { operation: 'updateCheckRun', number: Number(b) };
    return undefined;
  }
  if (method !== 'GET' || b === undefined) return undefined;
  if (a === 'commits' && c === 'check-runs') return { operation: 'listCheckRunsForRef', number: 0, ref: b };
  if (a === 'git' && b === 'commits' && c !== undefined)
    return { operation: 'getGitCommit', number: 0, ref: c };
  if (c !== undefined) return undefined;
  if (a === 'commits') return { operation: 'getCommit', number: 0, ref: b };
  // A branch name holds no '..' (git check-ref-format), so the first '...' splits base from head.
  const at = b.indexOf('...');
  if (a === 'compare' && at > 0 && at + 3 < b.length) {
    return { operation: 'compare', number: 0, ref: b.slice(0, at), head: b.slice(at + 3) };
  }
  return undefined;
}

/** What a create or update of a check run asks for, validated. */
interface CheckRunInput {
  name?: string;
  headSha?: string;
  status?: CheckStatus;
  conclusion?: CheckConclusion;
  startedAt?: string;
  completedAt?: string;
  detailsUrl?: string;
  externalId?: string;
  output?: { title?: string; summary: string; text?: string };
}

const CHECK_STATUSES: readonly CheckStatus[] = ['queued', 'in_progress', 'completed'];
const CHECK_CONCLUSIONS: readonly CheckConclusion[] = [
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'success',
  'skipped',
  'timed_out',
];

/**
 * A create's or update's body, or GitHub's 400 / 422 refusing it (its schema's messages). An update
 * requires nothing, and of an output only the summary.
 */
function checkRunInput(
  body: ParsedBody,
  creating: boolean,
  docs: string,
): { input: CheckRunInput } | { reply: Reply } {
  const invalid = (detail: string) => ({
    reply: { status: 422, body: githubError(422, `Invalid request.\n\n${detail}`, docs) },
  });
  const value = body.value ?? {};
  if (body.invalid || !isObject(value)) {
    return { reply: { status: 400, body: githubError(400, 'Problems parsing JSON', docs) } };
  }
  const missing = (creating ? ['name', 'head_sha'] : []).filter((key) => value[key] === undefined);
  if (missing.length > 0) return invalid(notSupplied(missing));
  const keys = [
    'name',
    'head_sha',
    'details_url',
    'external_id',
    'status',
    'started_at',
    'conclusion',
    'completed_at',
  ];
  for (const key of keys) {
    if (value[key] !== undefined && typeof value[key] !== 'string') {
      return invalid(`For 'properties/${key}', ${shown(value[key])} is not a string.`);
    }
  }
  const { status, conclusion } = value;
  if (typeof status === 'string' && !(CHECK_STATUSES as readonly string[]).includes(status)) {
    return invalid(`For 'properties/status', ${shown(status)} is not a member of ${shown(CHECK_STATUSES)}.`);
  }
  if (typeof conclusion === 'string' && !(CHECK_CONCLUSIONS as readonly string[]).includes(conclusion)) {
    return invalid(
      `For 'properties/conclusion', ${shown(conclusion)} is not a member of ${shown(CHECK_CONCLUSIONS)}.`,
    );
  }
  for (const key of ['started_at', 'completed_at']) {
    const time = value[key];
    if (typeof time === 'string' && Number.isNaN(Date.parse(time))) {
      return invalid(`For 'properties/${key}', ${shown(time)} is not a valid date-time.`);
    }
  }
  if (status === 'completed' && conclusion === undefined) {
    return invalid(
      'No subschema in "anyOf" matched.\n"conclusion" wasn\'t supplied.\n' +
        `For 'properties/status', "completed" is not a member of ${shown(['queued', 'in_progress'])}.`,
    );
  }
  const input: CheckRunInput = {
    name: value.name as string | undefined,
    headSha: value.head_sha as string | undefined,
    status: status as CheckStatus | undefined,
    conclusion: conclusion as CheckConclusion | undefined,
    startedAt: optionalTime(value.started_at),
    completedAt: optionalTime(value.completed_at),
    detailsUrl: value.details_url as string | undefined,
    externalId: value.external_id as string | undefined,
  };
  const output = value.output;
  if (output === undefined) return { input };
  if (!isObject(output)) return invalid(`For 'properties/output', ${shown(output)} is not an object.`);
  const outputMissing = (creating ? ['title', 'summary'] : ['summary']).filter(
    (key) => output[key] === undefined,
  );
  if (outputMissing.length > 0) return invalid(notSupplied(outputMissing));
  for (const key of ['title', 'summary', 'text']) {
    const text = output[key];
    if (text !== undefined && typeof text !== 'string') {
      return invalid(`For 'properties/${key}', ${shown(text)} is not a string.`);
    }
    // Characters (code points) here; the bytes are counted later, as GitHub's model does.
    const length = typeof text === 'string' && key !== 'title' ? [...text].length : 0;
    if (length > MAX_CHECK_OUTPUT_LENGTH) {
      return invalid(`Only ${MAX_CHECK_OUTPUT_LENGTH} characters are allowed; ${length} were supplied.`);
    }
  }
  input.output = {
    title: output.title as string | undefined,
    summary: output.summary as string,
    text: output.text as string | undefined,
  };
  return { input };
}

/** 422 Validation Failed when the output's summary or text is over MAX_CHECK_OUTPUT_LENGTH UTF-8 bytes. */
function outputBytesError(input: CheckRunInput, docs: string): Reply | undefined {
  const errors = (['summary', 'text'] as const)
    .filter((field) => Buffer.byteLength(input.output?.[field] ?? '', 'utf8') > MAX_CHECK_OUTPUT_LENGTH)
    .map((field) => ({
      resource: 'CheckRun',
      code: 'custom',
      field,
      message: `${field} exceeds a maximum bytesize of ${MAX_CHECK_OUTPUT_LENGTH}`,
    }));
  if (errors.length === 0) return undefined;
  return {
    status: 422,
    body: { message: 'Validation Failed', errors, documentation_url: docs, status: '422' },
  };
}

/**
 * Writes a create's or update's fields on a check run. A conclusion completes it (as GitHub: "Providing
 * conclusion will automatically set the status to completed"); another status clears the conclusion.
 * An output replaces the summary, and the title and text when it gives them.
 */
function applyCheckRunInput(run: StoredCheckRun, input: CheckRunInput, now: string): void {
  if (input.name !== undefined) run.name = input.name;
  if (input.detailsUrl !== undefined) run.detailsUrl = input.detailsUrl;
  if (input.externalId !== undefined) run.externalId = input.externalId;
  if (input.startedAt !== undefined) run.startedAt = input.startedAt;
  if (input.output) {
    run.output = {
      title: input.output.title ?? run.output.title,
      summary: input.output.summary,
      text: input.output.text ?? run.output.text,
    };
  }
  if (input.conclusion !== undefined) {
    run.status = 'completed';
    run.conclusion = input.conclusion;
    run.completedAt = input.completedAt ?? now;
  } else if (input.status !== undefined) {
    run.status = input.status; // not 'completed': that needs a conclusion, refused before
    run.conclusion = null;
    run.completedAt = null;
  } else if (input.completedAt !== undefined && run.status === 'completed') {
    run.completedAt = input.completedAt;
  }
}

/** GitHub's words for required properties that are missing. */
function notSupplied(keys: string[]): string {
  const quoted = keys.map((key) => `"${key}"`).join(', ');
  return keys.length === 1 ? `${quoted} wasn't supplied.` : `${quoted} weren't supplied.`;
}

/** A value as GitHub's schema messages show it: JSON, with Ruby's nil. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(shown).join(', ')}]`;
  return value === null ? 'nil' : JSON.stringify(value);
}

/** An ISO time at GitHub's resolution (validated before). */
function optionalTime(value: unknown): string | undefined {
  return typeof value === 'string' ? githubTime(Math.floor(Date.parse(value) / 1000) * 1000) : undefined;
}

/** An app as the REST API shows it (getApp, a check run's `app`). */
function renderApp(app: SimApp): App {
  const createdAt = app.createdAt ?? APP_CREATED_AT;
  return {
    id: app.id,
    slug: app.slug,
    node_id: Buffer.from(`03:App${app.id}`).toString('base64'),
    owner: renderUser(app.owner),
    name: app.name,
    description: app.description ?? null,
    external_url: appHomepage(app),
    html_url: `https://github.com/apps/${app.slug}`,
    created_at: createdAt,
    updated_at: app.updatedAt ?? createdAt,
    permissions: app.permissions ?? { checks: 'write', metadata: 'read' },
    events: app.events ?? [],
  };
}

function appHomepage(app: SimApp): string {
  return app.externalUrl ?? `https://github.com/apps/${app.slug}`;
}

/**
 * One repository's commits and branches as the scenario describes them when a request arrives.
 * Shas are compared in lower case; branch names as given.
 */
class CommitGraph {
  private readonly parentsOf = new Map<string, string[]>();
  private readonly messages = new Map<string, string>();
  private readonly heads = new Map<string, string>();
  /** False when the scenario has no `commits`: every 40-hex sha is then a commit without parents. */
  private readonly strict: boolean;

  constructor(scenario: Scenario, repository: { owner: string; repo: string }) {
    const here = `${repository.owner}/${repository.repo}`.toLowerCase();
    const mine = <T extends { owner: string; repo: string }>(list: T[] | undefined) =>
      (list ?? []).filter((each) => `${each.owner}/${each.repo}`.toLowerCase() === here);
    this.strict = scenario.commits !== undefined;
    for (const commit of mine(scenario.commits)) {
      const sha = commit.sha.toLowerCase();
      this.parentsOf.set(
        sha,
        commit.parents.map((parent) => parent.toLowerCase()),
      );
      if (commit.message !== undefined) this.messages.set(sha, commit.message);
    }
    for (const parents of [...this.parentsOf.values()]) {
      for (const parent of parents) if (!this.parentsOf.has(parent)) this.parentsOf.set(parent, []);
    }
    for (const branch of mine(scenario.branches)) {
      const sha = branch.sha.toLowerCase();
      this.heads.set(branch.name, sha);
      if (!this.parentsOf.has(sha)) this.parentsOf.set(sha, []);
    }
  }

  /** The head of a branch, if the scenario has it. */
  branch(name: string): string | undefined {
    return this.heads.get(name);
  }

  /** The commit a ref names: a branch, a known sha or an unambiguous prefix of one (4+ hex digits, as git). */
  resolve(ref: string): string | undefined {
    const head = this.heads.get(ref.replace(/^(?:refs\/)?heads\//, ''));
    if (head) return head;
    const sha = ref.toLowerCase();
    if (!/^[0-9a-f]{4,40}$/.test(sha)) return undefined;
    if (this.parentsOf.has(sha) || (!this.strict && sha.length === 40)) return sha;
    const matches = [...this.parentsOf.keys()].filter((known) => known.startsWith(sha));
    return matches.length === 1 ? matches[0] : undefined;
  }

  parents(sha: string): string[] {
    return this.parentsOf.get(sha) ?? [];
  }

  message(sha: string): string {
    return this.messages.get(sha) ?? `Commit ${sha.slice(0, 7)}`;
  }

  /** `sha` and its ancestors over all parents, breadth first (first parents first), each with its distance. */
  ancestors(sha: string): Map<string, number> {
    const distance = new Map([[sha, 0]]);
    const queue = [sha];
    for (let i = 0; i < queue.length; i++) {
      const current = queue[i] as string;
      for (const parent of this.parents(current)) {
        if (distance.has(parent)) continue;
        distance.set(parent, (distance.get(current) ?? 0) + 1);
        queue.push(parent);
      }
    }
    return distance;
  }

  /**
   * As `git merge-base base head`: a common ancestor that is no ancestor of another common ancestor.
   * When there are several (criss-cross merges), the nearest to `head` breadth first; git may pick another.
   */
  mergeBase(base: string, head: string): string | undefined {
    const fromBase = this.ancestors(base);
    const common = [...this.ancestors(head).keys()].filter((sha) => fromBase.has(sha));
    const beneath = new Set<string>();
    for (const sha of common) {
      for (const older of this.ancestors(sha).keys()) if (older !== sha) beneath.add(older);
    }
    return common.find((sha) => !beneath.has(sha));
  }

  /** As `git rev-list --topo-order --reverse exclude..sha`: reachable from `sha`, not from `exclude`; parents first. */
  only(sha: string, exclude: string): string[] {
    const excluded = this.ancestors(exclude);
    const order: string[] = [];
    const seen = new Set<string>();
    // Depth first and iterative (a long history must not overflow the stack): a commit after its parents.
    const stack: { sha: string; expanded: boolean }[] = [{ sha, expanded: false }];
    while (stack.length > 0) {
      const top = stack.pop() as { sha: string; expanded: boolean };
      if (top.expanded) {
        order.push(top.sha);
        continue;
      }
      if (seen.has(top.sha) || excluded.has(top.sha)) continue;
      seen.add(top.sha);
      stack.push({ sha: top.sha, expanded: true });
      for (const parent of [...this.parents(top.sha)].reverse()) stack.push({ sha: parent, expanded: false });
    }
    return order;
  }
}

function commentUrl(apiUrl: string, repository: Repository, id: number): string {
  return `${apiUrl}/repos/${repository.owner}/${repository.repo}/issues/comments/${id}`;
}

function renderUser(user: SimUser): components['schemas']['simple-user'] {
  const bot = user.type === 'Bot';
  const profile = `https://api.github.com/users/${encodeURIComponent(user.login)}`;
  return {
    login: user.login,
    id: user.id,
    node_id: Buffer.from(`04:${user.type}${user.id}`).toString('base64'),
    avatar_url: bot
      ? 'https://avatars.githubusercontent.com/in/15368?v=4'
      : `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: '',
    url: profile,
    html_url: bot
      ? `https://github.com/apps/${user.login.replace(/\[bot\]$/, '')}`
      : `https://github.com/${user.login}`,
    followers_url: `${profile}/followers`,
    following_url: `${profile}/following{/other_user}`,
    gists_url: `${profile}/gists{/gist_id}`,
    starred_url: `${profile}/starred{/owner}{/repo}`,
    subscriptions_url: `${profile}/subscriptions`,
    organizations_url: `${profile}/orgs`,
    repos_url: `${profile}/repos`,
    events_url: `${profile}/events{/privacy}`,
    received_events_url: `${profile}/received_events`,
    type: user.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

function defaultAssociation(user: SimUser): AuthorAssociation {
  return user.type === 'Bot' ? 'NONE' : 'MEMBER';
}

function issueComments(repository: Repository, issue: number, create: true): StoredComment[];
function issueComments(repository: Repository, issue: number, create: boolean): StoredComment[] | undefined;
function issueComments(repository: Repository, issue: number, create: boolean): StoredComment[] | undefined {
  let list = repository.issues.get(issue);
  if (!list && create) {
    list = [];
    repository.issues.set(issue, list);
  }
  return list;
}

function findComment(repository: Repository, id: number): StoredComment | undefined {
  for (const list of repository.issues.values()) {
    const found = list.find((c) => c.id === id);
    if (found) return found;
  }
  return undefined;
}

function faultReply(status: number, body?: unknown, retryAfter?: string, rateLimitReset?: number): Reply {
  const headers: Record<string, string> = {};
  if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
  if (rateLimitReset !== undefined) {
    Object.assign(headers, {
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '5000',
      'x-ratelimit-reset': String(rateLimitReset),
      'x-ratelimit-resource': 'core',
    });
  }
  return { status, body: body ?? githubError(status, STATUS_CODES[status] ?? 'Error'), headers };
}

/** ISO time without milliseconds, as GitHub writes it. */
function githubTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function isId(segment: string | undefined): segment is string {
  return segment !== undefined && /^[1-9]\d{0,15}$/.test(segment);
}

function positiveInt(text: string | null): number | undefined {
  if (text === null || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 ? value : undefined;
}

/** Writes pullRequestEvent(options) to a new temporary file and returns its path, for GITHUB_EVENT_PATH. */
export function pullRequestEventFile(options: PullRequestEventOptions): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'event-')), 'event.json');
  fs.writeFileSync(file, JSON.stringify(pullRequestEvent(options)));
  return file;
}

/** What the runner gives a step on a pull_request event of SAMPLE_PULL_REQUEST, with GitHub at `apiUrl`. */
export function pullRequestEnv(apiUrl: string): Record<string, string> {
  return {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: pullRequestEventFile(SAMPLE_PULL_REQUEST),
    GITHUB_API_URL: apiUrl,
    GITHUB_REPOSITORY: `${SAMPLE_PULL_REQUEST.owner}/${SAMPLE_PULL_REQUEST.repo}`,
  };
}

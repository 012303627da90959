import type { getOctokit } from '@actions/github';
import * as z from 'zod/mini';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from './clock.js';
import { Aborted, GitHubError, RateLimited } from './errors.js';
import {
  errorText,
  type Party,
  parseRetryAfter,
  type RateLimits,
  type Request,
  type RequestContext,
  type RetryRule,
  request,
} from './request.js';
import { once, validate } from './schemas.js';
import { type HttpAnswer, MAX_ANSWER_BYTES } from './transport.js';
import { issuePath } from './validation.js';

type Octokit = ReturnType<typeof getOctokit>;

const answers = once(() => {
  const pull = z.object({
    number: z.number(),
    state: z.string(),
    head: z.object({ sha: z.string() }),
    base: z.object({
      ref: z.optional(z.string()),
      sha: z.optional(z.string()),
      repo: z.object({ full_name: z.string() }),
    }),
  });
  return {
    list: z.array(
      z.object({
        id: z.number(),
        html_url: z.string(),
        body: z.nullish(z.string()),
        user: z.nullish(z.object({ id: z.optional(z.number()), login: z.optional(z.string()) })),
      }),
    ),
    written: z.object({ html_url: z.string() }),
    created: z.object({
      id: z.number(),
      html_url: z.string(),
      user: z.nullish(z.object({ id: z.optional(z.number()) })),
    }),
    viewer: z.object({
      viewer: z.object({ login: z.string(), databaseId: z.nullish(z.number()) }),
    }),
    pull,
    pulls: z.array(pull),
    checkRuns: z.object({
      check_runs: z.array(
        z.object({
          id: z.number(),
          name: z.string(),
          status: z.string(),
          html_url: z.nullish(z.string()),
          app: z.nullish(z.object({ id: z.number() })),
          output: z.object({ summary: z.nullish(z.string()), text: z.nullish(z.string()) }),
        }),
      ),
    }),
    checkRunWritten: z.object({ id: z.number(), html_url: z.nullish(z.string()) }),
    commit: z.object({ sha: z.string(), parents: z.array(z.object({ sha: z.string() })) }),
    comparison: z.object({
      merge_base_commit: z.object({ sha: z.string() }),
      status: z.string(),
      ahead_by: z.number(),
      commits: z.optional(z.array(z.object({ sha: z.string() }))),
    }),
    workflowRuns: z.object({
      workflow_runs: z.array(
        z.object({
          head_sha: z.string(),
          event: z.string(),
          conclusion: z.nullish(z.string()),
          run_attempt: z.optional(z.number()),
        }),
      ),
    }),
    app: z.object({ id: z.number() }),
  };
});

export type Comment = z.infer<ReturnType<typeof answers>['list']>[number];
export type CreatedComment = z.infer<ReturnType<typeof answers>['created']>;
export type Pull = z.infer<ReturnType<typeof answers>['pull']>;
export type CheckRunWritten = z.infer<ReturnType<typeof answers>['checkRunWritten']>;
export type CheckRun = z.infer<ReturnType<typeof answers>['checkRuns']>['check_runs'][number];
type WorkflowRunAnswer = z.infer<ReturnType<typeof answers>['workflowRuns']>['workflow_runs'][number];

export type CheckRunConclusion = 'success' | 'failure' | 'timed_out' | 'cancelled';
export type CheckRunOutput = { title: string; summary: string; text?: string };

/** What a check run is updated with (and, with its name and commit, created with), as far as this action sends it. */
export interface CheckRunFields {
  status: 'in_progress' | 'completed';
  conclusion?: CheckRunConclusion;
  started_at?: string;
  completed_at?: string;
  output: CheckRunOutput;
}

async function checked<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): Promise<T> {
  const result = await validate(schema, value, {
    where: (path) => (path.length === 0 ? 'the answer' : `field '${issuePath('', path)}'`),
    // Its kind only: a value from GitHub's answer is no help to the reader.
    showsInput: () => false,
    max: 3,
  });
  if ('data' in result) return result.data;
  throw new GitHubError(`Could not ${what}: GitHub's answer does not match its API: ${result.problems}`);
}

const notTheOrigin = (origin: string) =>
  `not the API's origin ${origin}: the github-token goes to that origin only, so nothing was sent there`;

/**
 * GitHub's rate limits, as its documentation tells them: a primary one leaves no requests until
 * `x-ratelimit-reset`; a secondary one (too many at once, or too many writes) answers 403 or 429
 * saying so, with `Retry-After` or with no header at all.
 */
function rateLimit({ status, headers, body }: HttpAnswer, operation: Request, now: number) {
  if (status !== 403 && status !== 429) return undefined;
  const said = errorText(body, 'message');
  const primary = headers.get('x-ratelimit-remaining') === '0';
  if (status === 403 && !primary && !/secondary rate limit|abuse/i.test(said)) return undefined;
  const reset = Number(headers.get('x-ratelimit-reset')) * 1000;
  const resetsAt = primary && reset > 0 ? reset : undefined;
  const waitMs =
    parseRetryAfter(headers.get('retry-after'), now) ??
    (resetsAt === undefined ? undefined : Math.max(0, resetsAt - now));
  const limit = { primary, waitMs, resetsAt };
  return new RateLimited(`Could not ${operation.name}: HTTP ${status}${said}`, status, limit);
}

const GITHUB: Party = {
  name: 'GitHub',
  errorField: 'message',
  redirect: {
    otherOrigin: (origin) => `${notTheOrigin(origin)}.`,
    notARead: "a write is never sent again to a redirect's target.",
  },
  failed: (message, status) => new GitHubError(message, status),
  rateLimit,
};

/**
 * Octokit's fetch, over the project's one request path (proxies, capped answers, redirects within
 * the origin). A URL outside the API's origin (a Link to a next page elsewhere) is refused before
 * the token is sent. Without `call` (a request that names none), retried like a read.
 */
export function githubFetch(
  apiUrl: string,
  timeoutMs: number,
  clock: Clock,
  call?: { what: string; rule: RetryRule; context: RequestContext },
) {
  const { origin } = new URL(apiUrl);
  return async (
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) => {
    const method = init.method ?? 'GET';
    const what = call?.what ?? `${method} ${url}`;
    if (new URL(url).origin !== origin)
      throw new GitHubError(`Could not ${what}: ${url} is ${notTheOrigin(origin)}.`);
    const answer = await request(
      GITHUB,
      { name: what, rule: call?.rule ?? 'github', method, url, headers: init.headers ?? {}, body: init.body },
      call?.context ?? { clock, deadline: clock.now() + timeoutMs, requestTimeoutMs: timeoutMs },
    );
    // A Response refuses a body with these statuses.
    const body = [204, 205].includes(answer.status) ? null : answer.body;
    return new Response(body, { status: answer.status, headers: answer.headers });
  };
}

type Fetch = { fetch: ReturnType<typeof githubFetch> };

/** What every request of one step's connection shares: the job's cancellation stops the reads, not the writes. */
export interface Connection extends RateLimits {
  clock: Clock;
  requestTimeoutMs: number;
}

/** Each request's budget, its retries included; a rate limit's wait comes on top. */
const REQUEST_BUDGET_MS = 30_000;
/** GitHub's advice to integrations that write much: a second between writes. */
const WRITE_GAP_MS = 1000;
/** One target's writes (in progress, completed, the comment) go at full speed; more are spaced. */
const WRITES_AT_FULL_SPEED = 3;

interface Sent<T> {
  /** Octokit's route, which the step's count of requests goes by. */
  route: { method: string; url: string };
  what: string;
  rule?: RetryRule;
  write?: boolean;
  /** Default REQUEST_BUDGET_MS. */
  budgetMs?: number;
  send: (request: Fetch) => Promise<T>;
  /** A create limited by GitHub may have acted: before it is sent again, what it would have made. */
  made?: () => Promise<T | undefined>;
}

/**
 * One step's connection to one repository: what GitHub answers alike for every target (the app,
 * a pull request, a merge base, a commit's check runs and parents) is asked once; writes go one at
 * a time; GitHub's rate limits are waited out within their own bound.
 */
export class GitHub {
  private readonly asked = new Map<string, Promise<unknown>>();
  private readonly counts = new Map<string, number>();
  private writes: Promise<unknown> = Promise.resolve();
  private written = 0;
  private lastWriteAt = 0;

  constructor(
    private readonly octokit: Octokit,
    private readonly apiUrl: string,
    private readonly repo: { owner: string; repo: string },
    private readonly connection: Connection,
    private readonly rest = octokit.rest,
  ) {}

  /** The step's requests by route, for the debug log: "9 (GET /apps/{app_slug} 1, …)". */
  requestCount(): string {
    const total = [...this.counts.values()].reduce((sum, count) => sum + count, 0);
    const each = [...this.counts].map(([route, count]) => `${route} ${count}`);
    return `${total}${each.length > 0 ? ` (${each.join(', ')})` : ''}`;
  }

  private once<T>(key: string, ask: () => Promise<T>): Promise<T> {
    if (!this.asked.has(key)) this.asked.set(key, ask());
    return this.asked.get(key) as Promise<T>;
  }

  /**
   * A request that failed comes out as the GitHubError (or Aborted) the transport threw, not
   * Octokit's wrapper. request() waits out GitHub's rate limits, within the connection's bound.
   */
  private async call<T>(sent: Sent<T>): Promise<T> {
    const { clock, signal, until } = this.connection;
    const route = `${sent.route.method} ${sent.route.url}`;
    const budgetEnds = clock.now() + (sent.budgetMs ?? REQUEST_BUDGET_MS);
    let made: T | undefined;
    const context: RequestContext = {
      clock,
      deadline: Math.min(until() ?? Number.POSITIVE_INFINITY, budgetEnds),
      requestTimeoutMs: this.connection.requestTimeoutMs,
      signal: sent.write ? undefined : signal,
      onSend: () => this.counts.set(route, (this.counts.get(route) ?? 0) + 1),
      rateLimits: this.connection,
      again: async () => {
        made = await sent.made?.();
        return made === undefined;
      },
    };
    const call = { what: sent.what, rule: sent.rule ?? 'github', context };
    try {
      return await sent.send({ fetch: githubFetch(this.apiUrl, context.requestTimeoutMs, clock, call) });
    } catch (error) {
      if (made !== undefined) return made;
      const cause = (error as { cause?: unknown } | undefined)?.cause;
      throw cause instanceof GitHubError || cause instanceof Aborted ? cause : error;
    }
  }

  /** Writes one at a time, a second apart once there are many. */
  private inTurn<T>(sent: Sent<T>): Promise<T> {
    const { clock } = this.connection;
    const turn = this.writes.then(async () => {
      const gapMs = this.lastWriteAt + WRITE_GAP_MS - clock.now();
      if (this.written >= WRITES_AT_FULL_SPEED && gapMs > 0) await clock.sleep(gapMs);
      try {
        return await this.call({ ...sent, write: true });
      } finally {
        this.written++;
        this.lastWriteAt = clock.now();
      }
    });
    this.writes = turn.catch(() => undefined);
    return turn;
  }

  /** One of Octokit's typed calls, over githubFetch; GitHub's answer checked against its schema. */
  private async send<P, T>(
    what: string,
    schema: z.ZodMiniType<T>,
    method: Endpoint<P>,
    params: NoInfer<P>,
    write?: { rule?: RetryRule; made?: () => Promise<T | undefined> },
  ): Promise<T> {
    const sent: Sent<unknown> = {
      what,
      route: method.endpoint.DEFAULTS,
      rule: write?.rule,
      send: async (request) => checked(schema, (await method({ ...params, request })).data, what),
      made: write?.made,
    };
    return (await (write ? this.inTurn(sent) : this.call(sent))) as T;
  }

  /** Page after page from an endpoint's first, as the Link header names them (githubFetch checks their origin). */
  private async pages<P, T>(
    what: string,
    endpoint: Endpoint<never>,
    first: { method: string; url: string },
    schema: z.ZodMiniType<P>,
    pick: (page: P) => T[],
    maxPages = Number.POSITIVE_INFINITY,
  ): Promise<T[]> {
    const picked: T[] = [];
    for (let number = 1, url = first.url; url && number <= maxPages; number++) {
      const named = `${what} (page ${number})`;
      const send = (request: Fetch) => this.octokit.request({ ...first, url, request });
      const answer = await this.call({ what: named, route: endpoint.endpoint.DEFAULTS, send });
      picked.push(...pick(await checked(schema, answer.data, named)));
      url = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.link ?? '')?.[1] ?? '';
    }
    return picked;
  }

  /**
   * Who the token acts as (GraphQL's viewer: REST's GET /user refuses the workflow's token), asked
   * once, in a third of a request's budget: the comment it is asked for keeps time to be written.
   */
  private identity(): Promise<{ login: string; id?: number } | undefined> {
    const what = 'learn who the github-token acts as';
    const query = (request: Fetch) =>
      this.octokit.graphql<unknown>('query { viewer { login databaseId } }', { request });
    const ask = async () => {
      try {
        const route = { method: 'POST', url: '/graphql' };
        const answer = await this.call({ what, route, budgetMs: REQUEST_BUDGET_MS / 3, send: query });
        const { viewer } = await checked(answers().viewer, answer, what);
        return { login: viewer.login, id: viewer.databaseId ?? undefined };
      } catch (error) {
        // GraphQL errors in an answer: no retry will change them.
        const graphql = (error as { name?: string }).name === 'GraphqlResponseError';
        if (!graphql && !(error instanceof GitHubError)) throw error;
        const reason = graphql ? 'GitHub did not say' : (error as GitHubError).message;
        info(
          line`Could not learn who the github-token acts as (${reason}): no earlier comment is updated, a new one is written.`,
        );
        return undefined;
      }
    };
    return this.once('identity', ask);
  }

  /**
   * The token's own comments holding `marker`, oldest first. When GitHub cannot say who the token
   * is (`untrusted`), none is: another app's copy must never be edited or believed.
   */
  async findComments(number: number, marker: string): Promise<{ comments: Comment[]; untrusted: boolean }> {
    const marked = await this.marked(number, marker);
    if (marked.length === 0) return { comments: [], untrusted: false };
    const who = await this.identity();
    if (!who) return { comments: [], untrusted: true };
    // By its author's id (logins of bots differ between GraphQL and REST in places; ids do not), else its login.
    const isOwn = ({ user }: Comment) =>
      who.id !== undefined ? user?.id === who.id : user?.login === who.login;
    return { comments: marked.filter(isOwn), untrusted: false };
  }

  /** Every comment of the pull request holding `marker`, by `authorId` (the token's own), oldest first. */
  async commentsBy(number: number, marker: string, authorId: number): Promise<Comment[]> {
    const marked = await this.marked(number, marker);
    return marked.filter(({ user }) => user?.id === authorId).sort((a, b) => a.id - b.id);
  }

  private marked(number: number, marker: string): Promise<Comment[]> {
    const params = { ...this.repo, issue_number: number, per_page: 100 };
    const list = this.rest.issues.listComments;
    const what = `list the comments of pull request #${number}`;
    const keep = ({ body }: Comment) => body?.includes(marker) === true;
    return this.pages(what, list, list.endpoint(params), answers().list, (comments) => comments.filter(keep));
  }

  async updateComment(id: number, body: string): Promise<string> {
    const params = { ...this.repo, comment_id: id, body };
    const what = 'update the pull request comment';
    return (await this.send(what, answers().written, this.rest.issues.updateComment, params, {})).html_url;
  }

  /** After a rate limit, sent again only where the token's own comment with `marker` is not there. */
  createComment(number: number, body: string, marker: string): Promise<CreatedComment> {
    const params = { ...this.repo, issue_number: number, body };
    const what = `comment on pull request #${number}`;
    const made = async () => (await this.findComments(number, marker)).comments.at(-1);
    const create = this.rest.issues.createComment;
    return this.send(what, answers().created, create, params, { rule: 'github-create', made });
  }

  /** A comment already gone (another run deleted it, or a retry's first attempt did) is no failure. */
  async deleteComment(id: number): Promise<void> {
    const what = 'delete a duplicate pull request comment';
    const params = { ...this.repo, comment_id: id };
    try {
      await this.send(what, z.unknown(), this.rest.issues.deleteComment, params, {});
    } catch (error) {
      if (!(error instanceof GitHubError && error.status === 404)) throw error;
    }
  }

  /** Read once for the step; `fresh`: read now (is the commit tested still the head?). */
  pull(number: number, fresh = false): Promise<Pull> {
    const params = { ...this.repo, pull_number: number };
    const read = () => this.send(`read pull request #${number}`, answers().pull, this.rest.pulls.get, params);
    return fresh ? read() : this.once(`pull ${number}`, read);
  }

  /** The first 100 pull requests of a commit: [] for a fork's commit; 422 (no such commit here) too. */
  async pullsOfCommit(sha: string): Promise<Pull[]> {
    const what = `list the pull requests of commit ${sha.slice(0, 7)}`;
    const list = this.rest.repos.listPullRequestsAssociatedWithCommit;
    try {
      return await this.send(what, answers().pulls, list, { ...this.repo, commit_sha: sha, per_page: 100 });
    } catch (error) {
      if (error instanceof GitHubError && error.status === 422) return [];
      throw error;
    }
  }

  /** `head`: `owner:branch`; `base`: a branch; `perPage` 1 asks only whether there is one. */
  openPulls(
    keep: (pull: Pull) => boolean,
    maxPages: number,
    filter: { head?: string; base?: string; perPage?: number } = {},
  ): Promise<Pull[]> {
    const list = this.rest.pulls.list;
    const { head, base, perPage = 100 } = filter;
    const first = list.endpoint({ ...this.repo, state: 'open', per_page: perPage, head, base });
    const what = `list the open pull requests${base ? ` into ${base}` : ''}`;
    return this.pages(what, list, first, answers().pulls, (pulls) => pulls.filter(keep), maxPages);
  }

  /**
   * Every check run of a commit, of every app and name, newest first, listed once for every target
   * (`fresh`: listed now). Pages are small enough for the answer cap whatever other apps wrote.
   */
  checkRunsOf(sha: string, fresh = false): Promise<CheckRun[]> {
    const what = `list the check runs of commit ${sha.slice(0, 7)}`;
    const list = this.rest.checks.listForRef;
    const first = list.endpoint({ ...this.repo, ref: sha, filter: 'all', per_page: CHECK_RUNS_PER_PAGE });
    const read = () =>
      this.pages(what, list, first, answers().checkRuns, (page) => page.check_runs, CHECK_RUN_PAGES);
    return fresh ? read() : this.once(`check runs ${sha}`, read);
  }

  /** After a rate limit, sent again only where `made` finds no such check run on the commit. */
  createCheckRun(
    fields: CheckRunFields & { name: string; head_sha: string },
    made: () => Promise<CheckRunWritten | undefined>,
  ): Promise<CheckRunWritten> {
    const what = `create check run '${fields.name}'`;
    const params = { ...this.repo, ...fields };
    const create = this.rest.checks.create;
    return this.send(what, answers().checkRunWritten, create, params, { rule: 'github-create', made });
  }

  updateCheckRun(id: number, fields: CheckRunFields): Promise<CheckRunWritten> {
    const params = { ...this.repo, check_run_id: id, ...fields };
    const update = this.rest.checks.update;
    return this.send(`update check run ${id}`, answers().checkRunWritten, update, params, {});
  }

  /** The first parent of a commit (undefined for a root commit), from the Git database: no patch comes with it. */
  async firstParent(sha: string): Promise<string | undefined> {
    const what = `read commit ${sha.slice(0, 7)}`;
    const read = () =>
      this.send(what, answers().commit, this.rest.git.getCommit, { ...this.repo, commit_sha: sha });
    return (await this.once(`commit ${sha}`, read)).parents[0]?.sha;
  }

  async mergeBase(base: string, head: string): Promise<string> {
    return (await this.compare(base, head)).merge_base_commit.sha;
  }

  /** How many commits `head` is ahead of `base`, when `base` is one of its ancestors (or itself). */
  async aheadOf(base: string, head: string): Promise<number | undefined> {
    const { status, ahead_by } = await this.compare(base, head);
    return status === 'ahead' || status === 'identical' ? ahead_by : undefined;
  }

  private compare(base: string, head: string) {
    const params = { ...this.repo, basehead: `${base}...${head}` };
    const what = `compare ${/^[0-9a-f]{40}$/.test(base) ? base.slice(0, 7) : base} with ${head.slice(0, 7)}`;
    const compare = this.rest.repos.compareCommitsWithBasehead;
    return this.once(`compare ${base}...${head}`, () =>
      this.send(what, answers().comparison, compare, params),
    );
  }

  /** The commits after `sha` on `branch` (`compare/{sha}...{branch}`), at most `maxPages` pages of 100. */
  async commitsAfter(sha: string, branch: string, maxPages: number): Promise<Set<string>> {
    const commits = new Set<string>();
    const compare = this.rest.repos.compareCommitsWithBasehead;
    for (let page = 1; page <= maxPages; page++) {
      const params = { ...this.repo, basehead: `${sha}...${branch}`, per_page: 100, page };
      const what = `list the commits of ${branch} after ${sha.slice(0, 7)} (page ${page})`;
      const read = () => this.send(what, answers().comparison, compare, params);
      const listed = (await this.once(`after ${sha} ${branch} ${page}`, read)).commits ?? [];
      for (const commit of listed) commits.add(commit.sha);
      if (listed.length < 100) break;
    }
    return commits;
  }

  /** A workflow's completed runs on a branch, newest first: one page of 100, read once. */
  async workflowRuns(file: string, branch: string): Promise<WorkflowRunAnswer[]> {
    const params = { ...this.repo, workflow_id: file, branch, status: 'completed', per_page: 100 } as const;
    const what = `list the runs of workflow ${file} on ${branch}`;
    const list = this.rest.actions.listWorkflowRuns;
    const read = () => this.send(what, answers().workflowRuns, list, params);
    return (await this.once(`runs ${file} ${branch}`, read)).workflow_runs;
  }

  /** An app's id by its slug: GitHub Enterprise Server's GitHub Actions app has another id than github.com's. */
  appId(slug: string): Promise<number> {
    const what = `read the ${slug} app`;
    const read = async () =>
      (await this.send(what, answers().app, this.rest.apps.getBySlug, { app_slug: slug })).id;
    return this.once(`app ${slug}`, read);
  }
}

/** Octokit's typed call, with the route it is counted by. */
type Endpoint<P> = ((params: P & { request: Fetch }) => Promise<{ data: unknown }>) & {
  endpoint: { DEFAULTS: { method: string; url: string } };
};

/**
 * A check run's `output` holds up to 65,535 bytes of `summary` and as many of `text`, which JSON
 * may spell six times as long (`\u0001`): a page of this many fits the answer cap whatever other
 * apps wrote.
 */
const CHECK_RUNS_PER_PAGE = Math.min(100, Math.floor(MAX_ANSWER_BYTES / (2 * 65_535 * 6 + 65_536)));
/** Every target's check run is found among this many check runs of a commit. */
const CHECK_RUN_PAGES = Math.ceil(300 / CHECK_RUNS_PER_PAGE);

import type { getOctokit } from '@actions/github';
import * as z from 'zod/mini';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from './clock.js';
import { Aborted, GitHubError } from './errors.js';
import { type Party, type RequestContext, type RetryRule, request } from './request.js';
import { once, validate } from './schemas.js';
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
          output: z.object({ summary: z.nullish(z.string()) }),
        }),
      ),
    }),
    checkRunWritten: z.object({ id: z.number(), html_url: z.nullish(z.string()) }),
    commit: z.object({ sha: z.string(), parents: z.array(z.object({ sha: z.string() })) }),
    comparison: z.object({ merge_base_commit: z.object({ sha: z.string() }) }),
    app: z.object({ id: z.number() }),
  };
});

export type Comment = z.infer<ReturnType<typeof answers>['list']>[number];
export type CreatedComment = z.infer<ReturnType<typeof answers>['created']>;
export type Pull = z.infer<ReturnType<typeof answers>['pull']>;
export type CheckRunWritten = z.infer<ReturnType<typeof answers>['checkRunWritten']>;
export type CheckRun = z.infer<ReturnType<typeof answers>['checkRuns']>['check_runs'][number];

/** What a check run is updated with (and, with its name and commit, created with), as far as this action sends it. */
export interface CheckRunFields {
  status: 'in_progress' | 'completed';
  conclusion?: 'success' | 'failure' | 'timed_out' | 'cancelled';
  started_at?: string;
  completed_at?: string;
  output: { title: string; summary: string };
}

function checked<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const result = validate(schema, value, {
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

const GITHUB: Party = {
  name: 'GitHub',
  errorField: 'message',
  redirect: {
    otherOrigin: (origin) => `${notTheOrigin(origin)}.`,
    notARead: "a write is never sent again to a redirect's target.",
  },
  // The 403 and 404 of a comment are explained where the step knows why it comments.
  advice: () => undefined,
  failed: (message, status) => new GitHubError(message, status),
  // GitHub's secondary rate limit answers 403 with no quota left: a refusal, like 429.
  refusal: ({ status, headers }, now) => {
    if (status !== 403 || headers.get('x-ratelimit-remaining') !== '0') return undefined;
    const reset = Number(headers.get('x-ratelimit-reset')) * 1000;
    return {
      status: 429,
      retryAfterMs: Number.isFinite(reset) ? Math.max(0, reset - now) : undefined,
    };
  },
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

export class GitHub {
  constructor(
    private readonly octokit: Octokit,
    private readonly apiUrl: string,
    private readonly repo: { owner: string; repo: string },
    private readonly context: RequestContext,
    private readonly rest = octokit.rest,
  ) {}

  /** A request that failed comes out as the GitHubError (or Aborted) the transport threw, not Octokit's wrapper. */
  private async call<T>(
    what: string,
    rule: RetryRule,
    send: (request: Fetch) => Promise<T>,
    context = this.context,
  ): Promise<T> {
    try {
      return await send({
        fetch: githubFetch(this.apiUrl, context.requestTimeoutMs, context.clock, { what, rule, context }),
      });
    } catch (error) {
      const cause = (error as { cause?: unknown } | undefined)?.cause;
      throw cause instanceof GitHubError || cause instanceof Aborted ? cause : error;
    }
  }

  /** One of Octokit's typed calls, over githubFetch; GitHub's answer checked against its schema. */
  private async send<P, T>(
    what: string,
    schema: z.ZodMiniType<T>,
    method: (params: P & { request: Fetch }) => Promise<{ data: unknown }>,
    params: NoInfer<P>,
    rule: RetryRule = 'github',
  ): Promise<T> {
    const answer = await this.call(what, rule, (request) => method({ ...params, request }));
    return checked(schema, answer.data, what);
  }

  /** Page after page from an endpoint's first, as the Link header names them (githubFetch checks their origin). */
  private async pages<P, T>(
    what: string,
    first: { method: string; url: string },
    schema: z.ZodMiniType<P>,
    pick: (page: P) => T[],
    maxPages = Number.POSITIVE_INFINITY,
  ): Promise<T[]> {
    const picked: T[] = [];
    for (let number = 1, url = first.url; url && number <= maxPages; number++) {
      const named = `${what} (page ${number})`;
      const get = (request: Fetch) => this.octokit.request({ ...first, url, request });
      const answer = await this.call(named, 'github', get);
      picked.push(...pick(checked(schema, answer.data, named)));
      url = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.link ?? '')?.[1] ?? '';
    }
    return picked;
  }

  /**
   * Who the token acts as (GraphQL's viewer: REST's GET /user refuses the workflow's token), in a
   * third of the time left at most, so that the write keeps time to happen.
   */
  private async identity(): Promise<{ login: string; id?: number } | undefined> {
    const what = 'learn who the github-token acts as';
    const now = this.context.clock.now();
    const slice = { ...this.context, deadline: now + Math.floor((this.context.deadline - now) / 3) };
    const query = (request: Fetch) =>
      this.octokit.graphql<unknown>('query { viewer { login databaseId } }', { request });
    try {
      const { viewer } = checked(answers().viewer, await this.call(what, 'github', query, slice), what);
      return { login: viewer.login, id: viewer.databaseId ?? undefined };
    } catch (error) {
      // GraphQL errors in an answer: no retry will change them.
      const graphql = (error as { name?: string }).name === 'GraphqlResponseError';
      if (!graphql && !(error instanceof GitHubError)) throw error;
      const reason = graphql ? 'GitHub did not say' : (error as GitHubError).message;
      info(
        line`Could not learn who the github-token acts as (${reason}): no earlier comment is updated or compared with, a new one is written.`,
      );
      return undefined;
    }
  }

  /**
   * The token's own comments holding any of `markers`, oldest first, listed once. When GitHub
   * cannot say who the token is (`untrusted`), none is: another app's copy must never be edited or
   * believed.
   */
  async findComments(
    number: number,
    markers: string[],
  ): Promise<{ comments: Comment[]; untrusted: boolean }> {
    const marked = await this.marked(number, markers);
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
    const marked = await this.marked(number, [marker]);
    return marked.filter(({ user }) => user?.id === authorId).sort((a, b) => a.id - b.id);
  }

  private marked(number: number, markers: string[]): Promise<Comment[]> {
    const params = { ...this.repo, issue_number: number, per_page: 100 };
    const first = this.rest.issues.listComments.endpoint(params);
    const what = `list the comments of pull request #${number}`;
    const keep = ({ body }: Comment) => markers.some((marker) => body?.includes(marker));
    return this.pages(what, first, answers().list, (comments) => comments.filter(keep));
  }

  async updateComment(id: number, body: string): Promise<string> {
    const params = { ...this.repo, comment_id: id, body };
    const what = 'update the pull request comment';
    return (await this.send(what, answers().written, this.rest.issues.updateComment, params)).html_url;
  }

  /** Retried only when GitHub cannot have created the comment. */
  createComment(number: number, body: string): Promise<CreatedComment> {
    const params = { ...this.repo, issue_number: number, body };
    const what = `comment on pull request #${number}`;
    return this.send(what, answers().created, this.rest.issues.createComment, params, 'github-create');
  }

  /** A comment already gone (another run deleted it, or a retry's first attempt did) is no failure. */
  async deleteComment(id: number): Promise<void> {
    const what = 'delete a duplicate pull request comment';
    try {
      await this.send(what, z.unknown(), this.rest.issues.deleteComment, { ...this.repo, comment_id: id });
    } catch (error) {
      if (!(error instanceof GitHubError && error.status === 404)) throw error;
    }
  }

  pull(number: number): Promise<Pull> {
    const params = { ...this.repo, pull_number: number };
    return this.send(`read pull request #${number}`, answers().pull, this.rest.pulls.get, params);
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

  openPulls(keep: (pull: Pull) => boolean, maxPages: number, head?: string): Promise<Pull[]> {
    const first = this.rest.pulls.list.endpoint({ ...this.repo, state: 'open', per_page: 100, head });
    const what = 'list the open pull requests';
    return this.pages(what, first, answers().pulls, (pulls) => pulls.filter(keep), maxPages);
  }

  /** Every check run of a commit, of every app and name, newest first: one listing serves every target. */
  checkRunsOf(sha: string, maxPages: number): Promise<CheckRun[]> {
    const what = `list the check runs of commit ${sha.slice(0, 7)}`;
    const params = { ...this.repo, ref: sha, filter: 'all', per_page: 100 } as const;
    const first = this.rest.checks.listForRef.endpoint(params);
    return this.pages(what, first, answers().checkRuns, (page) => page.check_runs, maxPages);
  }

  /** Retried only when GitHub cannot have created it, so that a retry never leaves two. */
  createCheckRun(fields: CheckRunFields & { name: string; head_sha: string }): Promise<CheckRunWritten> {
    const what = `create check run '${fields.name}'`;
    const params = { ...this.repo, ...fields };
    return this.send(what, answers().checkRunWritten, this.rest.checks.create, params, 'github-create');
  }

  updateCheckRun(id: number, fields: CheckRunFields): Promise<CheckRunWritten> {
    const params = { ...this.repo, check_run_id: id, ...fields };
    return this.send(`update check run ${id}`, answers().checkRunWritten, this.rest.checks.update, params);
  }

  /** The first parent of a commit (undefined for a root commit). */
  async firstParent(sha: string): Promise<string | undefined> {
    const what = `read commit ${sha.slice(0, 7)}`;
    const read = this.rest.repos.getCommit;
    return (await this.send(what, answers().commit, read, { ...this.repo, ref: sha })).parents[0]?.sha;
  }

  async mergeBase(base: string, head: string): Promise<string> {
    const params = { ...this.repo, basehead: `${base}...${head}` };
    const what = `compare ${base} with ${head.slice(0, 7)}`;
    const compare = this.rest.repos.compareCommitsWithBasehead;
    return (await this.send(what, answers().comparison, compare, params)).merge_base_commit.sha;
  }

  /** An app's id by its slug: GitHub Enterprise Server's GitHub Actions app has another id than github.com's. */
  async appId(slug: string): Promise<number> {
    const what = `read the ${slug} app`;
    return (await this.send(what, answers().app, this.rest.apps.getBySlug, { app_slug: slug })).id;
  }
}

import type { getOctokit } from '@actions/github';
import * as z from 'zod/mini';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from './clock.js';
import { Aborted, GitHubError } from './errors.js';
import { once } from './interface.js';
import { type Party, type RequestContext, type RetryRule, request } from './request.js';
import { validate } from './schemas.js';
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
export type CheckRun = z.infer<ReturnType<typeof answers>['checkRuns']>['check_runs'][number];

/** What a check run is written with: GitHub's create and update bodies, as far as this action sends them. */
export interface CheckRunFields {
  name?: string;
  head_sha?: string;
  status: 'in_progress' | 'completed';
  conclusion?: 'success' | 'failure' | 'timed_out' | 'cancelled';
  started_at?: string;
  completed_at?: string;
  details_url?: string;
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

export class GitHub {
  constructor(
    private readonly octokit: Octokit,
    private readonly apiUrl: string,
    private readonly path: string,
    private readonly context: RequestContext,
  ) {}

  /** A request that failed comes out as the GitHubError (or Aborted) the transport threw, not Octokit's wrapper. */
  private async call<T>(
    what: string,
    rule: RetryRule,
    send: (request: { fetch: ReturnType<typeof githubFetch> }) => Promise<T>,
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

  private async send<T>(
    what: string,
    route: string,
    schema: z.ZodMiniType<T>,
    params: object = {},
    rule: RetryRule = 'github',
  ): Promise<{ data: T; link?: string }> {
    const answer = await this.call(what, rule, (request) =>
      this.octokit.request(route, { ...params, request }),
    );
    return { data: checked(schema, answer.data, what), link: answer.headers.link };
  }

  /** Page after page as the Link header names them (githubFetch checks their origin). */
  private async pages<P, T>(
    first: string,
    what: string,
    page: { schema: z.ZodMiniType<P>; items: (answer: P) => T[] },
    keep: (item: T) => boolean,
    maxPages = Number.POSITIVE_INFINITY,
  ): Promise<T[]> {
    const kept: T[] = [];
    let route: string | undefined = `GET ${this.path}${first}`;
    for (let number = 1; route !== undefined && number <= maxPages; number++) {
      const answer: { data: P; link?: string } = await this.send(
        `${what} (page ${number})`,
        route,
        page.schema,
      );
      kept.push(...page.items(answer.data).filter(keep));
      const next = /<([^>]+)>;\s*rel="next"/.exec(answer.link ?? '')?.[1];
      route = next && `GET ${next}`;
    }
    return kept;
  }

  /**
   * Who the token acts as (GraphQL's viewer: REST's GET /user refuses the workflow's token), in a
   * third of the time left at most, so that the write keeps time to happen.
   */
  private async identity(): Promise<{ login: string; id?: number } | undefined> {
    const what = 'learn who the github-token acts as';
    const now = this.context.clock.now();
    const slice = { ...this.context, deadline: now + Math.floor((this.context.deadline - now) / 3) };
    const query = (request: { fetch: ReturnType<typeof githubFetch> }) =>
      this.octokit.graphql<unknown>('query { viewer { login databaseId } }', { request });
    let reason: string;
    try {
      const { viewer } = checked(answers().viewer, await this.call(what, 'github', query, slice), what);
      return { login: viewer.login, id: viewer.databaseId ?? undefined };
    } catch (error) {
      // GraphQL errors in an answer: no retry will change them.
      if ((error as { name?: string }).name === 'GraphqlResponseError') reason = 'GitHub did not say';
      else if (error instanceof GitHubError) reason = error.message;
      else throw error;
    }
    info(
      line`Could not learn who the github-token acts as (${reason}): no earlier comment is updated or compared with, a new one is written.`,
    );
    return undefined;
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
    const what = `list the comments of pull request #${number}`;
    const first = `/issues/${number}/comments?per_page=100`;
    const list = { schema: answers().list, items: (comments: Comment[]) => comments };
    return this.pages(first, what, list, ({ body }) => markers.some((marker) => body?.includes(marker)));
  }

  async updateComment(id: number, body: string): Promise<string> {
    const route = `PATCH ${this.path}/issues/comments/${id}`;
    return (await this.send('update the pull request comment', route, answers().written, { body })).data
      .html_url;
  }

  /** Retried only when GitHub cannot have created the comment. */
  async createComment(number: number, body: string): Promise<CreatedComment> {
    const what = `comment on pull request #${number}`;
    const route = `POST ${this.path}/issues/${number}/comments`;
    return (await this.send(what, route, answers().created, { body }, 'github-create')).data;
  }

  /** A comment already gone (another run deleted it, or a retry's first attempt did) is no failure. */
  async deleteComment(id: number): Promise<void> {
    const route = `DELETE ${this.path}/issues/comments/${id}`;
    try {
      await this.call('delete a duplicate pull request comment', 'github', (request) =>
        this.octokit.request(route, { request }),
      );
    } catch (error) {
      if (!(error instanceof GitHubError && error.status === 404)) throw error;
    }
  }

  async pull(number: number): Promise<Pull> {
    const route = `GET ${this.path}/pulls/${number}`;
    return (await this.send(`read pull request #${number}`, route, answers().pull)).data;
  }

  /** The first 100 pull requests of a commit: [] for a fork's commit; 422 (no such commit here) too. */
  async pullsOfCommit(sha: string): Promise<Pull[]> {
    const what = `list the pull requests of commit ${sha.slice(0, 7)}`;
    const route = `GET ${this.path}/commits/${encodeURIComponent(sha)}/pulls?per_page=100`;
    try {
      return (await this.send(what, route, answers().pulls)).data;
    } catch (error) {
      if (error instanceof GitHubError && error.status === 422) return [];
      throw error;
    }
  }

  openPulls(keep: (pull: Pull) => boolean, maxPages: number, head?: string): Promise<Pull[]> {
    const query = `state=open&per_page=100${head ? `&head=${encodeURIComponent(head)}` : ''}`;
    const pulls = { schema: answers().pulls, items: (page: Pull[]) => page };
    return this.pages(`/pulls?${query}`, 'list the open pull requests', pulls, keep, maxPages);
  }

  /** Every check run of a commit, of every app and name, newest first: one listing serves every target. */
  checkRunsOf(sha: string, maxPages: number): Promise<CheckRun[]> {
    const what = `list the check runs of commit ${sha.slice(0, 7)}`;
    const first = `/commits/${encodeURIComponent(sha)}/check-runs?filter=all&per_page=100`;
    const list = {
      schema: answers().checkRuns,
      items: (page: { check_runs: CheckRun[] }) => page.check_runs,
    };
    return this.pages(first, what, list, () => true, maxPages);
  }

  /** Retried only when GitHub cannot have created it, so that a retry never leaves two. */
  async createCheckRun(fields: CheckRunFields): Promise<{ id: number; url?: string }> {
    const route = `POST ${this.path}/check-runs`;
    const what = `create check run '${fields.name}'`;
    const { data } = await this.send(what, route, answers().checkRunWritten, fields, 'github-create');
    return { id: data.id, url: data.html_url ?? undefined };
  }

  async updateCheckRun(id: number, fields: CheckRunFields): Promise<{ id: number; url?: string }> {
    const route = `PATCH ${this.path}/check-runs/${id}`;
    const what = `update check run ${id}`;
    const { data } = await this.send(what, route, answers().checkRunWritten, fields);
    return { id: data.id, url: data.html_url ?? undefined };
  }

  /** The first parent of a commit (undefined for a root commit). */
  async firstParent(sha: string): Promise<string | undefined> {
    const route = `GET ${this.path}/commits/${encodeURIComponent(sha)}`;
    return (await this.send(`read commit ${sha.slice(0, 7)}`, route, answers().commit)).data.parents[0]?.sha;
  }

  async mergeBase(base: string, head: string): Promise<string> {
    const route = `GET ${this.path}/compare/${encodeURIComponent(base)}...${encodeURIComponent(head)}`;
    const what = `compare ${base} with ${head.slice(0, 7)}`;
    return (await this.send(what, route, answers().comparison)).data.merge_base_commit.sha;
  }

  /** An app's id by its slug: GitHub Enterprise Server's GitHub Actions app has another id than github.com's. */
  async appId(slug: string): Promise<number> {
    const route = `GET /apps/${encodeURIComponent(slug)}`;
    return (await this.send(`read the ${slug} app`, route, answers().app)).data.id;
  }
}

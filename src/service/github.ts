import type { getOctokit } from '@actions/github';
import * as z from 'zod/mini';
import { type Clock, systemClock } from './clock.js';
import { Aborted, ServiceError } from './errors.js';
import { type Party, type RequestContext, type RetryRule, request } from './request.js';
import { once } from './schemas.js';
import { issuePath, validate } from './validation.js';

/** Octokit as @actions/github makes it; the caller imports @actions/github only when commenting. */
export type Octokit = ReturnType<typeof getOctokit>;

export interface PullRequest {
  owner: string;
  repo: string;
  number: number;
}

export interface CommentContext {
  clock: Clock;
  /** No request starts or runs past it: the comment's whole budget. */
  deadline: number;
  /** Per request. */
  requestTimeoutMs: number;
  /** The job's cancellation: stops the requests at once. */
  signal?: AbortSignal;
  /** Told of each retry, for the log. */
  onRetry: (what: string, failure: string, delayMs: number) => void;
}

export interface Comment {
  id: number;
  url: string;
  /** The body as GitHub has it: where the previous run's digest is read from. */
  body?: string;
}

/** Who the token acts as, as GraphQL's `viewer` says: `github-actions[bot]` for the workflow's token. */
export interface Identity {
  login: string;
  /** The user id that the REST API gives a comment's author. */
  id?: number;
}

/** GitHub's answers as its API describes them, as far as they are used; extra fields are dropped. */
const answers = once(() => {
  const pull = z.object({
    number: z.number(),
    state: z.string(),
    head: z.object({ sha: z.string() }),
    base: z.object({ repo: z.object({ full_name: z.string() }) }),
  });
  return {
    list: z.array(
      z.object({
        id: z.number(),
        html_url: z.string(),
        body: z.nullish(z.string()),
        user: z.nullish(
          z.object({
            id: z.optional(z.number()),
            login: z.optional(z.string()),
            type: z.optional(z.string()),
          }),
        ),
      }),
    ),
    written: z.object({ id: z.number(), html_url: z.string() }),
    viewer: z.object({
      viewer: z.object({ login: z.string(), databaseId: z.nullish(z.number()) }),
    }),
    pull,
    pulls: z.array(pull),
  };
});

type ListedComment = z.infer<ReturnType<typeof answers>['list']>[number];

/** Whether a comment is the token's own: by its author's id (logins of bots differ between GraphQL and REST in places; ids do not), else its login. */
function isOwn(comment: ListedComment, identity: Identity): boolean {
  const author = comment.user ?? {};
  return identity.id !== undefined ? author.id === identity.id : author.login === identity.login;
}

/** A request to GitHub that failed: what was being done, and how it ended. */
export class GitHubError extends ServiceError {
  override name = 'GitHubError';
}

/** `value` as `schema` says, or a GitHubError that says in words where the answer is wrong. */
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
  refusal: ({ status, headers }) => {
    if (status !== 403 || headers.get('x-ratelimit-remaining') !== '0') return undefined;
    const reset = Number(headers.get('x-ratelimit-reset')) * 1000;
    return {
      status: 429,
      retryAfterMs: Number.isFinite(reset) ? Math.max(0, reset - Date.now()) : undefined,
    };
  },
};

interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal | null;
}

/**
 * Octokit's fetch, over the project's one request path (request() in client.ts): proxies, answers
 * capped while read, redirects of reads followed within the origin only, retries by `call`'s
 * rule, and a GitHubError for a request that failed. A URL outside the API's origin (a Link to a
 * next page elsewhere) is refused before anything is sent. Without `call` (Octokit's default for
 * a request that names none), one request within `timeoutMs`, retried like a read.
 */
export function githubFetch(
  apiUrl: string,
  timeoutMs: number,
  call?: { what: string; rule: RetryRule; context: CommentContext },
) {
  const { origin } = new URL(apiUrl);
  return async (url: string, init: FetchInit = {}): Promise<Response> => {
    const method = init.method ?? 'GET';
    const what = call?.what ?? `${method} ${url}`;
    if (new URL(url).origin !== origin)
      throw new GitHubError(`Could not ${what}: ${url} is ${notTheOrigin(origin)}.`);
    const context: RequestContext = call
      ? { ...call.context, onRetry: (failure, delayMs) => call.context.onRetry(what, failure, delayMs) }
      : { clock: systemClock, deadline: Date.now() + timeoutMs, requestTimeoutMs: timeoutMs };
    const rule = call?.rule ?? 'github';
    const headers = init.headers ?? {};
    const answer = await request(
      GITHUB,
      { name: what, rule, method, url, headers, body: init.body },
      context,
    );
    // A Response refuses a body with these statuses.
    const body = [204, 205].includes(answer.status) ? null : answer.body;
    return new Response(body, { status: answer.status, headers: answer.headers });
  };
}

/** Requests to GitHub through the project's one request path, within a budget (`CommentContext`). */
class GitHubRequests {
  constructor(
    protected readonly octokit: Octokit,
    /** GitHub's REST API, for the messages about a proxy in the way. */
    private readonly apiUrl: string,
  ) {}

  /**
   * One Octokit request, sent through githubFetch with `what` and `rule`: a request that failed
   * comes out as the GitHubError (or Aborted) the transport threw, not Octokit's wrapper of it.
   */
  protected async call<T>(
    what: string,
    rule: RetryRule,
    context: CommentContext,
    send: (request: { fetch: ReturnType<typeof githubFetch> }) => Promise<T>,
  ): Promise<T> {
    try {
      return await send({
        fetch: githubFetch(this.apiUrl, context.requestTimeoutMs, { what, rule, context }),
      });
    } catch (error) {
      const cause = (error as { cause?: unknown } | undefined)?.cause;
      throw cause instanceof GitHubError || cause instanceof Aborted ? cause : error;
    }
  }

  /** `route`'s answer, as `schema` says it must be. */
  protected async read<T>(
    what: string,
    route: string,
    schema: z.ZodMiniType<T>,
    context: CommentContext,
  ): Promise<T> {
    const { data } = await this.call(what, 'github', context, (request) =>
      this.octokit.request(route, { request }),
    );
    return checked(schema, data, what);
  }

  /**
   * The items of a list, page after page as GitHub's Link header names them (Octokit requests an
   * absolute URL as it is, and githubFetch refuses one outside the API's origin), up to `maxPages`.
   */
  protected async *pages<T>(
    first: string,
    what: (page: number) => string,
    schema: z.ZodMiniType<T[]>,
    context: CommentContext,
    maxPages = Number.POSITIVE_INFINITY,
  ): AsyncGenerator<T> {
    let route: string | undefined = `GET ${first}`;
    for (let page = 1; route !== undefined && page <= maxPages; page++) {
      const url: string = route;
      const { data, headers }: { data: unknown; headers: { link?: string } } = await this.call(
        what(page),
        'github',
        context,
        (request) => this.octokit.request(url, { request }),
      );
      yield* checked(schema, data, what(page));
      const next = /<([^>]+)>;\s*rel="next"/.exec(headers.link ?? '')?.[1];
      route = next && `GET ${next}`;
    }
  }
}

/**
 * The comments of one pull request: listing and updating are retried like reads, creating only
 * when GitHub cannot have created the comment.
 */
export class PullRequestComments extends GitHubRequests {
  constructor(
    octokit: Octokit,
    private readonly pullRequest: PullRequest,
    apiUrl: string,
  ) {
    super(octokit, apiUrl);
  }

  /**
   * Who the token acts as (GraphQL's viewer: the REST API's GET /user refuses the workflow's
   * token); undefined when GitHub cannot tell, e.g. a GraphQL error. It gets a third of the time
   * left at most, so that the write keeps time to happen.
   */
  async identity(context: CommentContext): Promise<Identity | undefined> {
    const what = 'learn who the github-token acts as';
    const now = context.clock.now();
    const slice = { ...context, deadline: now + Math.floor((context.deadline - now) / 3) };
    const answer = await this.call(what, 'github', slice, async (request) => {
      try {
        return await this.octokit.graphql<unknown>('query { viewer { login databaseId } }', {
          request,
        });
      } catch (error) {
        // GitHub answered, with GraphQL errors: no retry will change that.
        if ((error as { name?: string }).name === 'GraphqlResponseError') return undefined;
        throw error;
      }
    });
    if (answer === undefined) return undefined;
    const { viewer } = checked(answers().viewer, answer, what);
    return { login: viewer.login, id: viewer.databaseId ?? undefined };
  }

  /**
   * The most recent of the token's own comments whose body holds `marker`, looking through every
   * page; `identity` is asked for only when some comment holds the marker. Without an identity,
   * no comment is the token's own: another app's copy must never be taken for it.
   */
  async find(
    marker: string,
    context: CommentContext,
    identity: () => Promise<Identity | undefined>,
  ): Promise<Comment | undefined> {
    const { owner, repo, number } = this.pullRequest;
    const marked: ListedComment[] = [];
    const first = `/repos/${owner}/${repo}/issues/${number}/comments?per_page=100`;
    const what = (page: number) => `list the comments of pull request #${number} (page ${page})`;
    for await (const comment of this.pages(first, what, answers().list, context)) {
      if (comment.body?.includes(marker)) marked.push(comment);
    }
    if (marked.length === 0) return undefined;
    const who = await identity();
    const own = who && marked.filter((comment) => isOwn(comment, who)).at(-1);
    return own ? { id: own.id, url: own.html_url, body: own.body ?? undefined } : undefined;
  }

  update(comment: Comment, body: string, context: CommentContext): Promise<Comment> {
    const { owner, repo } = this.pullRequest;
    const route = `PATCH /repos/${owner}/${repo}/issues/comments/${comment.id}`;
    return this.write('update the pull request comment', 'github', route, body, context);
  }

  create(body: string, context: CommentContext): Promise<Comment> {
    const { owner, repo, number } = this.pullRequest;
    const route = `POST /repos/${owner}/${repo}/issues/${number}/comments`;
    return this.write(`comment on pull request #${number}`, 'github-create', route, body, context);
  }

  private async write(
    what: string,
    rule: RetryRule,
    route: string,
    body: string,
    context: CommentContext,
  ): Promise<Comment> {
    const { data } = await this.call(what, rule, context, (request) =>
      this.octokit.request(route, { body, request }),
    );
    const { id, html_url } = checked(answers().written, data, what);
    return { id, url: html_url };
  }
}

/** A pull request as the lookup needs it: its state, its head commit and its base repository. */
export interface FoundPullRequest {
  number: number;
  state: string;
  headSha: string;
  /** `owner/repo` of the base. */
  baseRepository: string;
}

type PullAnswer = z.infer<ReturnType<typeof answers>['pull']>;

function found({ number, state, head, base }: PullAnswer): FoundPullRequest {
  return { number, state, headSha: head.sha, baseRepository: base.repo.full_name };
}

/** Finds a repository's pull requests: by number, by commit, or among the open ones. */
export class PullRequestLookup extends GitHubRequests {
  constructor(
    octokit: Octokit,
    private readonly repository: { owner: string; repo: string },
    apiUrl: string,
  ) {
    super(octokit, apiUrl);
  }

  private get path(): string {
    return `/repos/${this.repository.owner}/${this.repository.repo}`;
  }

  async get(number: number, context: CommentContext): Promise<FoundPullRequest> {
    const route = `GET ${this.path}/pulls/${number}`;
    return found(await this.read(`read pull request #${number}`, route, answers().pull, context));
  }

  /**
   * GitHub's "pull requests associated with a commit" (the first 100): [] for a commit that is only
   * in a fork; 422 (no such commit here) is taken for [] too.
   */
  async ofCommit(sha: string, context: CommentContext): Promise<FoundPullRequest[]> {
    const what = `list the pull requests of commit ${sha.slice(0, 7)}`;
    const route = `GET ${this.path}/commits/${encodeURIComponent(sha)}/pulls?per_page=100`;
    try {
      return (await this.read(what, route, answers().pulls, context)).map(found);
    } catch (error) {
      if (error instanceof GitHubError && error.status === 422) return [];
      throw error;
    }
  }

  /** The open pull requests, `head` (`owner:branch`) only if given, at most `maxPages` pages of 100. */
  async open(context: CommentContext, maxPages: number, head?: string): Promise<FoundPullRequest[]> {
    const query = `state=open&per_page=100${head ? `&head=${encodeURIComponent(head)}` : ''}`;
    const what = (page: number) => `list the open pull requests (page ${page})`;
    const pulls: FoundPullRequest[] = [];
    const first = `${this.path}/pulls?${query}`;
    for await (const pull of this.pages(first, what, answers().pulls, context, maxPages))
      pulls.push(found(pull));
    return pulls;
  }
}

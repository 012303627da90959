import type { getOctokit } from '@actions/github';
import * as z from 'zod/mini';
import type { Clock } from './clock.js';
import {
  type Failure,
  parseRetryAfter,
  RetriesExhausted,
  type RetryRule,
  retryReason,
  withRetry,
} from './retry.js';
import { once } from './schemas.js';
import {
  describeNetworkError,
  MAX_REDIRECTS,
  type RefusedRedirect,
  send,
  TransportError,
} from './transport.js';
import { explainIssues, issuePath } from './validation.js';

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
        body: z.optional(z.nullable(z.string())),
        user: z.optional(
          z.nullable(
            z.object({
              id: z.optional(z.number()),
              login: z.optional(z.string()),
              type: z.optional(z.string()),
            }),
          ),
        ),
      }),
    ),
    written: z.object({ id: z.number(), html_url: z.string() }),
    viewer: z.object({
      viewer: z.object({ login: z.string(), databaseId: z.optional(z.nullable(z.number())) }),
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
export class GitHubError extends Error {
  override name = 'GitHubError';
  constructor(
    message: string,
    /** The HTTP status, when GitHub answered. */
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

interface OctokitError {
  status?: number;
  message?: string;
  response?: { headers: Record<string, string | number | undefined>; data?: unknown };
}

/** Octokit's error as the retry rules see it: GitHub's answer, or a request without one. */
function failureOf(error: unknown, timedOut: boolean, aborted: boolean, apiUrl: string): Failure {
  const { response, status } = (error ?? {}) as OctokitError;
  if (response && status !== undefined) {
    const header = (name: string) => {
      const value = response.headers[name];
      return value === undefined ? undefined : String(value);
    };
    const body = response.data === undefined ? undefined : JSON.stringify(response.data);
    // GitHub's secondary rate limit answers 403 with no quota left: a refusal, like 429.
    if (status === 403 && header('x-ratelimit-remaining') === '0') {
      const reset = Number(header('x-ratelimit-reset')) * 1000;
      const retryAfterMs = Number.isFinite(reset) ? Math.max(0, reset - Date.now()) : undefined;
      return { status: 429, retryAfterMs, body };
    }
    return { status, retryAfterMs: parseRetryAfter(header('retry-after'), Date.now()), body };
  }
  if (aborted) return new TransportError('aborted', 'aborted', true);
  if (timedOut) return new TransportError('no answer in time', 'timeout', true);
  // Octokit wraps what its fetch threw: the transport's own verdict (too large, refused).
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof TransportError) return cause;
  return describeNetworkError(error, apiUrl, "GitHub's");
}

/** `value` as `schema` says, or a GitHubError that says in words where the answer is wrong. */
function checked<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  const problems = explainIssues(schema, parsed.error.issues, {
    where: (path) => (path.length === 0 ? 'the answer' : `field '${issuePath('', path)}'`),
    // Its kind only: a value from GitHub's answer is no help to the reader.
    showsInput: () => false,
    max: 3,
  });
  throw new GitHubError(
    `Could not ${what}: GitHub's answer does not match its API: ${problems.join(' ')}`,
    undefined,
  );
}

/** The comment a create or an update wrote, from GitHub's answer. */
function written(data: unknown, what: string): Comment {
  const { id, html_url } = checked(answers().written, data, what);
  return { id, url: html_url };
}

const notTheOrigin = (origin: string) =>
  `not the API's origin ${origin}: the github-token goes to that origin only, so nothing was sent there`;

function refusedRedirect(status: number, { location, origin, reason }: RefusedRedirect): string {
  const moved = `GitHub answered HTTP ${status}, a redirect to ${location}`;
  if (reason === 'other-origin') return `${moved}, which is ${notTheOrigin(origin)}`;
  if (reason === 'not-a-read') return `${moved}: a write is never sent again to a redirect's target`;
  if (reason === 'too-many')
    return `${moved} after ${MAX_REDIRECTS} redirects within ${origin}: a redirect loop`;
  return `GitHub answered HTTP ${status}, a redirect without a usable Location`;
}

interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal | null;
}

/**
 * Octokit's fetch, over the service's transport and its rules: proxies, answers capped while
 * read, redirects of reads followed within the origin only, a time limit per request. A URL
 * outside the API's origin (a Link to a next page elsewhere) is refused before anything is sent.
 */
export function githubFetch(apiUrl: string, timeoutMs: number) {
  const { origin } = new URL(apiUrl);
  return async (url: string, init: FetchInit = {}): Promise<Response> => {
    const unusable = (message: string) => new TransportError(message, 'unusable', false, true);
    if (new URL(url).origin !== origin) throw unusable(`${url} is ${notTheOrigin(origin)}`);
    const method = init.method ?? 'GET';
    const signal = init.signal ?? undefined;
    const answer = await send(url, method, init.headers ?? {}, init.body, timeoutMs, signal, "GitHub's");
    const { status } = answer;
    if (answer.redirect) throw unusable(refusedRedirect(status, answer.redirect));
    if (status < 200 || status > 599)
      throw unusable(`GitHub answered HTTP ${status}, which HTTP does not have`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const each of [value ?? []].flat()) headers.append(name, each);
    }
    // A Response refuses a body with these statuses.
    const body = [204, 205, 304].includes(status) ? null : answer.body;
    return new Response(body, { status, headers });
  };
}

/** GitHub's `message`, when its answer has one. */
function githubMessage(body: string | undefined): string {
  try {
    const message = (JSON.parse(body ?? '') as { message?: unknown }).message;
    return typeof message === 'string' ? `: ${message.split('\n')[0]}` : '';
  } catch {
    return '';
  }
}

/** Requests to GitHub through the project's one retry mechanism, within a budget (`CommentContext`). */
class GitHubRequests {
  constructor(
    protected readonly octokit: Octokit,
    /** GitHub's REST API, for the messages about a proxy in the way. */
    private readonly apiUrl: string,
  ) {}

  protected async call<T>(
    what: string,
    rule: RetryRule,
    context: CommentContext,
    request: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const { clock, deadline } = context;
    try {
      return await withRetry(
        rule,
        {
          clock,
          deadline,
          signal: context.signal,
          onRetry: (failure, delayMs) => context.onRetry(what, retryReason(failure), delayMs),
        },
        async () => {
          const timeoutMs = Math.max(1, Math.min(context.requestTimeoutMs, deadline - clock.now()));
          const timeout = AbortSignal.timeout(timeoutMs);
          const signal = context.signal ? AbortSignal.any([timeout, context.signal]) : timeout;
          try {
            return { ok: true, value: await request(signal) };
          } catch (error) {
            return {
              ok: false,
              failure: failureOf(error, timeout.aborted, context.signal?.aborted === true, this.apiUrl),
            };
          }
        },
      );
    } catch (error) {
      if (!(error instanceof RetriesExhausted)) throw error;
      const { failure } = error;
      if (failure instanceof TransportError) {
        const reason = failure.describe('GitHub did not answer in time');
        throw new GitHubError(`Could not ${what}: ${reason}.`, undefined);
      }
      throw new GitHubError(
        `Could not ${what}: HTTP ${failure.status}${githubMessage(failure.body)}.`,
        failure.status,
      );
    }
  }

  /**
   * The items of a list, page after page as GitHub's Link header names them (Octokit requests an
   * absolute URL as it is, and githubFetch refuses one outside the API's origin), up to `maxPages`.
   */
  protected async *pages(
    first: string,
    what: (page: number) => string,
    context: CommentContext,
    maxPages = Number.POSITIVE_INFINITY,
  ): AsyncGenerator<{ data: unknown; what: string }> {
    let url: string | undefined = `GET ${first}`;
    for (let page = 1; url !== undefined && page <= maxPages; page++) {
      const request: string = url;
      const response: { data: unknown; headers: { link?: string } } = await this.call(
        what(page),
        'github',
        context,
        (signal) => this.octokit.request(request, { request: { signal } }),
      );
      yield { data: response.data, what: what(page) };
      const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.link ?? '')?.[1];
      url = next === undefined ? undefined : `GET ${next}`;
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
    const answer = await this.call(what, 'github', slice, async (signal) => {
      try {
        return await this.octokit.graphql<unknown>('query { viewer { login databaseId } }', {
          request: { signal },
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
    for await (const { data, what: listing } of this.pages(first, what, context)) {
      for (const comment of checked(answers().list, data, listing)) {
        if (comment.body?.includes(marker)) marked.push(comment);
      }
    }
    if (marked.length === 0) return undefined;
    const who = await identity();
    const own = who && marked.filter((comment) => isOwn(comment, who)).at(-1);
    return own ? { id: own.id, url: own.html_url, body: own.body ?? undefined } : undefined;
  }

  async update(comment: Comment, body: string, context: CommentContext): Promise<Comment> {
    const { owner, repo } = this.pullRequest;
    const what = 'update the pull request comment';
    const { data } = await this.call(what, 'github', context, (signal) =>
      this.octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: comment.id,
        body,
        request: { signal },
      }),
    );
    return written(data, what);
  }

  async create(body: string, context: CommentContext): Promise<Comment> {
    const { owner, repo, number } = this.pullRequest;
    const what = `comment on pull request #${number}`;
    const { data } = await this.call(what, 'github-create', context, (signal) =>
      this.octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: number,
        body,
        request: { signal },
      }),
    );
    return written(data, what);
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
    const what = `read pull request #${number}`;
    const { data } = await this.call(what, 'github', context, (signal) =>
      this.octokit.request(`GET ${this.path}/pulls/${number}`, { request: { signal } }),
    );
    return found(checked(answers().pull, data, what));
  }

  /**
   * GitHub's "pull requests associated with a commit" (the first 100): [] for a commit that is only
   * in a fork; 422 (no such commit here) is taken for [] too.
   */
  async ofCommit(sha: string, context: CommentContext): Promise<FoundPullRequest[]> {
    const what = `list the pull requests of commit ${sha.slice(0, 7)}`;
    const url = `GET ${this.path}/commits/${encodeURIComponent(sha)}/pulls?per_page=100`;
    try {
      const { data } = await this.call(what, 'github', context, (signal) =>
        this.octokit.request(url, { request: { signal } }),
      );
      return checked(answers().pulls, data, what).map(found);
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
    for await (const page of this.pages(`${this.path}/pulls?${query}`, what, context, maxPages)) {
      pulls.push(...checked(answers().pulls, page.data, page.what).map(found));
    }
    return pulls;
  }
}

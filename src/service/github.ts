import type { getOctokit } from '@actions/github';
import type { Clock } from './clock.js';
import {
  type Failure,
  parseRetryAfter,
  RetriesExhausted,
  type RetryRule,
  retryReason,
  withRetry,
} from './retry.js';
import { describeNetworkError, TransportError } from './transport.js';

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

interface ListedComment {
  id: number;
  html_url: string;
  body?: string;
  user?: { login?: string; id?: number; type?: string } | null;
}

/**
 * Whether a comment is the token's own: by its author's id (logins of bots differ between GraphQL
 * and REST in places; ids do not), else its login. Without an identity, only a bot's comment may
 * be: a person's never is.
 */
function isOwn(comment: ListedComment, identity: Identity | undefined): boolean {
  const author = comment.user ?? {};
  if (identity === undefined) return author.type === 'Bot';
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
  return describeNetworkError(error, apiUrl, "GitHub's");
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

/**
 * The comments of one pull request, through the project's one retry mechanism: listing and
 * updating are retried like reads, creating only when GitHub cannot have created the comment.
 */
export class PullRequestComments {
  constructor(
    private readonly octokit: Octokit,
    private readonly pullRequest: PullRequest,
    /** GitHub's REST API, for the messages about a proxy in the way. */
    private readonly apiUrl: string,
  ) {}

  private async call<T>(
    what: string,
    rule: RetryRule,
    context: CommentContext,
    send: (signal: AbortSignal) => Promise<T>,
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
            return { ok: true, value: await send(signal) };
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
   * Who the token acts as (GraphQL's viewer: the REST API's GET /user refuses the workflow's
   * token); undefined when GitHub cannot tell, e.g. a GraphQL error.
   */
  async identity(context: CommentContext): Promise<Identity | undefined> {
    const answer = await this.call(
      'learn who the github-token acts as',
      'github',
      context,
      async (signal) => {
        try {
          return await this.octokit.graphql<{ viewer?: { login?: string; databaseId?: number | null } }>(
            'query { viewer { login databaseId } }',
            { request: { signal } },
          );
        } catch (error) {
          // GitHub answered, with GraphQL errors: no retry will change that.
          if ((error as { name?: string }).name === 'GraphqlResponseError') return undefined;
          throw error;
        }
      },
    );
    const viewer = answer?.viewer;
    if (typeof viewer?.login !== 'string') return undefined;
    return { login: viewer.login, id: typeof viewer.databaseId === 'number' ? viewer.databaseId : undefined };
  }

  /**
   * The most recent of the token's own comments whose body holds `marker`, looking through every
   * page; `identity` is asked for only when some comment holds the marker.
   */
  async find(
    marker: string,
    context: CommentContext,
    identity: () => Promise<Identity | undefined>,
  ): Promise<Comment | undefined> {
    const { owner, repo, number } = this.pullRequest;
    const marked: ListedComment[] = [];
    let url: string | undefined = `GET /repos/${owner}/${repo}/issues/${number}/comments?per_page=100`;
    for (let page = 1; url !== undefined; page++) {
      const request: string = url;
      const response: { data: unknown; headers: { link?: string } } = await this.call(
        `list the comments of pull request #${number} (page ${page})`,
        'github',
        context,
        (signal) => this.octokit.request(request, { request: { signal } }),
      );
      for (const comment of response.data as ListedComment[]) {
        if (comment.body?.includes(marker)) marked.push(comment);
      }
      // GitHub's Link header names the next page; Octokit requests an absolute URL as it is.
      const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.link ?? '')?.[1];
      url = next === undefined ? undefined : `GET ${next}`;
    }
    if (marked.length === 0) return undefined;
    const who = await identity();
    const own = marked.filter((comment) => isOwn(comment, who)).at(-1);
    return own && { id: own.id, url: own.html_url, body: own.body };
  }

  async update(comment: Comment, body: string, context: CommentContext): Promise<Comment> {
    const { owner, repo } = this.pullRequest;
    const { data } = await this.call(`update the pull request comment`, 'github', context, (signal) =>
      this.octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: comment.id,
        body,
        request: { signal },
      }),
    );
    return { id: data.id, url: data.html_url };
  }

  async create(body: string, context: CommentContext): Promise<Comment> {
    const { owner, repo, number } = this.pullRequest;
    const { data } = await this.call(
      `comment on pull request #${number}`,
      'github-create',
      context,
      (signal) =>
        this.octokit.rest.issues.createComment({
          owner,
          repo,
          issue_number: number,
          body,
          request: { signal },
        }),
    );
    return { id: data.id, url: data.html_url };
  }
}

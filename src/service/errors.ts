/** A request failed for good; the message names the operation, how it failed and what to do. */
abstract class RequestFailed extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export class ServiceError extends RequestFailed {
  override name = 'ServiceError';
}

/** A sibling of ServiceError, so that a check for the service's errors never catches GitHub's. */
export class GitHubError extends RequestFailed {
  override name = 'GitHubError';
}

/**
 * GitHub's rate limit answered (a primary one: no requests left until `resetsAt`; a secondary one:
 * too many at once, for `waitMs` or, when GitHub does not say, a minute or more).
 */
export class RateLimited extends GitHubError {
  override name = 'RateLimited';
  constructor(
    message: string,
    status: number,
    readonly limit: { primary: boolean; waitMs?: number; resetsAt?: number },
    /** Refused before it was sent, by a limit the step has told of already. */
    readonly toldAlready = false,
  ) {
    super(message, status);
  }
}

/** A refusal that names a permission: 403 or 404, but not a rate limit, which GitHub answers with 403 too. */
export function isForbidden(error: unknown): boolean {
  const refused = error instanceof GitHubError && (error.status === 403 || error.status === 404);
  return refused && !(error instanceof RateLimited);
}

/** The `timeout` input expired, or the service asked for a wait (Retry-After) that would outlast it. */
export class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
  constructor(
    message: string,
    /** Set when the service was failing when time ran out: what failed. */
    readonly serviceFailure?: string,
    /** True when the step gave up before the time-out, rather than sleep through it. */
    readonly gaveUpEarly = false,
  ) {
    super(message);
  }
}

/** The job is being cancelled. */
export class Aborted extends Error {
  override name = 'Aborted';
  constructor(
    message: string,
    /** Whether the service may have acted on the last request (a start: a run may exist). */
    readonly mayHaveActed: boolean,
    /** True when that request was abandoned unanswered because of the cancellation. */
    readonly abandoned: boolean,
  ) {
    super(message);
  }
}

import type { Clock } from './clock.js';
import { type RefusedRedirect, TransportError } from './transport.js';

/** An attempt that failed: a transport error, or an HTTP answer with an error status. */
export type Failure = TransportError | HttpFailure;

export interface HttpFailure {
  status: number;
  retryAfterMs?: number;
  body?: string;
  /** A redirect that was not followed. */
  redirect?: RefusedRedirect;
}

const BACKOFF_BASE_MS = 1000;
export const BACKOFF_CAP_MS = 30_000;
export const RETRY_AFTER_CAP_MS = 120_000;
/** How long polls keep retrying through an outage before giving up. */
export const OUTAGE_BUDGET_MS = 10 * 60_000;

const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);
/**
 * Answers that say the service refused the request without acting on it: 429, and 503 on the
 * usual reading of HTTP (an assumption the README states). A start is sent again after these only.
 */
const REFUSALS: ReadonlySet<number> = new Set([429, 503]);

interface RuleSpec {
  /** Answers worth another attempt. */
  statuses: ReadonlySet<number>;
  /** Whether a request that may have reached the server may be sent again (it is idempotent). */
  idempotent: boolean;
  maxAttempts: number;
  /** Infinity where every caller's deadline is the bound (the cancel's, the comment's). */
  maxElapsedMs: number;
}

/**
 * What is safe to retry, per kind of operation. A request that is not idempotent is sent again
 * only when the server cannot have acted on it: it never reached it, or the answer refused it
 * (429, and for the service 503, on the usual reading of HTTP that the README states).
 */
const RULES = {
  /** Polls and results: ridden through outages. */
  read: {
    statuses: TRANSIENT,
    idempotent: true,
    maxAttempts: Number.POSITIVE_INFINITY,
    maxElapsedMs: OUTAGE_BUDGET_MS,
  },
  /** Starting a run. */
  start: { statuses: REFUSALS, idempotent: false, maxAttempts: 5, maxElapsedMs: 2 * 60_000 },
  /** Cancelling a run: idempotent, but sent while the job is ending, so only briefly retried. */
  cancel: { statuses: TRANSIENT, idempotent: true, maxAttempts: 3, maxElapsedMs: Number.POSITIVE_INFINITY },
  /** Listing or updating pull request comments. */
  github: { statuses: TRANSIENT, idempotent: true, maxAttempts: 6, maxElapsedMs: Number.POSITIVE_INFINITY },
  /** Creating a comment: sent again only when GitHub refused it, so that no retry leaves two. */
  'github-create': {
    // 429 only: GitHub's 503 is not read as a refusal, since a comment behind it may exist.
    statuses: new Set([429]),
    idempotent: false,
    maxAttempts: 4,
    maxElapsedMs: Number.POSITIVE_INFINITY,
  },
} satisfies Record<string, RuleSpec>;

export type RetryRule = keyof typeof RULES;

/**
 * Whether the server may have acted on a request that failed this way: it may have reached the
 * server and the answer says nothing else. 4xx and the refusals say it did not; so does a
 * redirect, but for 303, which answers a request that was processed.
 */
export function mayHaveActed(failure: Failure): boolean {
  if (failure instanceof TransportError) return failure.mayHaveReached;
  return failure.status === 303 || (failure.status >= 500 && !REFUSALS.has(failure.status));
}

export function isRetryable(rule: RetryRule, failure: Failure): boolean {
  const spec: RuleSpec = RULES[rule];
  if (failure instanceof TransportError) {
    if (failure.kind === 'aborted' || failure.permanent) return false;
    return spec.idempotent || !mayHaveActed(failure);
  }
  return spec.statuses.has(failure.status);
}

/** Exponential backoff with full jitter: a random delay up to min(cap, base * 2^attempt). */
export function backoffDelay(attempt: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now; undefined when absent or malformed. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The delay before the next attempt: the service's `Retry-After` when it gave one (bounded), else backoff. */
export function retryDelay(failure: Failure, attempt: number, random: () => number): number {
  const asked = failure instanceof TransportError ? undefined : failure.retryAfterMs;
  // `Retry-After: 0` (or a date in the past) falls back to backoff: no tight loop against a busy service.
  return asked ? Math.min(asked, RETRY_AFTER_CAP_MS) : backoffDelay(attempt, random);
}

/** Why the retries stopped (`retry-after`: the wait asked for reaches past the deadline), after what. */
export interface Stop {
  failure: Failure;
  reason: 'not-retryable' | 'budget' | 'deadline' | 'retry-after' | 'aborted';
  attempts: number;
  elapsedMs: number;
  /** Time left before the deadline when it stopped. */
  timeLeftMs: number;
}

interface RetryContext {
  clock: Clock;
  /** Absolute time (clock ms) after which no attempt starts. */
  deadline: number;
  signal?: AbortSignal;
  onRetry?: (failure: Failure, delayMs: number, attempt: number) => void;
  /** The error thrown when the retries stop. */
  stopped: (stop: Stop) => Error;
}

/**
 * Runs `attempt` until it succeeds, a failure is not retryable under `rule`, or the rule's budget
 * or the deadline runs out. `attempt` returns the value, or a Failure to retry.
 */
export async function withRetry<T>(
  rule: RetryRule,
  context: RetryContext,
  attempt: (attemptNumber: number) => Promise<{ ok: true; value: T } | { ok: false; failure: Failure }>,
): Promise<T> {
  const { clock, deadline, signal } = context;
  const limits: RuleSpec = RULES[rule];
  const started = clock.now();
  for (let attempts = 1; ; attempts++) {
    const result = await attempt(attempts);
    if (result.ok) return result.value;
    const { failure } = result;
    const delay = retryDelay(failure, attempts - 1, clock.random);
    const resumeAt = clock.now() + delay;
    const stop = (reason: Stop['reason']) =>
      context.stopped({
        failure,
        reason,
        attempts,
        elapsedMs: clock.now() - started,
        timeLeftMs: deadline - clock.now(),
      });
    if (signal?.aborted || (failure instanceof TransportError && failure.kind === 'aborted'))
      throw stop('aborted');
    if (!isRetryable(rule, failure)) throw stop('not-retryable');
    if (resumeAt >= deadline) {
      const asked = !(failure instanceof TransportError) && (failure.retryAfterMs ?? 0) > 0;
      throw stop(asked ? 'retry-after' : 'deadline');
    }
    if (attempts >= limits.maxAttempts || resumeAt - started > limits.maxElapsedMs) throw stop('budget');
    context.onRetry?.(failure, delay, attempts);
    await clock.sleep(delay, signal);
    if (signal?.aborted) throw stop('aborted');
  }
}

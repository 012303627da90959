import { formatDuration } from '../runner/duration.js';
import { info } from '../runner/log.js';
import { cut, line } from '../runner/text.js';
import type { Clock } from './clock.js';
import { Aborted, DeadlineExceeded, RateLimited } from './errors.js';
import { type HttpAnswer, MAX_REDIRECTS, type RefusedRedirect, send, TransportError } from './transport.js';

export interface CallContext {
  /** Absolute clock time after which no request starts and none runs on. */
  deadline: number;
  /** Aborts the request in flight, and stops the retries unless `stopRetriesOn` is given. */
  signal?: AbortSignal;
  /** Stops the retries, not the request in flight (a start, whose answer is needed to cancel the run). */
  stopRetriesOn?: AbortSignal;
  requestTimeoutMs?: number;
}

type Failure = TransportError | (HttpAnswer & { retryAfterMs?: number });

const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 30_000;
/**
 * A retry is sent only with this much time left before the deadline: one cut to a few milliseconds
 * cannot be answered, and a start cut short may have acted, so it would end the retries with "may
 * have started the run" where the last failure is the truth.
 */
const MIN_RETRY_MS = 250;
const RETRY_AFTER_CAP_MS = 120_000;
/** A rate limit without Retry-After (GitHub's secondary one): GitHub's advice is a minute at least, longer on each repeat. */
const RATE_LIMIT_WAIT_MS = 60_000;
const RATE_LIMIT_TRIES = 3;

const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);
/** Answers that say the service refused the request without acting on it: see RULES. */
const REFUSALS: ReadonlySet<number> = new Set([429, 503]);

interface RuleSpec {
  statuses: ReadonlySet<number>;
  /** Whether a request that may have reached the server may be sent again. */
  idempotent: boolean;
  maxAttempts?: number;
  /** Unset where every caller's deadline is the bound (the cancel's, the comment's). */
  maxElapsedMs?: number;
}

/**
 * A request that is not idempotent is sent again only when the server cannot have acted on it:
 * it never reached it, or the answer refused it (429, and for the service 503, on the usual
 * reading of HTTP that the README states).
 */
const RULES = {
  /** Polls and results: ridden through outages of up to ten minutes. */
  read: { statuses: TRANSIENT, idempotent: true, maxElapsedMs: 10 * 60_000 },
  start: { statuses: REFUSALS, idempotent: false, maxAttempts: 5, maxElapsedMs: 2 * 60_000 },
  /** Sent while the job is ending, so only briefly retried. */
  cancel: { statuses: TRANSIENT, idempotent: true, maxAttempts: 3 },
  github: { statuses: TRANSIENT, idempotent: true, maxAttempts: 6 },
  /**
   * Sent again here only when it never reached GitHub: a 503 may hide a comment, and GitHub's
   * refusals are rate limits, after which `again` looks for what the create would have made.
   */
  'github-create': { statuses: new Set(), idempotent: false, maxAttempts: 4 },
} satisfies Record<string, RuleSpec>;

export type RetryRule = keyof typeof RULES;

/**
 * Whether the server may have acted on a request that failed this way. 4xx and the refusals say
 * it did not; so does a redirect, but for 303, which answers a request that was processed.
 */
function mayHaveActed(failure: Failure): boolean {
  if (failure instanceof TransportError) return failure.mayHaveReached;
  return failure.status === 303 || (failure.status >= 500 && !REFUSALS.has(failure.status));
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`. */
export function parseRetryAfter(text: string | null, now: number): number | undefined {
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The answer's `error` (or `field`) text, or the start of a non-JSON body, on one line, short. */
export function errorText(body: string | undefined, field = 'error'): string {
  if (!body) return '';
  let text = body;
  try {
    const said = (JSON.parse(body) as Record<string, unknown> | null)?.[field];
    if (typeof said === 'string') text = said;
  } catch {
    // not JSON: show the start of the body
  }
  // The log masks secrets, and the reports redact and escape it again.
  const clean = cut(text.replace(/\s+/g, ' ').trim(), 300);
  return clean ? `: ${clean}` : '';
}

const MAY_HAVE_STARTED =
  'The service may have started the run anyway, so the request was not repeated: check the runs on the service before re-running this job.';

/** Who answers, as its failures are told: the service, or GitHub. */
export interface Party {
  name: string;
  /** The field of an error answer that says why: the service's `error`, GitHub's `message`. */
  errorField: string;
  /** Why a redirect out of the origin, or of a write, was not followed, and what to do about it. */
  redirect: { otherOrigin: (origin: string) => string; notARead: string };
  /** What to do about an HTTP status; none for GitHub's, explained where the step knows why it asked. */
  advice?(status: number, request: Request): string | undefined;
  /** The error a failed request ends in, when the job was not cancelled and no time-out explains it. */
  failed(message: string, status?: number): Error;
  /** A rate limit the answer tells of (GitHub's): waited out within `RateLimits`, else thrown. */
  rateLimit?(answer: HttpAnswer, operation: Request, now: number): RateLimited | undefined;
}

/**
 * A connection's rate limits (GitHub's): waited out on top of a request's budget, within a bound of
 * their own; a limit given up on holds every request of the connection until it lifts.
 */
export interface RateLimits {
  /** The job's cancellation: it cuts a wait short (a write then goes at once, within what is left). */
  signal: AbortSignal;
  /** A cancelled job's deadline, which no request outlasts. */
  until: () => number | undefined;
  /** How long one request may wait for them in all. */
  rateLimitMs: number;
  held?: { until: number; limited: RateLimited };
}

/** Past the rate limit's own bound: one line that names the limit and when it lifts, never a permission. */
function stillLimited(limited: RateLimited, waitedMs: number, now: number): RateLimited {
  const { primary, resetsAt, waitMs } = limited.limit;
  const which = primary
    ? "GitHub's rate limit for this token is used up"
    : "GitHub's secondary rate limit applies";
  const waited = waitedMs > 0 ? ` after waiting ${formatDuration(waitedMs)}` : '';
  const lifts = resetsAt ?? (waitMs === undefined ? undefined : now + waitMs);
  const when =
    lifts === undefined ? 'in a few minutes' : `at ${new Date(lifts).toISOString().slice(11, 19)} UTC`;
  const message = `${limited.message} (${which}${waited}; it lifts ${when}).`;
  return new RateLimited(message, limited.status ?? 429, limited.limit);
}

const untilOf = (limits?: RateLimits) => limits?.until() ?? Number.POSITIVE_INFINITY;

/** The rate limits a request met, and how long it waited for them. */
type Waits = { count: number; ms: number };

/** Waits out one more rate limit, or, past the tries or the bound, throws it and holds the connection. */
async function waitOut(limited: RateLimited, name: string, context: RequestContext, waits: Waits) {
  const { clock, rateLimits: limits } = context;
  const waitMs = limited.limit.waitMs ?? RATE_LIMIT_WAIT_MS * 2 ** waits.count;
  const left = Math.min((limits?.rateLimitMs ?? 0) - waits.ms, untilOf(limits) - clock.now());
  if (!limits || ++waits.count >= RATE_LIMIT_TRIES || waitMs > left) {
    const still = stillLimited(limited, waits.ms, clock.now());
    if (limits) limits.held = { until: limited.limit.resetsAt ?? clock.now() + waitMs, limited: still };
    throw still;
  }
  info(line`GitHub's rate limit: trying to ${name} again in ${formatDuration(waitMs)}.`);
  await clock.sleep(waitMs, limits.signal.aborted ? undefined : limits.signal);
  waits.ms += waitMs;
  return waitMs;
}

function describeRedirect(party: Party, status: number, redirect: RefusedRedirect): string {
  const { location, origin, reason } = redirect;
  const moved = `${party.name} answered HTTP ${status}, a redirect to ${location}`;
  if (reason === 'other-origin') return `${moved}, which is ${party.redirect.otherOrigin(origin)}`;
  if (reason === 'not-a-read') return `${moved}: ${party.redirect.notARead}`;
  if (reason === 'too-many')
    return `${moved} after ${MAX_REDIRECTS} redirects within ${origin}: a redirect loop.`;
  return `${party.name} answered HTTP ${status}, a redirect without a usable Location.`;
}

/** Why the retries stopped (`retry-after`: the wait asked for reaches past the deadline), after what. */
interface Stop {
  failure: Failure;
  reason: 'failed' | 'deadline' | 'retry-after' | 'aborted';
  attempts: number;
  elapsedMs: number;
  timeLeftMs: number;
}

function describeFailure(party: Party, operation: Request, { failure, attempts, elapsedMs }: Stop): string {
  const tries = attempts > 1 ? ` (gave up after ${attempts} attempts over ${formatDuration(elapsedMs)})` : '';
  const start = `Could not ${operation.name}`;
  const mayHaveStarted = operation.rule === 'start' && mayHaveActed(failure);
  if (!(failure instanceof TransportError) && failure.redirect) {
    const redirect = `${start}: ${describeRedirect(party, failure.status, failure.redirect)}`;
    return mayHaveStarted ? `${redirect} ${MAY_HAVE_STARTED}` : redirect;
  }
  const what =
    failure instanceof TransportError
      ? failure.describe(`${party.name} did not answer (${failure.message})`)
      : `HTTP ${failure.status}${errorText(failure.body, party.errorField)}`;
  const advice = failure instanceof TransportError ? undefined : party.advice?.(failure.status, operation);
  const next = advice ?? (mayHaveStarted ? MAY_HAVE_STARTED : undefined);
  return next ? `${start}: ${what}. ${next}` : `${start}: ${what}${tries}.`;
}

/** The job's cancellation, the time-out (a read's deadline is the `timeout` input's), or a failure. */
function settle(party: Party, operation: Request, stop: Stop): Error {
  const { failure, reason } = stop;
  if (reason === 'aborted') {
    const abandoned = failure instanceof TransportError && failure.kind === 'aborted';
    const message = abandoned
      ? `Cancelled while trying to ${operation.name}.`
      : describeFailure(party, operation, stop);
    return new Aborted(message, mayHaveActed(failure), abandoned);
  }
  // A wait the service asks for past a read's deadline is not slept through, and the step says so.
  if (reason === 'retry-after' && operation.rule === 'read') {
    const askedMs = failure instanceof TransportError ? 0 : (failure.retryAfterMs ?? 0);
    const asked = `${describeFailure(party, operation, stop)} The service asked to wait ${formatDuration(askedMs)} (Retry-After) before trying again, longer than the ${formatDuration(stop.timeLeftMs)} left before the time-out ('timeout' input): the step stopped waiting.`;
    return new DeadlineExceeded(asked, asked, true);
  }
  // One read cut short by the deadline is the time-out at work; anything else means the service
  // was failing when time ran out. (A start or a cancel is reported with its own last failure.)
  if (reason === 'deadline' && operation.rule === 'read') {
    const cutShort = failure instanceof TransportError && failure.kind === 'timeout' && stop.attempts === 1;
    return new DeadlineExceeded(
      `The time-out expired while trying to ${operation.name}.`,
      cutShort ? undefined : describeFailure(party, operation, stop),
    );
  }
  const status = failure instanceof TransportError ? undefined : failure.status;
  return party.failed(describeFailure(party, operation, stop), status);
}

export interface Request {
  /** What the request does, as a phrase after "Could not": "get project run 'r1'". */
  name: string;
  rule: RetryRule;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What a 404 means: "Project 'p' was not found". */
  notFound?: string;
}

export interface RequestContext extends CallContext {
  clock: Clock;
  requestTimeoutMs: number;
  /** Told of every request sent, retries included (GitHub's count of the step). */
  onSend?: () => void;
  /** Without them, a rate limit is not waited out. */
  rateLimits?: RateLimits;
  /** After a rate limit's wait, whether to send again: not a create GitHub carried out all the same. */
  again?: () => Promise<boolean>;
}

/**
 * Sends `request` until it is answered with a success, or its rule says to stop and settle() throws.
 * A rate limit's wait comes on top of the deadline.
 */
export async function request(party: Party, request: Request, context: RequestContext): Promise<HttpAnswer> {
  const { clock, rateLimits } = context;
  const signal = context.stopRetriesOn ?? context.signal;
  const rule: RuleSpec = RULES[request.rule];
  const { url, method, headers, body } = request;
  const started = clock.now();
  let { deadline } = context;
  const waits = { count: 0, ms: 0 };
  for (let attempts = 1; ; attempts++) {
    const held = rateLimits?.held;
    if (held && clock.now() < held.until) {
      const { message, status, limit } = held.limited;
      throw new RateLimited(message, status ?? 429, limit, true);
    }
    const limit = { ms: Math.max(1, Math.min(context.requestTimeoutMs, deadline - clock.now())), clock };
    let failure: Failure;
    try {
      context.onSend?.();
      const answer = await send(url, method, headers, body, limit, context.signal, `${party.name}'s`);
      if (answer.status >= 200 && answer.status < 300) return answer;
      const limited = party.rateLimit?.(answer, request, clock.now());
      if (limited) {
        const waitMs = await waitOut(limited, request.name, context, waits);
        deadline = Math.min(deadline + waitMs, untilOf(rateLimits));
        if (!((await context.again?.()) ?? true)) throw limited;
        continue;
      }
      failure = { ...answer, retryAfterMs: parseRetryAfter(answer.headers.get('retry-after'), clock.now()) };
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      failure = error;
    }
    const asked = failure instanceof TransportError ? undefined : failure.retryAfterMs;
    const backoff = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempts - 1));
    // Full jitter, also for `Retry-After: 0` or a past date: no tight loop against a busy service.
    const delay = asked ? Math.min(asked, RETRY_AFTER_CAP_MS) : Math.floor(clock.random() * backoff);
    const resumeAt = clock.now() + delay;
    const stop = (reason: Stop['reason']) => {
      const elapsedMs = clock.now() - started;
      const timeLeftMs = deadline - clock.now();
      return settle(party, request, { failure, reason, attempts, elapsedMs, timeLeftMs });
    };
    if (signal?.aborted || (failure instanceof TransportError && failure.kind === 'aborted'))
      throw stop('aborted');
    const retryable =
      failure instanceof TransportError
        ? !failure.permanent && (rule.idempotent || !mayHaveActed(failure))
        : rule.statuses.has(failure.status);
    if (!retryable) throw stop('failed');
    if (resumeAt + MIN_RETRY_MS > deadline) throw stop(asked ? 'retry-after' : 'deadline');
    const overBudget = resumeAt - started > (rule.maxElapsedMs ?? Number.POSITIVE_INFINITY);
    if (attempts >= (rule.maxAttempts ?? Number.POSITIVE_INFINITY) || overBudget) throw stop('failed');
    const said = failure instanceof TransportError ? failure.message : `HTTP ${failure.status}`;
    const timedOut = failure instanceof TransportError && failure.kind === 'timeout';
    info(
      line`Could not ${request.name} (${timedOut ? 'no answer' : said}); attempt ${attempts + 1} in ${formatDuration(delay)}.`,
    );
    await clock.sleep(delay, signal);
    if (signal?.aborted) throw stop('aborted');
    // A timer fires late on a busy machine.
    if (deadline - clock.now() < MIN_RETRY_MS) throw stop('deadline');
  }
}

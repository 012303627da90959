import { info } from '../runner/log.js';
import { cut, line } from '../runner/text.js';
import type { Clock } from './clock.js';
import { Aborted, DeadlineExceeded } from './errors.js';
import {
  type HttpFailure,
  mayHaveActed,
  parseRetryAfter,
  type RetryRule,
  type Stop,
  withRetry,
} from './retry.js';
import { type HttpAnswer, MAX_REDIRECTS, type RefusedRedirect, send, TransportError } from './transport.js';

/**
 * The one path of a request to the service or to GitHub: sent (transport.ts), retried by its rule
 * (retry.ts), and when the retries stop, thrown as the error that outcome is, in words that name
 * the request, how it failed and what to do.
 */

export interface CallContext {
  /** Absolute clock time after which no request starts and none runs on. */
  deadline: number;
  /** Aborts the request in flight, and stops the retries unless `stopRetriesOn` is given. */
  signal?: AbortSignal;
  /**
   * Stops the retries without aborting the request in flight (a start, whose answer is needed to
   * cancel the run): that request runs on until `signal` aborts it or the deadline passes.
   */
  stopRetriesOn?: AbortSignal;
  /** Per-request time-out; defaults to the client's. */
  requestTimeoutMs?: number;
}

/** `1.5 s`, `62 s`: how long a retry waits or a failing operation lasted, in the service's messages. */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

const MAX_ERROR_TEXT = 300;

/** The answer's `error` (or `field`) text, or the start of a non-JSON body, on one line, short. */
export function errorText(body: string | undefined, field = 'error'): string {
  if (!body) return '';
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    const said = (parsed as Record<string, unknown> | null)?.[field];
    if (typeof said === 'string') text = said;
  } catch {
    // not JSON: show the start of the body
  }
  // On one line and short; the log masks secrets, and the reports redact and escape it again.
  const clean = cut(text.replace(/\s+/g, ' ').trim(), MAX_ERROR_TEXT);
  return clean ? `: ${clean}` : '';
}

const MAY_HAVE_STARTED =
  'The service may have started the run anyway, so the request was not repeated: check the runs on the service before re-running this job.';

/** Who answers, as its failures are told: the service, or GitHub. */
export interface Party {
  /** "the service", "GitHub": the subject of "… did not answer". */
  name: string;
  /** The field of an error answer that says why: the service's `error`, GitHub's `message`. */
  errorField: string;
  /** Why a redirect out of the origin, or of a write, was not followed, and what to do about it. */
  redirect: { otherOrigin: (origin: string) => string; notARead: string };
  /** What to do about an answer with this status, if there is something to say. */
  advice(status: number, request: Request): string | undefined;
  /** The error a failed request ends in, when the job was not cancelled and no time-out explains it. */
  failed(message: string, status?: number): Error;
  /** A delay the answer asks for, besides Retry-After (GitHub's rate limit); the failure's status as read. */
  refusal?(answer: HttpAnswer): { status: number; retryAfterMs?: number } | undefined;
}

function describeRedirect(
  party: Party,
  status: number,
  { location, origin, reason }: RefusedRedirect,
): string {
  const moved = `${party.name} answered HTTP ${status}, a redirect to ${location}`;
  if (reason === 'other-origin') return `${moved}, which is ${party.redirect.otherOrigin(origin)}`;
  if (reason === 'not-a-read') return `${moved}: ${party.redirect.notARead}`;
  if (reason === 'too-many')
    return `${moved} after ${MAX_REDIRECTS} redirects within ${origin}: a redirect loop.`;
  return `${party.name} answered HTTP ${status}, a redirect without a usable Location.`;
}

function describeFailure(party: Party, operation: Request, stop: Stop): string {
  const { failure, attempts, elapsedMs } = stop;
  const tries = attempts > 1 ? ` (gave up after ${attempts} attempts over ${seconds(elapsedMs)})` : '';
  const start = `Could not ${operation.name}`;
  const mayHaveStarted = operation.rule === 'start' && mayHaveActed(failure);
  if (failure instanceof TransportError) {
    const what = failure.describe(`${party.name} did not answer (${failure.message})`);
    if (mayHaveStarted) return `${start}: ${what}. ${MAY_HAVE_STARTED}`;
    return `${start}: ${what}${tries}.`;
  }
  if (failure.redirect) {
    const redirect = `${start}: ${describeRedirect(party, failure.status, failure.redirect)}`;
    return mayHaveStarted ? `${redirect} ${MAY_HAVE_STARTED}` : redirect;
  }
  const status = `${start}: HTTP ${failure.status}${errorText(failure.body, party.errorField)}`;
  const advice = party.advice(failure.status, operation);
  if (advice) return `${status}. ${advice}`;
  if (mayHaveStarted) return `${status}. ${MAY_HAVE_STARTED}`;
  return `${status}${tries}.`;
}

/**
 * The error a request that stopped being retried ends in: the job's cancellation, the time-out
 * (for a read, whose deadline is the `timeout` input's), or the party's failure.
 */
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
    const asked = `${describeFailure(party, operation, stop)} The service asked to wait ${seconds(askedMs)} (Retry-After) before trying again, longer than the ${seconds(stop.timeLeftMs)} left before the time-out ('timeout' input): the step stopped waiting.`;
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

/** One request to either party, as its rule retries it. */
export interface Request {
  /** What the request does, as a phrase after "Could not": "get project run 'r1'". */
  name: string;
  rule: RetryRule;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What a 404 means for this request, where the party says. */
  notFound?: string;
}

/** What a request needs besides itself: the time, the deadlines, the cancellation, the log. */
export interface RequestContext extends CallContext {
  clock: Clock;
  requestTimeoutMs: number;
  /** Told of each retry; the default logs "Could not … (…); attempt 2 in 1.5 s.". */
  onRetry?: (failure: string, delayMs: number, attempt: number) => void;
}

/**
 * Sends `request` until it is answered with a success, or its rule says to stop; then throws the
 * error that outcome is (settle). The service's and GitHub's requests both come through here.
 */
export async function request(party: Party, request: Request, context: RequestContext): Promise<HttpAnswer> {
  const { clock, deadline } = context;
  return withRetry(
    request.rule,
    {
      clock,
      deadline,
      signal: context.stopRetriesOn ?? context.signal,
      onRetry: (failure, delayMs, attempt) => {
        const timedOut = failure instanceof TransportError && failure.kind === 'timeout';
        const reason = failure instanceof TransportError ? failure.message : `HTTP ${failure.status}`;
        const said = timedOut ? 'no answer' : reason;
        if (context.onRetry) return context.onRetry(said, delayMs, attempt);
        info(line`Could not ${request.name} (${said}); attempt ${attempt + 1} in ${seconds(delayMs)}.`);
      },
      stopped: (stop) => settle(party, request, stop),
    },
    async () => {
      const timeoutMs = Math.max(1, Math.min(context.requestTimeoutMs, deadline - clock.now()));
      const { url, method, headers, body } = request;
      try {
        const answer = await send(url, method, headers, body, timeoutMs, context.signal, `${party.name}'s`);
        if (answer.status >= 200 && answer.status < 300) return { ok: true, value: answer };
        const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after') ?? undefined, Date.now());
        const failure: HttpFailure = { ...answer, retryAfterMs, ...party.refusal?.(answer) };
        return { ok: false, failure };
      } catch (error) {
        if (error instanceof TransportError) return { ok: false, failure: error };
        throw error;
      }
    },
  );
}

import type { z } from 'zod/mini';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from './clock.js';
import { Aborted, DeadlineExceeded, ServiceError } from './errors.js';
import {
  type HttpFailure,
  mayHaveActed,
  parseRetryAfter,
  RetriesExhausted,
  type RetryRule,
  retryReason,
  withRetry,
} from './retry.js';
import { MAX_REDIRECTS, type RefusedRedirect, send, TransportError } from './transport.js';
import { explainIssues, issuePath } from './validation.js';

export interface Operation<T> {
  /** What the request does, as a phrase after "Could not": "get project run 'r1'". */
  name: string;
  /** Path below the base URL, ids already encoded. */
  path: string;
  body?: unknown;
  /** How it is retried; a read is a GET, anything else a POST. */
  rule: RetryRule;
  /** What a successful answer must look like; built when the first answer comes. */
  schema: () => z.ZodMiniType<T>;
  /** What a 404 means for this operation: "Project 'p' was not found". */
  notFound: string;
}

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

/** The service's `error` text (or the start of a non-JSON body), on one line, without secrets. */
function serviceErrorText(body: string | undefined): string {
  if (!body) return '';
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      typeof (parsed as { error?: unknown }).error === 'string'
    ) {
      text = (parsed as { error: string }).error;
    }
  } catch {
    // not JSON: show the start of the body
  }
  // On one line and short; the log masks secrets, and the reports redact and escape it again.
  const line = text.replace(/\s+/g, ' ').trim();
  const clean = line.length > MAX_ERROR_TEXT ? `${line.slice(0, MAX_ERROR_TEXT - 1)}…` : line;
  return clean ? `: ${clean}` : '';
}

const MAY_HAVE_STARTED =
  'The service may have started the run anyway, so the request was not repeated: check the runs on the service before re-running this job.';

/** Why a redirect was not followed, and what to do about it. */
function describeRedirect(status: number, { location, origin, reason }: RefusedRedirect): string {
  const moved = `the service answered HTTP ${status}, a redirect to ${location ?? '(no Location)'}`;
  switch (reason) {
    case 'other-origin':
      return `${moved}, which is not base-url's origin ${origin}: the API key goes to that origin only, so the redirect was not followed. If the service has moved, set base-url to its new address.`;
    case 'not-a-read':
      return `${moved}: a request that may start or change a run is never sent again to a redirect's target (it could start a second run, or one elsewhere). Set base-url to the service's address.`;
    case 'too-many':
      return `${moved} after ${MAX_REDIRECTS} redirects within ${origin}: a redirect loop.`;
    case 'no-location':
      return `the service answered HTTP ${status}, a redirect without a usable Location.`;
  }
}

function describeFailure<T>(operation: Operation<T>, stop: RetriesExhausted): string {
  const { failure, attempts, elapsedMs } = stop;
  const tries = attempts > 1 ? ` (gave up after ${attempts} attempts over ${seconds(elapsedMs)})` : '';
  const start = `Could not ${operation.name}`;
  const mayHaveStarted = operation.rule === 'start' && mayHaveActed(failure);
  if (failure instanceof TransportError) {
    const what = failure.describe(`the service did not answer (${failure.message})`);
    if (mayHaveStarted) return `${start}: ${what}. ${MAY_HAVE_STARTED}`;
    return `${start}: ${what}${tries}.`;
  }
  if (failure.redirect) {
    const redirect = `${start}: ${describeRedirect(failure.status, failure.redirect)}`;
    return mayHaveStarted ? `${redirect} ${MAY_HAVE_STARTED}` : redirect;
  }
  const status = `${start}: HTTP ${failure.status}${serviceErrorText(failure.body)}`;
  if (failure.status === 401 || failure.status === 403) {
    return `${status}. The API key is wrong or lacks permission: create one in the API key settings of the service's dashboard (developer or owner permission is needed to see them) and pass it through a secret.`;
  }
  if (failure.status === 404) return `${status}. ${operation.notFound}.`;
  if (mayHaveStarted) return `${status}. ${MAY_HAVE_STARTED}`;
  return `${status}${tries}.`;
}

export class ServiceClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly requestTimeoutMs: number,
    private readonly clock: Clock,
  ) {}

  async call<T>(operation: Operation<T>, context: CallContext): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: 'application/json',
    };
    const body = operation.body === undefined ? undefined : JSON.stringify(operation.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const url = `${this.baseUrl}${operation.path}`;
    const requestTimeoutMs = context.requestTimeoutMs ?? this.requestTimeoutMs;

    let answer: { status: number; body: string; contentType?: string };
    try {
      answer = await withRetry(
        operation.rule,
        {
          clock: this.clock,
          deadline: context.deadline,
          signal: context.stopRetriesOn ?? context.signal,
          onRetry: (failure, delayMs, attempt) =>
            info(
              line`Could not ${operation.name} (${retryReason(failure)}); attempt ${attempt + 1} in ${seconds(delayMs)}.`,
            ),
        },
        async () => {
          const timeoutMs = Math.max(1, Math.min(requestTimeoutMs, context.deadline - this.clock.now()));
          try {
            const result = await send(
              url,
              operation.rule === 'read' ? 'GET' : 'POST',
              headers,
              body,
              timeoutMs,
              context.signal,
            );
            if (result.status >= 200 && result.status < 300) {
              return {
                ok: true,
                value: {
                  status: result.status,
                  body: result.body,
                  contentType: result.headers['content-type'],
                },
              };
            }
            const failure: HttpFailure = {
              status: result.status,
              retryAfterMs: parseRetryAfter(result.headers['retry-after'], Date.now()),
              body: result.body,
              redirect: result.redirect,
            };
            return { ok: false, failure };
          } catch (error) {
            if (error instanceof TransportError) return { ok: false, failure: error };
            throw error;
          }
        },
      );
    } catch (error) {
      if (!(error instanceof RetriesExhausted)) throw error;
      if (error.reason === 'aborted') {
        const abandoned = error.failure instanceof TransportError && error.failure.kind === 'aborted';
        throw new Aborted(
          abandoned ? `Cancelled while trying to ${operation.name}.` : describeFailure(operation, error),
          mayHaveActed(error.failure),
          abandoned,
        );
      }
      // A read's deadline is the time-out's: a wait the service asks for past it is not slept
      // through, and the step says so. (A cancel's or a start's is the job's: its last failure.)
      if (error.reason === 'retry-after' && operation.rule === 'read') {
        const askedMs = error.failure instanceof TransportError ? 0 : (error.failure.retryAfterMs ?? 0);
        const asked = `${describeFailure(operation, error)} The service asked to wait ${seconds(askedMs)} (Retry-After) before trying again, longer than the ${seconds(error.timeLeftMs)} left before the time-out ('timeout' input): the step stopped waiting.`;
        throw new DeadlineExceeded(asked, asked, true);
      }
      // A read that runs into the deadline means the run timed out; a start or a cancel that does
      // is reported with its own last failure.
      if (error.reason === 'deadline' && operation.rule === 'read') {
        // One request cut short by the deadline is the time-out at work; anything else means the
        // service was failing when time ran out.
        const { failure, attempts } = error;
        const cutShort = failure instanceof TransportError && failure.kind === 'timeout' && attempts === 1;
        throw new DeadlineExceeded(
          `The time-out expired while trying to ${operation.name}.`,
          cutShort ? undefined : describeFailure(operation, error),
        );
      }
      throw new ServiceError(describeFailure(operation, error));
    }
    return parseAnswer(operation, answer);
  }
}

/** A start answered with a success status was most likely acted on, even if its body is unreadable. */
function acceptedNote<T>(operation: Operation<T>): string {
  return operation.rule === 'start'
    ? ' The service accepted the request, so a run was probably started: check the runs on the service before re-running this job.'
    : '';
}

/** Parses and validates an answer: an error names the field that breaks the interface. */
export function parseAnswer<T>(
  operation: Operation<T>,
  answer: { status: number; body: string; contentType?: string },
): T {
  let json: unknown;
  try {
    // An empty body parses to undefined, which the schema then accepts or names.
    json = answer.body.trim() === '' ? undefined : JSON.parse(answer.body);
  } catch {
    const type = answer.contentType ? `, content-type ${answer.contentType}` : '';
    throw new ServiceError(
      `Could not ${operation.name}: the response is not JSON (HTTP ${answer.status}${type})${serviceErrorText(answer.body)}${acceptedNote(operation)}`,
    );
  }
  const schema = operation.schema();
  const parsed = schema.safeParse(json, { reportInput: true });
  if (!parsed.success) {
    const problems = explainIssues(schema, parsed.error.issues, {
      where: (path) => `field '${issuePath('', path)}'`,
      max: 3,
    });
    throw new ServiceError(
      `Could not ${operation.name}: the response does not match the service interface: ${problems.join(' ')}${acceptedNote(operation)}`,
    );
  }
  return parsed.data;
}

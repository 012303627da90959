import { STATUS_CODES } from 'node:http';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { getProxyUrl, HttpClient } from '@actions/http-client';
import { Client, type Dispatcher, Headers, request } from 'undici';
import { type Clock, systemClock } from './clock.js';
import { USER_AGENT } from './user-agent.js';

/** The largest real answer (100,000 test cases with 250-character titles) is about 33 MB; more is cut. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Same-origin redirects of a read followed at most; more is a loop. */
export const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface RefusedRedirect {
  location?: string;
  /** The request's origin, which is base-url's: the only one the API key goes to. */
  origin: string;
  reason: 'other-origin' | 'not-a-read' | 'too-many' | 'no-location';
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: string;
  redirect?: RefusedRedirect;
}

/** Network error codes raised before the connection exists, so the service cannot have seen the request. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    message: string,
    /** aborted: the job is being cancelled; proxy: the proxy refused the tunnel, or could not be reached. */
    readonly kind: 'network' | 'timeout' | 'aborted' | 'tls' | 'proxy' | 'too-large',
    /** False only when the request certainly never reached the service. */
    readonly mayHaveReached: boolean,
    /** No retry can fix it: a refused certificate, a proxy's refusal. */
    readonly permanent = false,
  ) {
    super(message);
  }

  /** The failure as a clause of a message; `silence` stands for a request that went unanswered. */
  describe(silence: string): string {
    if (this.kind === 'timeout') return silence;
    return this.kind === 'network' ? `network error ${this.message}` : this.message;
  }
}

/** The proxy a request to `url` goes through (https_proxy, no_proxy…), as scheme://host:port: never its credentials. */
function proxyFor(url: string): string {
  try {
    const { protocol, host } = new URL(getProxyUrl(url));
    return `${protocol}//${host}`;
  } catch {
    return 'named by https_proxy';
  }
}

const proxyUnreachable = (url: string, cause: string | undefined) =>
  `could not connect to the proxy ${proxyFor(url)} (${cause})`;

/**
 * The proxy's refusal, as undici says it (somewhere in the chain of causes) or the `tunnel` package,
 * which @actions/tool-cache's downloads still go through. A refusal (407, 403…) stays one; the
 * proxy's own trouble (5xx) may pass.
 */
function proxyRefusal(error: unknown, url: string): TransportError | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    const refused =
      /^tunneling socket could not be established, statusCode=(\d+)/.exec(current.message) ??
      /^Proxy response \((\d+)\) !== 200 when HTTP Tunneling/.exec(current.message);
    const unreachable = /^tunneling socket could not be established, cause=(.*)$/s.exec(current.message);
    if (unreachable) return new TransportError(proxyUnreachable(url, unreachable[1]), 'proxy', false);
    if (!refused) continue;
    const status = Number(refused[1]);
    const { hostname, port, protocol } = new URL(url);
    const target = `${hostname}:${port || (protocol === 'https:' ? 443 : 80)}`;
    const answer = `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim();
    const credentials =
      status === 407
        ? ': give its user name and password in the proxy URL, as https_proxy=http://USER:PASSWORD@HOST:PORT (percent-encoded)'
        : '';
    const message = `the proxy ${proxyFor(url)} refused the tunnel to ${target} with ${answer}${credentials}`;
    return new TransportError(message, 'proxy', false, status < 500);
  }
  return undefined;
}

/** OpenSSL's certificate errors and Node's own TLS errors: raised before the request is sent. */
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$)/;

/** undici's words for a connection closed before the answer was whole: Node's http calls that ECONNRESET. */
const CLOSED_EARLY = new Set(['UND_ERR_SOCKET', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH']);

/** The innermost `code` down a chain of causes (undici's error and its cause, Octokit's RequestError around ours). */
function networkCause(error: unknown): { code?: string; message?: string } {
  // Duck-typed, not instanceof Error: an error may come from another realm (a test runner's VM).
  let found: { code?: string; message?: string } = {};
  let current = error as { code?: unknown; cause?: unknown; message?: string } | undefined;
  for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null; depth++) {
    if (typeof current.code === 'string') found = { code: current.code, message: current.message };
    current = current.cause as typeof current;
  }
  return found.code && CLOSED_EARLY.has(found.code) ? { ...found, code: 'ECONNRESET' } : found;
}

/** `peer` names the server in a message about its certificate ("the service's", "GitHub's"). */
export function describeNetworkError(
  error: unknown,
  url: string,
  peer = "the service's",
  proxied = false,
): TransportError {
  const tunnel = proxyRefusal(error, url);
  if (tunnel) return tunnel;
  const { code = '', message } = networkCause(error);
  const notSent = NOT_SENT_CODES.has(code);
  // Through a proxy, the only connection the step opens is to the proxy.
  if (proxied && notSent) return new TransportError(proxyUnreachable(url, message), 'proxy', false);
  if (TLS_CODE.test(code)) {
    return new TransportError(`TLS error ${code}: ${peer} certificate was not accepted`, 'tls', false, true);
  }
  const text = code || (error instanceof Error ? error.message : String(error));
  return new TransportError(text, 'network', !notSent);
}

/** Only for its proxy dispatcher (https_proxy, no_proxy): a new one for each request. */
const proxyClient = new HttpClient(USER_AGENT, [], { keepAlive: false });

/** Only a read, only within the request's origin (the only one the API key goes to), MAX_REDIRECTS times. */
function redirectTarget(
  from: string,
  method: string,
  location: string | undefined,
  hops: number,
): string | RefusedRedirect {
  const { origin } = new URL(from);
  const target = location === undefined ? null : URL.parse(location, from);
  if (target === null) return { location, origin, reason: 'no-location' };
  const refuse = (reason: RefusedRedirect['reason']) => ({ location: target.href, origin, reason });
  if (method !== 'GET') return refuse('not-a-read');
  if (target.origin !== origin) return refuse('other-origin');
  return hops >= MAX_REDIRECTS ? refuse('too-many') : target.href;
}

type Body = Dispatcher.ResponseData['body'];

/** Closes the connection under a body not read to its end; the abort it causes is expected. */
const drop = (body: Body) => body.on('error', () => undefined).destroy();

/** A gzipped answer is unpacked as it is read: the cap counts the bytes unpacked, so a bomb stops at it too. */
async function readBody(raw: Body, headers: Headers): Promise<string> {
  const tooLarge = () => {
    drop(raw);
    const message = `the answer was larger than ${MAX_ANSWER_BYTES / 2 ** 20} MiB, so reading stopped there`;
    return new TransportError(message, 'too-large', true, true);
  };
  if (Number(headers.get('content-length')) > MAX_ANSWER_BYTES) throw tooLarge();
  const gzipped = headers.get('content-encoding')?.trim().toLowerCase() === 'gzip';
  const body = gzipped ? pipeline(raw, createGunzip(), () => undefined) : raw;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const headersOf = (raw: Dispatcher.ResponseData['headers']) =>
  new Headers(
    Object.entries(raw).flatMap(([name, value]) => [value ?? []].flat().map((each) => [name, each])),
  );

/** How long a request may go unanswered, on which clock (the step's, so that tests need not wait it out). */
export interface TimeLimit {
  ms: number;
  clock?: Clock;
}

/**
 * Sends with undici's `request` (leaner than its `fetch`: no web streams, no CORS bookkeeping, a
 * third of the time to the first byte sent) through http-client's proxy dispatcher. A redirect
 * that is not followed (redirectTarget) comes back as the answer, saying why.
 */
export async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  limit: TimeLimit,
  signal?: AbortSignal,
  peer = "the service's",
): Promise<HttpAnswer> {
  if (signal?.aborted) throw new TransportError('aborted', 'aborted', false);
  const { ms: timeoutMs, clock = systemClock } = limit;
  const timeout = clock.timeout(timeoutMs);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  // One connection per request, nothing kept open once the step is done with it; a Client, not an
  // Agent's pool of them: a redirect is followed only within the origin.
  const proxy = proxyClient.getAgentDispatcher(url);
  const dispatcher = proxy ?? new Client(new URL(url).origin, { pipelining: 0 });
  let target = url;
  try {
    for (let hops = 0; ; hops++) {
      const response = await request(target, {
        method: method as Dispatcher.HttpMethod,
        // Results can be tens of megabytes of JSON, which gzip shrinks tenfold.
        headers: { 'user-agent': USER_AGENT, 'accept-encoding': 'gzip', ...headers },
        body,
        signal: both,
        dispatcher,
      });
      const status = response.statusCode;
      const answerHeaders = headersOf(response.headers);
      if (!REDIRECT_STATUSES.has(status)) {
        return { status, headers: answerHeaders, body: await readBody(response.body, answerHeaders) };
      }
      drop(response.body);
      const next = redirectTarget(target, method, answerHeaders.get('location') ?? undefined, hops);
      if (typeof next !== 'string') return { status, headers: answerHeaders, body: '', redirect: next };
      target = next;
    }
  } catch (error) {
    if (error instanceof TransportError) throw error;
    if (signal?.aborted) throw new TransportError('aborted', 'aborted', true);
    if (timeout.aborted) throw new TransportError(`no answer within ${timeoutMs} ms`, 'timeout', true);
    throw describeNetworkError(error, url, peer, proxy !== undefined);
  } finally {
    void dispatcher.destroy().catch(() => undefined);
  }
}

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { type ConnectionOptions, checkServerIdentity } from 'node:tls';
import { HttpClient } from '@actions/http-client';
import type { RequestHandler } from '@actions/http-client/lib/interfaces';
import { tunnelFailure } from './proxy.js';
import { USER_AGENT } from './user-agent.js';

/**
 * The most one answer may hold. The largest real answer, a run of 100,000 test cases with titles
 * of 250 characters, is about 33 MB; past this cap reading stops at once, so that an answer that
 * never ends costs the step this much memory and no more.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Same-origin redirects of a read followed at most; more is a loop. */
export const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A redirect that was not followed, and why. */
export interface RefusedRedirect {
  /** The Location header, resolved against the request's URL; undefined when there was none. */
  location?: string;
  /** The request's origin, which is base-url's: the only one the API key goes to. */
  origin: string;
  reason: 'other-origin' | 'not-a-read' | 'too-many' | 'no-location';
}

interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Set when the answer is a redirect that was not followed. */
  redirect?: RefusedRedirect;
}

/** Network error codes raised before the connection exists, so the service cannot have seen the request. */
export const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** A request that got no HTTP answer. */
export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    message: string,
    /**
     * timeout: no answer within the request's deadline; aborted: the job is being cancelled;
     * tls: the service's certificate was refused; proxy: the proxy refused the tunnel, or could
     * not be reached; too-large: the answer passed MAX_ANSWER_BYTES and was not read further;
     * unusable: not sent where it would go, or answered in a way HTTP does not allow.
     */
    readonly kind: 'network' | 'timeout' | 'aborted' | 'tls' | 'proxy' | 'too-large' | 'unusable',
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

/** OpenSSL's certificate errors, and Node's own TLS errors: raised before the request is sent. */
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$)/;

/** The `code` of a network error, on the error itself or down its chain of causes (undici's, Octokit's). */
function networkCode(error: unknown): string | undefined {
  // Duck-typed, not instanceof Error: an error may come from another realm (a test runner's VM).
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null; depth++) {
    if (typeof current.code === 'string') return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}

/**
 * A request to `url` that got no answer, as the retry rules and the messages see it; `peer` names
 * the server in a message about its certificate ("the service's", "GitHub's").
 */
export function describeNetworkError(error: unknown, url: string, peer = "the service's"): TransportError {
  const tunnel = tunnelFailure(error, url);
  if (tunnel) return new TransportError(tunnel.message, 'proxy', false, tunnel.permanent);
  const code = networkCode(error);
  const text = code ?? (error instanceof Error ? error.message : String(error));
  if (code !== undefined && TLS_CODE.test(code)) {
    return new TransportError(`TLS error ${code}: ${peer} certificate was not accepted`, 'tls', false, true);
  }
  return new TransportError(text, 'network', !(code !== undefined && NOT_SENT_CODES.has(code)));
}

function tooLarge(): TransportError {
  const megabytes = MAX_ANSWER_BYTES / (1024 * 1024);
  return new TransportError(
    `the answer was larger than ${megabytes} MiB, so reading stopped there`,
    'too-large',
    true,
    true,
  );
}

/**
 * The body as text, at most MAX_ANSWER_BYTES: past them the socket is destroyed at once. Not
 * http-client's readBody, which never settles when the connection is reset after the headers and
 * reads without bound: iterating the stream rejects with the reset instead.
 */
async function readBody(message: IncomingMessage): Promise<string> {
  if (Number(message.headers['content-length']) > MAX_ANSWER_BYTES) {
    message.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of message) {
    size += (chunk as Buffer).length;
    if (size > MAX_ANSWER_BYTES) {
      message.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Where a redirect of a request to `from` may be followed: only a read, only within the request's
 * origin (the API key goes to base-url's origin and nowhere else), only MAX_REDIRECTS times.
 */
function redirectTarget(
  from: string,
  method: string,
  location: string | undefined,
  hops: number,
): { follow: string } | { refuse: RefusedRedirect } {
  const { origin } = new URL(from);
  let target: URL | undefined;
  try {
    target = location === undefined ? undefined : new URL(location, from);
  } catch {
    target = undefined;
  }
  if (target === undefined) return { refuse: { location, origin, reason: 'no-location' } };
  const refused = (reason: RefusedRedirect['reason']) => ({
    refuse: { location: target.href, origin, reason },
  });
  if (method !== 'GET') return refused('not-a-read');
  if (target.origin !== origin) return refused('other-origin');
  if (hops >= MAX_REDIRECTS) return refused('too-many');
  return { follow: target.href };
}

/** Node wants an IPv6 literal without its brackets; http-client passes URL.hostname, brackets and all. */
export function requestHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** The agent http-client makes for a proxy (the `tunnel` package's): it has proxy options. */
interface TunnelingAgent {
  proxyOptions?: unknown;
  options?: ConnectionOptions;
}

/**
 * http-client lets its request handlers adjust the options Node gets: this one fixes an IPv6
 * literal host. Direct, Node wants it bare. Through a proxy, the CONNECT target must keep its
 * brackets (`[2001:db8::1]:443`), and the tunnel package takes the TLS name from the Host header
 * up to its first colon (`[2001`): the certificate is checked against the bare address instead.
 */
const ipv6Literals: RequestHandler = {
  prepareRequest: (options) => {
    const host = options.host;
    if (typeof host !== 'string' || !host.startsWith('[')) return;
    const agent = options.agent as TunnelingAgent | undefined;
    if (agent?.proxyOptions === undefined) {
      options.host = requestHost(host);
      return;
    }
    const address = requestHost(host);
    agent.options = {
      ...agent.options,
      checkServerIdentity: (_name, certificate) => checkServerIdentity(address, certificate),
    };
  },
  canHandleAuthentication: () => false,
  handleAuthentication: () => Promise.reject(new Error('not an authentication handler')),
};

/**
 * Sends one request through @actions/http-client (so proxies work), bounded by a deadline and an
 * abort signal, neither of which the client supports itself: on either, the client is disposed,
 * which destroys its socket. The client's own redirects are off: a same-origin redirect of a GET
 * is followed here, and any other comes back as the answer, with `redirect` saying why it was not
 * followed. The body is read up to MAX_ANSWER_BYTES. `peer` names the server in a message about
 * its certificate.
 */
export async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
  signal?: AbortSignal,
  peer = "the service's",
): Promise<HttpAnswer> {
  if (signal?.aborted) throw new TransportError('aborted', 'aborted', false);
  const client = new HttpClient(USER_AGENT, [ipv6Literals], {
    socketTimeout: timeoutMs,
    allowRetries: false,
    allowRedirects: false,
    keepAlive: false,
  });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new TransportError(`no answer within ${timeoutMs} ms`, 'timeout', true)),
      timeoutMs,
    );
    onAbort = () => reject(new TransportError('aborted', 'aborted', true));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const exchange = (async (): Promise<HttpAnswer> => {
    let target = url;
    for (let hops = 0; ; hops++) {
      const { message } = await client.request(method, target, body ?? null, headers);
      const status = message.statusCode ?? 0;
      if (!REDIRECT_STATUSES.has(status)) {
        return { status, headers: message.headers, body: await readBody(message) };
      }
      message.destroy();
      const next = redirectTarget(target, method, message.headers.location, hops);
      if ('refuse' in next) return { status, headers: message.headers, body: '', redirect: next.refuse };
      target = next.follow;
    }
  })();
  try {
    return await Promise.race([exchange, interrupted]);
  } catch (error) {
    if (error instanceof TransportError) throw error;
    throw describeNetworkError(error, url, peer);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    client.dispose();
    exchange.catch(() => undefined);
  }
}

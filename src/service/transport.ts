import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { HttpClient } from '@actions/http-client';
import type { RequestHandler } from '@actions/http-client/lib/interfaces';
import { tunnelFailure } from './proxy.js';
import { USER_AGENT } from './user-agent.js';

interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
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
     * not be reached.
     */
    readonly kind: 'network' | 'timeout' | 'aborted' | 'tls' | 'proxy',
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

/**
 * The body as text. Not http-client's readBody, which never settles when the connection is reset
 * after the headers: iterating the stream rejects with the reset instead.
 */
async function readBody(message: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Node wants an IPv6 literal without its brackets; http-client passes URL.hostname, brackets and all. */
export function requestHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** http-client lets its request handlers adjust the options Node gets: this one fixes the host. */
const ipv6Literals: RequestHandler = {
  prepareRequest: (options) => {
    if (typeof options.host === 'string') options.host = requestHost(options.host);
  },
  canHandleAuthentication: () => false,
  handleAuthentication: () => Promise.reject(new Error('not an authentication handler')),
};

/**
 * Sends one request through @actions/http-client (so proxies work), bounded by a deadline and an
 * abort signal, neither of which the client supports itself: on either, the client is disposed,
 * which destroys its socket.
 */
export async function send(
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  if (signal?.aborted) throw new TransportError('aborted', 'aborted', false);
  const client = new HttpClient(USER_AGENT, [ipv6Literals], {
    socketTimeout: timeoutMs,
    allowRetries: false,
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
  const exchange = (async () => {
    const response = await client.request(method, url, body ?? null, headers);
    const text = await readBody(response.message);
    return { status: response.message.statusCode ?? 0, headers: response.message.headers, body: text };
  })();
  try {
    return await Promise.race([exchange, interrupted]);
  } catch (error) {
    if (error instanceof TransportError) throw error;
    throw describeNetworkError(error, url);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    client.dispose();
    exchange.catch(() => undefined);
  }
}

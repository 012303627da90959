import { STATUS_CODES } from 'node:http';
import { getProxyUrl } from '@actions/http-client';

/** The proxy a request to `url` goes through (https_proxy, no_proxy…), as scheme://host:port: never its credentials. */
export function proxyFor(url: string): string {
  try {
    const { protocol, host } = new URL(getProxyUrl(url));
    return `${protocol}//${host}`;
  } catch {
    return 'named by https_proxy';
  }
}

/** A proxy that kept a request from its target: what a user reads, and whether a retry may help. */
export interface ProxyRefusal {
  message: string;
  /** A refusal (407, 403…) stays one; the proxy's own trouble (5xx) or absence may pass. */
  permanent: boolean;
}

/**
 * The proxy's refusal behind the error of a request to `url`, if that is what it is: undici's
 * ("Proxy response (407) !== 200 when HTTP Tunneling", somewhere in the chain of causes), or the
 * `tunnel` package's, which @actions/tool-cache's downloads still go through ("tunneling socket
 * could not be established, statusCode=407" or "…, cause=connect ECONNREFUSED …").
 */
export function proxyRefusal(error: unknown, url: string): ProxyRefusal | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    const refused =
      /^tunneling socket could not be established, statusCode=(\d+)/.exec(current.message) ??
      /^Proxy response \((\d+)\) !== 200 when HTTP Tunneling/.exec(current.message);
    if (refused) return refusal(Number(refused[1]), url);
    const unreachable = /^tunneling socket could not be established, cause=(.*)$/s.exec(current.message);
    if (unreachable) {
      return {
        message: `could not connect to the proxy ${proxyFor(url)} (${unreachable[1]})`,
        permanent: false,
      };
    }
  }
  return undefined;
}

function refusal(status: number, url: string): ProxyRefusal {
  const { hostname, port, protocol } = new URL(url);
  const target = `${hostname}:${port || (protocol === 'https:' ? 443 : 80)}`;
  const answer = `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim();
  const message = `the proxy ${proxyFor(url)} refused the tunnel to ${target} with ${answer}`;
  if (status === 407) {
    return {
      message: `${message}: give its user name and password in the proxy URL, as https_proxy=http://USER:PASSWORD@HOST:PORT (percent-encoded)`,
      permanent: true,
    };
  }
  return { message, permanent: status < 500 };
}

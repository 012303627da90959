/**
 * The one classifier of local URLs, for `base-url`, `tunnel` entries, URL templates and option
 * values alike. It reads a URL as a WHATWG parser does (`new URL`), so a value cannot look like one
 * host to this check and be another to whoever fetches it: 127.0.0.0/8 in any IPv4 spelling
 * (`0x7f.1`, `2130706433`) is normalised to dotted decimal before it is seen here.
 */

/** The web schemes, by the scheme whose origin they reach: a WebSocket shares its server's origin. */
const WEB_SCHEMES: Readonly<Record<string, string>> = {
  'http:': 'http:',
  'https:': 'https:',
  'ws:': 'http:',
  'wss:': 'https:',
};
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * The host names that reach the app a job starts on a port, whichever it listens on: one origin
 * when comparing (IPv4-mapped 127.0.0.1 is `[::ffff:7f00:1]` once parsed; `0.0.0.0` and `::`
 * connect to this machine).
 */
const THIS_MACHINE = new Set(['localhost', '127.0.0.1', '[::1]', '[::ffff:7f00:1]', '0.0.0.0', '[::]']);

/** `text` as a URL (resolved against `base`), or undefined when it is none. */
export function parseUrl(text: string, base?: string): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

/** A parsed host name without the trailing dot of a fully qualified name (`localhost.`). */
const bareHost = (hostname: string) => hostname.replace(/\.$/, '');

/**
 * Whether a host name, as URL.hostname gives it, is this machine: `localhost` and `*.localhost`,
 * 127.0.0.0/8, `::1`, IPv4-mapped 127.0.0.0/8, and the unspecified addresses `0.0.0.0` and `::`.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname.toLowerCase());
  return (
    THIS_MACHINE.has(host) ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    /^\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|0:0)\]$/.test(host)
  );
}

/** Whether `text` is an http(s) or ws(s) URL of this machine. */
export function isLocalWebUrl(text: string): boolean {
  const url = parseUrl(text);
  return url !== undefined && WEB_SCHEMES[url.protocol] !== undefined && isLoopbackHost(url.hostname);
}

/**
 * The key of a web URL's origin, equal for URLs that reach the same app: `http://localhost:3000`,
 * `ws://127.0.0.1:3000/x` and `http://[::1]:3000` share one. Undefined when `text` is not a web URL.
 */
export function originKey(text: string): string | undefined {
  const url = parseUrl(text);
  const scheme = url && WEB_SCHEMES[url.protocol];
  if (!url || !scheme) return undefined;
  const host = bareHost(url.hostname);
  return `${scheme}//${THIS_MACHINE.has(host) ? 'localhost' : host}:${url.port || DEFAULT_PORTS[scheme]}`;
}

/**
 * `text` with its origin replaced by `publicOrigin` (an https:// origin), on the parsed URL: what a
 * fetcher would read as the path, query and fragment is kept; a WebSocket URL becomes `wss://`.
 */
export function withOrigin(text: string, publicOrigin: string): string {
  const url = new URL(text);
  const target = new URL(publicOrigin);
  url.protocol = url.protocol.startsWith('ws') ? 'wss:' : target.protocol;
  url.hostname = target.hostname;
  url.port = target.port;
  // A bare origin stays bare: the service may put a path after it.
  const bare = url.pathname === '/' && !url.search && !url.hash && !/[/\\]$/.test(text);
  return bare ? url.href.slice(0, -1) : url.href;
}

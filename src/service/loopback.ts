/**
 * The one classifier of local URLs, for `base-url`, `tunnel` entries, URL templates and option
 * values alike. It reads a URL as `new URL` does, so a value cannot look like one host here and be
 * another to whoever fetches it (`0x7f.1` and `2130706433` are normalised to 127.0.0.1 first).
 */

/** By the scheme whose origin they reach: a WebSocket shares its server's origin. */
const WEB_SCHEMES: Readonly<Record<string, string>> = {
  'http:': 'http:',
  'https:': 'https:',
  'ws:': 'http:',
  'wss:': 'https:',
};
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * The host names that reach the app a job starts on a port, whichever it listens on, as parsed
 * (IPv4-mapped 127.0.0.1 is `[::ffff:7f00:1]`; `0.0.0.0` and `::` connect to this machine).
 */
const THIS_MACHINE = new Set(['localhost', '127.0.0.1', '[::1]', '[::ffff:7f00:1]', '0.0.0.0', '[::]']);

/** Without the trailing dot of a fully qualified name (`localhost.`). */
const bareHost = (hostname: string) => hostname.replace(/\.$/, '');

/** Whether a host name, as URL.hostname gives it, is this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname.toLowerCase());
  return (
    THIS_MACHINE.has(host) ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    /^\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|0:0)\]$/.test(host)
  );
}

/** https://, or plain http:// to this machine only: nothing sent there crosses a network in clear text. */
export function isHttpsOrLocal(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

export function isLocalWebUrl(text: string): boolean {
  const url = URL.parse(text);
  return url !== null && WEB_SCHEMES[url.protocol] !== undefined && isLoopbackHost(url.hostname);
}

/** Equal for URLs that reach the same app: `http://localhost:3000`, `ws://127.0.0.1:3000/x`. */
export function originKey(text: string): string | undefined {
  const url = URL.parse(text);
  const scheme = url && WEB_SCHEMES[url.protocol];
  if (!url || !scheme) return undefined;
  const host = bareHost(url.hostname);
  return `${scheme}//${THIS_MACHINE.has(host) ? 'localhost' : host}:${url.port || DEFAULT_PORTS[scheme]}`;
}

/** On the parsed URL, so that what a fetcher would read as the path, query and fragment is kept. */
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

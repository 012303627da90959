import { isLoopbackHost, originKey } from '../service/loopback.js';
import { shown } from '../service/validation.js';

type Check<T> = ({ ok: true } & T) | { ok: false; reason: string };

/** Why `url` cannot be a `tunnel` entry (a local origin, as the one classifier reads it), as a sentence to follow the entry. */
function problemOf(url: URL | undefined): string | undefined {
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return 'is not an http:// or https:// URL such as http://localhost:3000.';
  }
  if (url.username || url.password) return 'must not carry credentials.';
  if (!isLoopbackHost(url.hostname)) {
    return `is not on this runner: a tunnel reaches localhost, 127.0.0.0/8 or [::1] only, not ${url.hostname}.`;
  }
  if (url.pathname !== '/' || url.search || url.hash) {
    return `must be an origin only (scheme, host and port, e.g. ${url.origin}): the path, query or fragment belongs in the URLs of the options.`;
  }
  return undefined;
}

/** A `tunnel` entry checked and normalised (`HTTP://LocalHost:3000/` becomes `http://localhost:3000`), or why not. */
export function parseTunnelOrigin(text: string): Check<{ origin: string }> {
  const url = URL.parse(text.trim()) ?? undefined;
  const reason = problemOf(url);
  return reason === undefined ? { ok: true, origin: (url as URL).origin } : { ok: false, reason };
}

/** Every entry checked; two entries for one origin (`localhost:3000` and `127.0.0.1:3000`) are refused. */
export function parseTunnelOrigins(entries: readonly string[]): Check<{ origins: string[] }> {
  const byKey = new Map<string, string>();
  for (const entry of entries) {
    const check = parseTunnelOrigin(entry);
    if (!check.ok) return { ok: false, reason: `${shown(entry)} ${check.reason}` };
    const key = originKey(check.origin) as string;
    const earlier = byKey.get(key);
    if (earlier !== undefined) {
      return {
        ok: false,
        reason: `${shown(earlier)} and ${shown(check.origin)} are the same origin: name it once.`,
      };
    }
    byKey.set(key, check.origin);
  }
  return { ok: true, origins: [...byKey.values()] };
}

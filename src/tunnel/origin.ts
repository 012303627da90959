import { isLoopbackHost, originKey } from '../service/loopback.js';
import { shown } from '../service/validation.js';

/** As a sentence to follow the entry. */
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

/** Normalised (`HTTP://LocalHost:3000/` becomes `http://localhost:3000`); one origin named twice is refused. */
export function parseTunnelOrigins(
  entries: readonly string[],
): { ok: true; origins: string[] } | { ok: false; reason: string } {
  const byKey = new Map<string, string>();
  for (const entry of entries) {
    const url = URL.parse(entry) ?? undefined;
    const problem = problemOf(url);
    if (problem) return { ok: false, reason: `${shown(entry)} ${problem}` };
    const { origin } = url as URL;
    const key = originKey(origin) as string;
    const earlier = byKey.get(key);
    if (earlier !== undefined) {
      const reason = `${shown(earlier)} and ${shown(origin)} are the same origin: name it once.`;
      return { ok: false, reason };
    }
    byKey.set(key, origin);
  }
  return { ok: true, origins: [...byKey.values()] };
}

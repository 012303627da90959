import { isLoopbackHost, originKey, parseUrl } from '../service/loopback.js';
import { shown } from '../service/validation.js';

/** What a `tunnel` entry may be: a local origin, as the one classifier (service/loopback.ts) reads it. */

export type OriginCheck = { ok: true; origin: string } | { ok: false; reason: string };

/** Why `url` cannot be a `tunnel` entry, as a sentence to follow the entry in a message. */
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
export function parseTunnelOrigin(text: string): OriginCheck {
  const url = parseUrl(text.trim());
  const reason = problemOf(url);
  return reason === undefined ? { ok: true, origin: (url as URL).origin } : { ok: false, reason };
}

export type OriginsCheck = { ok: true; origins: string[] } | { ok: false; reason: string };

/** Every entry checked; two entries for one origin (`localhost:3000` and `127.0.0.1:3000`) are refused. */
export function parseTunnelOrigins(entries: readonly string[]): OriginsCheck {
  const origins: string[] = [];
  const seen = new Map<string, string>();
  for (const entry of entries) {
    const check = parseTunnelOrigin(entry);
    if (!check.ok) return { ok: false, reason: `${shown(entry)} ${check.reason}` };
    const key = originKey(check.origin) as string;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      return {
        ok: false,
        reason: `${shown(earlier)} and ${shown(check.origin)} are the same origin: name it once.`,
      };
    }
    seen.set(key, check.origin);
    origins.push(check.origin);
  }
  return { ok: true, origins };
}

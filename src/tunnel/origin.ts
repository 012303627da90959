import { isLoopbackHost } from '../service/loopback.js';
import { shown } from '../service/validation.js';

/** Local origins: what a `tunnel` entry may be, and when two URLs reach the same app. */

/** The three names of this machine that count as one host when comparing origins. */
const SAME_HOST = new Set(['localhost', '127.0.0.1', '[::1]']);

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * The key of an http(s) URL's origin, equal for URLs that reach the same local app:
 * `http://localhost:3000`, `http://127.0.0.1:3000/x` and `http://[::1]:3000` share one.
 * Undefined when `text` is not an http:// or https:// URL.
 */
export function originKey(text: string): string | undefined {
  const url = parseUrl(text);
  if (!url || DEFAULT_PORTS[url.protocol] === undefined) return undefined;
  const host = SAME_HOST.has(url.hostname) ? 'localhost' : url.hostname;
  return `${url.protocol}//${host}:${url.port || DEFAULT_PORTS[url.protocol]}`;
}

/** An http(s) URL whose host is this machine. */
export function isLoopbackUrl(text: string): boolean {
  const url = parseUrl(text);
  return url !== undefined && DEFAULT_PORTS[url.protocol] !== undefined && isLoopbackHost(url.hostname);
}

export type OriginCheck = { ok: true; origin: string } | { ok: false; reason: string };

/**
 * A `tunnel` entry checked and normalised (`HTTP://LocalHost:3000/` becomes `http://localhost:3000`),
 * or the reason it cannot be one, as a sentence to follow the entry in a message.
 */
export function parseTunnelOrigin(text: string): OriginCheck {
  const url = parseUrl(text.trim());
  if (!url || DEFAULT_PORTS[url.protocol] === undefined) {
    return { ok: false, reason: 'is not an http:// or https:// URL such as http://localhost:3000.' };
  }
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials.' };
  if (!isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      reason: `is not on this runner: a tunnel reaches localhost, 127.0.0.0/8 or [::1] only, not ${url.hostname}.`,
    };
  }
  if (url.pathname !== '/' || url.search || url.hash) {
    return {
      ok: false,
      reason: `must be an origin only (scheme, host and port, e.g. ${url.origin}): the path, query or fragment belongs in the URLs of the options.`,
    };
  }
  return { ok: true, origin: url.origin };
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

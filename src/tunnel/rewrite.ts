import { isLocalWebUrl, originKey, withOrigin } from '../service/loopback.js';

/**
 * The URLs of a suite run's options that can point at the job's app: `urlReplacements[].replacement`
 * and the values of `variableOverrides` (plain strings, the `value` of wrapped ones, every string
 * leaf of structured ones).
 *
 * Records keyed by names the user chose are rebuilt with Object.fromEntries, which defines each
 * key as an own property: no name, not even `__proto__`, is special.
 */

/** Where a string sits in the options: `['variableOverrides', 'API', 'value', 'urls', 0]`. */
export type OptionPath = readonly (string | number)[];

type MapString = (text: string, path: OptionPath) => string;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapLeaves(value: unknown, path: OptionPath, map: MapString): unknown {
  if (typeof value === 'string') return map(value, path);
  if (Array.isArray(value)) return value.map((item, i) => mapLeaves(item, [...path, i], map));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapLeaves(item, [...path, key], map)]),
    );
  }
  return value;
}

function mapOverride(override: unknown, path: OptionPath, map: MapString): unknown {
  if (typeof override === 'string') return map(override, path);
  if (isRecord(override) && 'value' in override) {
    return { ...override, value: mapLeaves(override.value, [...path, 'value'], map) };
  }
  return override;
}

/** A copy of `options` with `map` applied to every string that may be a URL of the app. */
function mapOptionUrls<T extends Record<string, unknown>>(options: T, map: MapString): T {
  const mapped: Record<string, unknown> = { ...options };
  const { urlReplacements, variableOverrides } = options;
  if (Array.isArray(urlReplacements)) {
    mapped.urlReplacements = urlReplacements.map((entry: unknown, i) =>
      isRecord(entry) && typeof entry.replacement === 'string'
        ? { ...entry, replacement: map(entry.replacement, ['urlReplacements', i, 'replacement']) }
        : entry,
    );
  }
  if (isRecord(variableOverrides)) {
    mapped.variableOverrides = Object.fromEntries(
      Object.entries(variableOverrides).map(([name, override]) => [
        name,
        mapOverride(override, ['variableOverrides', name], map),
      ]),
    );
  }
  return mapped as T;
}

/**
 * `options` with every URL whose origin is a tunnel's local origin sent to that tunnel's public
 * origin instead. `publicOrigins` maps local origins (`http://localhost:3000`) to public ones
 * (`https://<name>.trycloudflare.com`); `localhost`, `127.0.0.1` and `[::1]` with the same port count
 * as one origin.
 */
export function rewriteTunnelUrls<T extends Record<string, unknown>>(
  options: T,
  publicOrigins: ReadonlyMap<string, string>,
): T {
  const byKey = new Map<string, string>();
  for (const [local, publicOrigin] of publicOrigins) {
    const key = originKey(local);
    if (key !== undefined) byKey.set(key, publicOrigin);
  }
  return mapOptionUrls(options, (text) => {
    const key = originKey(text);
    const publicOrigin = key === undefined ? undefined : byKey.get(key);
    return publicOrigin === undefined ? text : withOrigin(text, publicOrigin);
  });
}

export interface UntunnelledUrl {
  path: OptionPath;
  url: string;
}

/**
 * The loopback URLs of `options` (http(s) and ws(s), as service/loopback.ts classifies them) whose origin has no
 * tunnel among `tunnelOrigins`: the service could not reach them.
 */
export function untunnelledLoopbackUrls(
  options: Record<string, unknown>,
  tunnelOrigins: readonly string[],
): UntunnelledUrl[] {
  const tunnelled = new Set(tunnelOrigins.map(originKey));
  const found: UntunnelledUrl[] = [];
  mapOptionUrls(options, (text, path) => {
    if (isLocalWebUrl(text) && !tunnelled.has(originKey(text))) found.push({ path, url: text });
    return text;
  });
  return found;
}

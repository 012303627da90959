import { isLocalWebUrl, originKey, withOrigin } from '../service/loopback.js';

/** `['variableOverrides', 'API', 'value', 'urls', 0]` */
type OptionPath = readonly (string | number)[];

/** `urlReplacements[i].replacement`, a plain `variableOverrides[name]`, or any leaf of a wrapped one's `value`. */
function isUrlSlot(path: OptionPath): boolean {
  const [field, at, key] = path;
  if (field === 'urlReplacements')
    return path.length === 3 && typeof at === 'number' && key === 'replacement';
  return field === 'variableOverrides' && typeof at === 'string' && (path.length === 2 || key === 'value');
}

/** Records are rebuilt with Object.fromEntries, which defines own properties: not even `__proto__` is special. */
function mapOptionUrls(
  value: unknown,
  map: (text: string, path: OptionPath) => string,
  path: OptionPath = [],
): unknown {
  if (typeof value === 'string') return isUrlSlot(path) ? map(value, path) : value;
  if (Array.isArray(value)) return value.map((item, i) => mapOptionUrls(item, map, [...path, i]));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, mapOptionUrls(item, map, [...path, key])]),
  );
}

/** `localhost`, `127.0.0.1` and `[::1]` with the same port count as one origin. */
export function rewriteTunnelUrls<T extends Record<string, unknown>>(
  options: T,
  publicOrigins: ReadonlyMap<string, string>,
): T {
  const byKey = new Map([...publicOrigins].map(([local, remote]) => [originKey(local) ?? local, remote]));
  return mapOptionUrls(options, (text) => {
    const publicOrigin = byKey.get(originKey(text) ?? '');
    return publicOrigin === undefined ? text : withOrigin(text, publicOrigin);
  }) as T;
}

/** The service could not reach these. */
export function untunnelledLoopbackUrls(options: Record<string, unknown>, tunnelOrigins: readonly string[]) {
  const tunnelled = new Set(tunnelOrigins.map(originKey));
  const found: { path: OptionPath; url: string }[] = [];
  mapOptionUrls(options, (text, path) => {
    if (isLocalWebUrl(text) && !tunnelled.has(originKey(text))) found.push({ path, url: text });
    return text;
  });
  return found;
}

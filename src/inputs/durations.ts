const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Node's timers hold at most 2^31 - 1 ms (24.8 days) and fire at once past it: no duration may exceed this. */
export const MAX_DURATION_MS = 24 * 24 * UNIT_MS.h;

/** Parses `500ms`, `10s`, `2m`, `1h` or a plain number of seconds into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2] ?? 's'];
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** Shown where a duration is unknown; a summary table cell must never be empty. */
export const NO_DURATION = '—';

/** A duration for people, the one rounding of the log, the summary and the messages: `850 ms`, `1.2 s`, `59.9 s`, `1 min`, `3 min 4 s`, `1 h 2 min`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return NO_DURATION;
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return both(Math.floor(seconds / 60), 'min', seconds % 60, 's');
  const minutes = Math.round(ms / 60_000);
  return both(Math.floor(minutes / 60), 'h', minutes % 60, 'min');
}

function both(whole: number, unit: string, rest: number, restUnit: string): string {
  return rest === 0 ? `${whole} ${unit}` : `${whole} ${unit} ${rest} ${restUnit}`;
}

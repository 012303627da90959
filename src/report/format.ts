import type { Counts } from './outcome.js';

/** "1 test case", "2 test cases". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** "12 test cases: 9 passed, 2 failed, 1 flaky, 0 skipped" */
export function countsLine(counts: Counts): string {
  const { total, passed, failed, flaky, skipped } = counts;
  return `${plural(total, 'test case')}: ${passed} passed, ${failed} failed, ${flaky} flaky, ${skipped} skipped`;
}

/** Shown where a duration is unknown; a summary table cell must never be empty. */
export const NO_DURATION = '—';

/** A duration for people: `850 ms`, `1.2 s`, `59.9 s`, `3 min 4 s`, `1 h 2 min`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return NO_DURATION;
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

import { UNSAFE_CHARACTER } from '../runner/text.js';

// The interface's words, without zod: the schemas (schemas.ts) are loaded when the first answer
// is checked, so that zod is not loaded before the first request.

/** A project run in any other status has its results. */
const IN_PROGRESS = ['QUEUED', 'RUNNING'] as const;
export type InProgress = (typeof IN_PROGRESS)[number];
export const isInProgress = (status: string): status is InProgress =>
  (IN_PROGRESS as readonly string[]).includes(status);

export const RUN_STATUSES = [
  ...IN_PROGRESS,
  'PASSED',
  'FAILED',
  'TIMEDOUT',
  'CANCELLED',
  'INTERRUPTED',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run's, a test case's own (SKIPPED, FLAKY), and ERROR: CANCELLED and ERROR come in suite results. */
export const TEST_CASE_STATUSES = [...RUN_STATUSES, 'SKIPPED', 'FLAKY', 'ERROR'] as const;
export type TestCaseStatus = (typeof TEST_CASE_STATUSES)[number];

/**
 * Why `value` cannot be an id, which names a resource inside a URL path: ids from the service and
 * the inputs are checked where they enter (encodeURIComponent keeps dots, and a URL resolves `..`).
 */
export function idProblem(value: string): string | undefined {
  if (value === '') return 'it is empty';
  if (value === '.' || value === '..') return `'${value}' is a path segment, not a name`;
  if (UNSAFE_CHARACTER.test(value)) return 'it holds a control, line-break or invisible character';
  return undefined;
}

/** A duration a report can show: from 0 to 31 days, the longest a test case or a run can plausibly take. */
export function isPlausibleDuration(ms: unknown): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 && ms <= 31 * 24 * 3_600_000;
}

/** The environments a suite run can be started in (its applied options may also say ALL). */
export const SUITE_ENVIRONMENTS = ['PRODUCTION', 'STAGING', 'DEVELOPMENT'] as const;

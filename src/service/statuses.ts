/** The service's status values (zod-free, so that the start-up path does not load zod). */

export const RUN_STATUSES = [
  'QUEUED',
  'RUNNING',
  'PASSED',
  'FAILED',
  'TIMEDOUT',
  'CANCELLED',
  'INTERRUPTED',
] as const;

export const FINAL_RUN_STATUSES: ReadonlySet<string> = new Set([
  'PASSED',
  'FAILED',
  'TIMEDOUT',
  'CANCELLED',
  'INTERRUPTED',
]);

/** The interface's test case statuses, plus ERROR and CANCELLED, which the contract's table also knows. */
export const TEST_CASE_STATUSES = [
  'QUEUED',
  'RUNNING',
  'PASSED',
  'FAILED',
  'TIMEDOUT',
  'SKIPPED',
  'INTERRUPTED',
  'FLAKY',
  'ERROR',
  'CANCELLED',
] as const;

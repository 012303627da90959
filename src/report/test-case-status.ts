import type { TestCaseStatus } from '../service/schemas.js';

/**
 * How a test case counts and shows, by its status: the contract's table of test case statuses,
 * written once. Keyed by the service's own list of statuses, so the two cannot drift apart.
 */
interface StatusRow {
  /** The count it adds to; `total` is the sum of the four. */
  count: 'passed' | 'flaky' | 'skipped' | 'failed';
  /** How JUnit records it (and the results file's `verdict`). */
  verdict: 'passed' | 'flaky' | 'skipped' | 'failure' | 'error' | 'unfinished';
  /** Report order: failures first, passes last; the service's order within a rank. */
  rank: number;
  icon: string;
}

/** In a final run, a test case still queued or running, or cancelled, did not finish. */
const DID_NOT_FINISH: StatusRow = { count: 'failed', verdict: 'unfinished', rank: 0, icon: '⛔' };

const STATUS_TABLE: Record<TestCaseStatus, StatusRow> = {
  FAILED: { count: 'failed', verdict: 'failure', rank: 0, icon: '❌' },
  ERROR: { count: 'failed', verdict: 'error', rank: 0, icon: '❌' },
  TIMEDOUT: { count: 'failed', verdict: 'failure', rank: 1, icon: '⏱️' },
  INTERRUPTED: { count: 'failed', verdict: 'failure', rank: 2, icon: '❌' },
  FLAKY: { count: 'flaky', verdict: 'flaky', rank: 3, icon: '⚠️' },
  SKIPPED: { count: 'skipped', verdict: 'skipped', rank: 4, icon: '⏭️' },
  PASSED: { count: 'passed', verdict: 'passed', rank: 5, icon: '✅' },
  CANCELLED: DID_NOT_FINISH,
  QUEUED: DID_NOT_FINISH,
  RUNNING: DID_NOT_FINISH,
};

/** A test case's verdict: its row of the table, with fail-on-flaky applied. */
export interface Verdict extends StatusRow {
  /** Whether it fails the step: any failure, and a flaky test case with fail-on-flaky. */
  fails: boolean;
  /** Its status in words: `FAILED`, `did not finish (RUNNING)`, `FLAKY (counts as failed)`. */
  label: string;
}

/** Whether a test case is reported as flaky: flaky, and not failing the step (fail-on-flaky is off). */
export function isFlakyOnly({ verdict }: { verdict: Verdict }): boolean {
  return verdict.count === 'flaky' && !verdict.fails;
}

/** The verdicts made so far, without and with fail-on-flaky, by status. */
const verdicts = [new Map<string | undefined, Verdict>(), new Map<string | undefined, Verdict>()] as const;

/** The verdict of a status (undefined: the service sent none); one shared object per status. */
export function judge(status: string | undefined, failOnFlaky: boolean): Verdict {
  const made = verdicts[failOnFlaky ? 1 : 0];
  let verdict = made.get(status);
  if (verdict === undefined) {
    const row = (status !== undefined && STATUS_TABLE[status as TestCaseStatus]) || DID_NOT_FINISH;
    const flakyFails = row.count === 'flaky' && failOnFlaky;
    verdict = {
      ...row,
      icon: flakyFails ? STATUS_TABLE.FAILED.icon : row.icon,
      fails: row.count === 'failed' || flakyFails,
      label:
        row === DID_NOT_FINISH
          ? `did not finish (${status || 'no status'})`
          : flakyFails
            ? `${status} (counts as failed)`
            : (status as string),
    };
    made.set(status, verdict);
  }
  return verdict;
}

const reportOrders = new WeakMap<readonly { verdict: Verdict }[], readonly { verdict: Verdict }[]>();

/**
 * A stable sort by rank: the order within a rank is the service's. The summary, the annotations
 * and the log each ask for it; an outcome's list never changes, so it is sorted once.
 */
export function inReportOrder<T extends { verdict: Verdict }>(testCases: readonly T[]): readonly T[] {
  let ordered = reportOrders.get(testCases) as readonly T[] | undefined;
  if (ordered === undefined) {
    const buckets: T[][] = [];
    for (const testCase of testCases) {
      const bucket = buckets[testCase.verdict.rank] ?? [];
      bucket.push(testCase);
      buckets[testCase.verdict.rank] = bucket;
    }
    ordered = buckets.flat();
    reportOrders.set(testCases, ordered);
  }
  return ordered;
}

// The step's outcomes taken together, one per target in the targets' order: one target is the case N = 1.
import type { Counts, OutputStatus, RunOutcome } from './outcome.js';

/** Worst first: with several targets the step's `status` is the first of these any target has. */
export const STATUS_ORDER = [
  'ERROR',
  'TIMEDOUT',
  'INTERRUPTED',
  'FAILED',
  'CANCELLED',
  'PASSED',
  'STARTED',
] as const satisfies readonly OutputStatus[];

// Every status has its place in the order: a status added to OutputStatus and not here fails to compile.
const ORDER_IS_COMPLETE: [Exclude<OutputStatus, (typeof STATUS_ORDER)[number]>] extends [never]
  ? true
  : never = true;
void ORDER_IS_COMPLETE;

/** `STARTED` only when every one is. */
export function worstStatus(statuses: readonly OutputStatus[]): OutputStatus {
  return STATUS_ORDER.find((status) => statuses.includes(status)) ?? 'STARTED';
}

/** The outcome when there is one target, where the reports keep the one-target shape they always had. */
export function onlyTarget(outcomes: readonly RunOutcome[]): RunOutcome | undefined {
  return outcomes.length === 1 ? outcomes[0] : undefined;
}

export interface StepOutcome {
  status: OutputStatus;
  /** The step passes only when every target does. */
  success: boolean;
  /** Sums. */
  counts: Counts;
  /** The longest: the runs ran together. */
  durationMs?: number;
}

export function stepOutcome(outcomes: readonly RunOutcome[]): StepOutcome {
  const counts: Partial<Counts> = {};
  for (const outcome of outcomes) {
    for (const [name, count] of Object.entries(outcome.counts) as [keyof Counts, number][]) {
      counts[name] = (counts[name] ?? 0) + count;
    }
  }
  const durations = outcomes.flatMap(({ durationMs }) => (durationMs === undefined ? [] : [durationMs]));
  return {
    status: worstStatus(outcomes.map(({ status }) => status)),
    success: outcomes.every(({ success }) => success),
    counts: counts as Counts,
    durationMs: durations.length > 0 ? Math.max(...durations) : undefined,
  };
}

/** What ran, in plain text (escaped by the caller): `project p1`, a suite's name, or `suite s1`. */
export function targetName(outcome: RunOutcome): string {
  return outcome.mode === 'suite'
    ? outcome.testSuiteName || `suite ${outcome.testSuiteId ?? ''}`.trim()
    : `project ${outcome.projectId ?? ''}`.trim();
}

/**
 * One element of the `runs` output per target, null where unknown. The one place its fields are
 * listed; action.yml and the README describe them.
 */
export function runsEntry(outcome: RunOutcome) {
  const compared = outcome.judgment?.against ? outcome.judgment : undefined;
  return {
    kind: outcome.mode,
    id: (outcome.mode === 'suite' ? outcome.testSuiteId : outcome.projectId) ?? null,
    runId: outcome.runId ?? null,
    status: outcome.status,
    success: outcome.success,
    counts: outcome.status === 'STARTED' ? null : outcome.counts,
    newFailures: compared?.newFailures.length ?? null,
    fixed: compared?.fixed.length ?? null,
    flakyFailures: compared?.flaky.length ?? null,
    quarantined: outcome.status === 'STARTED' ? null : (outcome.judgment?.quarantined.length ?? 0),
    slower: outcome.judgment?.slower?.length ?? null,
    dashboardUrl: outcome.dashboardUrl ?? null,
    checkRunUrl: outcome.checkRunUrl ?? null,
  };
}

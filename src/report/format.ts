import { formatDuration } from '../runner/duration.js';
import { linked } from './escape.js';
import {
  type Counts,
  FINISHED,
  type Judgment,
  type OutputStatus,
  type RunOutcome,
  type TestCase,
} from './outcome.js';

export function plural(count: number, singular: string): string {
  return `${count} ${count === 1 ? singular : `${singular}s`}`;
}

export function countsLine(counts: Counts): string {
  const { total, passed, failed, flaky, skipped } = counts;
  return `${plural(total, 'test case')}: ${passed} passed, ${failed} failed, ${flaky} flaky, ${skipped} skipped`;
}

const HEADINGS: Record<OutputStatus, readonly [icon: string, words: string]> = {
  PASSED: ['✅', 'Test run passed'],
  FAILED: ['❌', 'Test run failed'],
  INTERRUPTED: ['❌', 'Test run interrupted'],
  TIMEDOUT: ['⏱️', 'Test run timed out'],
  CANCELLED: ['🚫', 'Test run cancelled'],
  ERROR: ['⚠️', 'Could not learn the outcome of the test run'],
  STARTED: ['▶️', 'Test run started'],
};

type Result = Pick<RunOutcome, 'status' | 'success' | 'counts' | 'judgment'>;

/**
 * The heading follows the judgment: a finished run that failed but passes the step (its failures
 * known or quarantined) is no ❌. A PASSED project run still fails the step when a test case fails
 * it (flaky, with fail-on-flaky).
 */
function headingFor({ status, success, judgment }: Result): readonly [string, string] {
  if (success && FINISHED.includes(status) && (status !== 'PASSED' || judgment?.failing.length)) {
    const known = judgment?.against ? 'no new failures' : 'only quarantined failures';
    return ['⚠️', `Test run failed, ${known}`];
  }
  return HEADINGS[status === 'PASSED' && !success ? 'FAILED' : status];
}

export function iconOf(result: Result): string {
  return headingFor(result)[0];
}

export function headingOf(result: Result): string {
  return headingFor(result).join(' ');
}

/** What ran, as HTML; empty when the run's id is all that is known. */
export function targetHtml(outcome: RunOutcome, text: (value: string) => string): string {
  if (outcome.mode === 'suite') {
    if (outcome.testSuiteName) return `Suite <strong>${text(outcome.testSuiteName)}</strong>`;
    if (outcome.testSuiteId) return `Suite <code>${text(outcome.testSuiteId)}</code>`;
  } else if (outcome.projectId) {
    return `Project <code>${text(outcome.projectId)}</code>`;
  }
  return '';
}

/** What ran and where, as one line of HTML; `text` escapes for the summary or the comment. */
export function runLine(outcome: RunOutcome, text: (value: string) => string): string {
  const code = (value: string) => `<code>${text(value)}</code>`;
  const parts: string[] = [targetHtml(outcome, text)].filter(Boolean);
  if (outcome.playwrightProjectName) parts.push(`Playwright project ${code(outcome.playwrightProjectName)}`);
  if (outcome.runId) parts.push(`Run ${linked(outcome.dashboardUrl, code(outcome.runId))}`);
  if (outcome.branch) parts.push(`Branch ${code(outcome.branch)}`);
  if (outcome.environment) parts.push(`Environment ${code(outcome.environment)}`);
  if (outcome.durationMs !== undefined) parts.push(`Duration ${formatDuration(outcome.durationMs)}`);
  return parts.join(' · ');
}

/** The summary's HTML or the comment's Markdown. */
export interface ListMarkup {
  text: (value: string, maxChars?: number) => string;
  item: (html: string) => string;
  list: (heading: string, items: string[]) => string[];
  note: (text: string) => string[];
}

/** At most `max` items, while they fit in what `budget` has left (spent as they are taken), then "… and N more". */
export function testCaseList(
  markup: ListMarkup,
  heading: string,
  testCases: readonly TestCase[],
  budget: { left: number },
  {
    max = 30,
    marker = statusOf(markup),
    detail = (_: TestCase) => '',
  }: { max?: number; marker?: (testCase: TestCase) => string; detail?: (testCase: TestCase) => string } = {},
): string[] {
  if (testCases.length === 0) return [];
  const items: string[] = [];
  for (const testCase of testCases.slice(0, max)) {
    const title = marker(testCase) + linked(testCase.dashboardUrl, markup.text(testCase.title));
    const text = markup.item(`${title}${detail(testCase)}`);
    if (text.length + 1 > budget.left) break;
    items.push(text);
    budget.left -= text.length + 1;
  }
  const more = testCases.length - items.length;
  if (more > 0) items.push(markup.item(`… and ${more} more`));
  return markup.list(heading, items);
}

/** " · flaky on main: failed 3 of the last 20 · ✅✅❌✅❌", where the history labelled it. */
function labelText({ label }: TestCase, markup: ListMarkup): string {
  if (label === undefined || label.kind === 'quarantined') return '';
  const words = label.kind === 'new' ? '' : ` · ${markup.text(label.text, 120)}`;
  return `${words}${label.record ? ` · ${label.record}` : ''}`;
}

const statusOf =
  ({ text }: ListMarkup) =>
  ({ verdict }: TestCase) =>
    `${verdict.icon} ${text(verdict.label, 60)} · `;

/** " · 1 new failure, 2 flaky on main, 1 failing on main, 0 fixed", where there was a baseline. */
export function judgmentLine({ judgment }: Pick<RunOutcome, 'judgment'>): string {
  return judgment?.against ? ` · ${judgmentHeadline(judgment)}` : '';
}

/** "1 new failure, 2 flaky on main, 1 failing on main, 0 fixed". */
export function judgmentHeadline(judgment: Judgment): string {
  const base = judgment.base ?? 'the base branch';
  return `${plural(judgment.newFailures.length, 'new failure')}, ${judgment.flaky.length} flaky on ${base}, ${judgment.failing.length} failing on ${base}, ${judgment.fixed.length} fixed`;
}

/** The failing test cases by label, new first, then the fixed ones; without a baseline, all of them as failed. */
export function judgmentLists(outcome: RunOutcome, markup: ListMarkup, budget: { left: number }): string[] {
  const { judgment } = outcome;
  const status = statusOf(markup);
  const detail = (testCase: TestCase) => labelText(testCase, markup);
  const list = (heading: string, testCases: readonly TestCase[], marker = status) =>
    testCaseList(markup, heading, testCases, budget, { marker, detail });
  if (!judgment?.against) {
    const failing = outcome.reportOrder.filter(
      (testCase) => testCase.verdict.fails && testCase.label?.kind !== 'quarantined',
    );
    return testCaseList(markup, 'Failed', failing, budget);
  }
  const base = judgment.base ?? 'the base branch';
  return [
    ...(judgment.partial
      ? markup.note(
          "Compared in part: the base branch's record had more rows than fit, and a failure past them counts as new.",
        )
      : []),
    ...list('🆕 New failures', judgment.newFailures, (testCase) => `🆕 ${status(testCase)}`),
    ...list(`Flaky on ${base}`, judgment.flaky),
    ...list(`Failing on ${base}`, judgment.failing),
    ...list('Fixed', judgment.fixed, () => '✅ '),
  ];
}

/**
 * The quarantine's failures, the test cases slower than on the base branch, and on a run of the
 * branch itself, its flakiest test cases by their record.
 */
export function historyLists(outcome: RunOutcome, markup: ListMarkup, budget: { left: number }): string[] {
  const { judgment } = outcome;
  const quarantined = testCaseList(markup, '🔒 Quarantined', judgment?.quarantined ?? [], budget);
  const base = judgment?.base ?? 'the base branch';
  const slowerThan = (testCase: TestCase) =>
    ` · ${markup.text(`slower than ${base}: ${formatDuration(testCase.durationMs)}, typically ${formatDuration(testCase.typicalMs)}`)}`;
  const slower = testCaseList(markup, `🐢 Slower than ${base}`, judgment?.slower ?? [], budget, {
    marker: () => '',
    detail: slowerThan,
  });
  const items = (outcome.flakiest ?? []).map(({ title, changes, record }) =>
    markup.item(`${markup.text(title)} · ${plural(changes, 'change')} · ${record}`),
  );
  const on = outcome.branch ? ` on ${outcome.branch}` : '';
  return [...quarantined, ...slower, ...(items.length > 0 ? markup.list(`Flakiest${on}`, items) : [])];
}

/** The run's slowest test cases, with their typical durations on the base branch where known. */
export function slowestList(outcome: RunOutcome, markup: ListMarkup, budget: { left: number }): string[] {
  const timed = outcome.testCases.filter((testCase) => testCase.durationMs !== undefined);
  const slowest = timed.sort((a, b) => (b.durationMs as number) - (a.durationMs as number)).slice(0, 10);
  const typically = (testCase: TestCase) =>
    ` · ${formatDuration(testCase.durationMs)}${testCase.typicalMs === undefined ? '' : `, typically ${formatDuration(testCase.typicalMs)}`}`;
  return testCaseList(markup, 'Slowest test cases', slowest, budget, { marker: () => '', detail: typically });
}

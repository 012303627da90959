import { stat } from 'node:fs/promises';
import { formatDuration } from '../runner/duration.js';
import { appendSummary } from '../runner/step.js';
import { baseBranchCharts } from './charts.js';
import { cellText, linked, preText } from './escape.js';
import {
  countsLine,
  headingOf,
  historyLists,
  iconOf,
  judgmentHeadline,
  judgmentLists,
  type ListMarkup,
  plural,
  runLine,
  slowestList,
  targetHtml,
} from './format.js';
import type { RunOutcome, TestCase } from './outcome.js';
import { STATUS_ORDER, stepOutcome, targetName } from './targets.js';

/** GitHub drops a step summary above 1 MiB whole; stay well under it. */
export const SUMMARY_BUDGET_BYTES = 1_000_000;
// Room kept in each section for the closing lines after the table.
const CLOSING_RESERVE_BYTES = 1_000;
/** For the step: with several targets, each section gets its share. */
const APPLIED_OPTIONS_MAX_CHARS = 20_000;

const TABLE_OPEN =
  '<table>\n<thead><tr><th>Status</th><th>Test case</th><th>Duration</th></tr></thead>\n<tbody>';
const TABLE_CLOSE = '</tbody>\n</table>';
const TARGETS_OPEN =
  '<table>\n<thead><tr><th>Status</th><th>Target</th><th>Run</th><th>Test cases</th><th>Duration</th></tr></thead>\n<tbody>';

function testCaseRow(testCase: TestCase): string {
  const { icon, label } = testCase.verdict;
  return `<tr><td>${icon} ${cellText(label, 60)}</td><td>${linked(testCase.dashboardUrl, cellText(testCase.title))}</td><td>${formatDuration(testCase.durationMs)}</td></tr>`;
}

/**
 * A row from each open section in turn (only failing ones with `failingOnly`) while they fit. Plain
 * loops in a function of their own: this runs once for each of up to thousands of rows in a cold
 * process, where a callback a row or a loop over both passes cost a one-target summary of 10,000
 * test cases about 8 ms more than a simple loop (paired first runs, Node 24).
 */
function takeInTurn(
  orders: readonly (readonly TestCase[])[],
  rows: string[][],
  open: boolean[],
  budget: { left: number },
  failingOnly: boolean,
): void {
  for (let taken = true; taken; ) {
    taken = false;
    for (let i = 0; i < orders.length; i++) {
      const shown = rows[i] as string[];
      const next = (orders[i] as readonly TestCase[])[shown.length];
      if (!open[i] || next === undefined || (failingOnly && !next.verdict.fails)) continue;
      const row = testCaseRow(next);
      const bytes = Buffer.byteLength(row) + 1;
      if (bytes > budget.left) open[i] = false;
      else {
        shown.push(row);
        budget.left -= bytes;
        taken = true;
      }
    }
  }
}

/**
 * Each section's rows, a prefix of its report order, within `budgetBytes` for all of them: the
 * sections take a failing row each in turn while they have one, then, when every failing row
 * fit, any row likewise. A section stops at its first row that does not fit.
 */
function shareRows(orders: readonly (readonly TestCase[])[], budgetBytes: number): string[][] {
  const rows = orders.map((): string[] => []);
  const open = orders.map(() => true);
  const budget = { left: budgetBytes };
  takeInTurn(orders, rows, open, budget, true);
  // Failures first across the step: no passing row while a failing one was left out.
  if (orders.some((order, i) => order[rows[i]?.length ?? 0]?.verdict.fails)) return rows;
  takeInTurn(orders, rows, open, budget, false);
  return rows;
}

const HTML: ListMarkup = {
  text: cellText,
  item: (html) => `<li>${html}</li>`,
  list: (heading, items) => [`<p>${heading}</p>`, '<ul>', ...items, '</ul>'],
  note: (text) => [`<p>${text}</p>`],
};

/**
 * A section of the summary: the whole summary of one target, one level down with several, its
 * `fixedBytes` all but the rows of its table. `listChars`: what the comparison's lists may take;
 * `optionsChars`: the applied options.
 */
function sectionOf(outcome: RunOutcome, several: boolean, listChars: number, optionsChars: number) {
  if (outcome.status === 'STARTED') {
    const started = startedSummary(outcome);
    return { fixedBytes: Buffer.byteLength(started), html: () => started };
  }
  const [h, sub] = several ? ['h3', 'h4'] : ['h2', 'h3'];
  const which = several ? `: ${cellText(targetName(outcome))}` : '';
  const head: string[] = [`<${h}>${headingOf(outcome)}${which}</${h}>`];
  const line = runLine(outcome, cellText);
  if (line) head.push(`<p>${line}</p>`);
  if (outcome.message) head.push(`<p>${cellText(outcome.message, 2_000)}</p>`);
  if (outcome.notes.length > 0) {
    head.push(`<ul>${outcome.notes.map((note) => `<li>${cellText(note, 1_000)}</li>`).join('')}</ul>`);
  }
  const flakyNote = outcome.failOnFlaky && outcome.counts.flaky > 0 ? ' (flaky ones count as failed)' : '';
  head.push(`<p>${cellText(countsLine(outcome.counts))}${flakyNote}</p>`);
  const { judgment } = outcome;
  if (judgment?.against) {
    head.push(
      `<${sub}>Compared with ${cellText(judgment.against)}: ${judgmentHeadline(judgment)}</${sub}>`,
      ...judgmentLists(outcome, HTML, { left: listChars }),
    );
  } else if (judgment?.whyNone && outcome.counts.failed > 0) {
    head.push(`<p>${cellText(`Nothing to compare with: ${judgment.whyNone}.`, 1_000)}</p>`);
  }
  head.push(...historyLists(outcome, HTML, { left: listChars }));
  head.push(...slowestList(outcome, HTML, { left: listChars }));
  // Markdown inside the HTML: GitHub draws a Mermaid block set apart by blank lines.
  const charts = baseBranchCharts(judgment?.base ?? 'the base branch', judgment?.baseResults ?? []);
  if (charts.length > 0) head.push('', ...charts, '');
  const options = outcome.appliedOptions && JSON.stringify(outcome.appliedOptions, null, 2);
  const details = options
    ? `<details><summary>Applied options</summary><pre><code>${preText(options, optionsChars)}</code></pre></details>`
    : '';
  const table =
    outcome.testCases.length > 0 ? Buffer.byteLength(TABLE_OPEN) + Buffer.byteLength(TABLE_CLOSE) + 2 : 0;
  const fixedBytes =
    Buffer.byteLength(head.join('\n')) + Buffer.byteLength(details) + CLOSING_RESERVE_BYTES + table;
  const html = (rows: readonly string[], junitWritten: boolean): string => {
    const tail: string[] = [];
    if (outcome.testCases.length === 0) {
      tail.push('<p>No test case was reported.</p>');
    } else {
      tail.push([TABLE_OPEN, ...rows, TABLE_CLOSE].join('\n'));
      const hidden = outcome.reportOrder.slice(rows.length);
      if (hidden.length > 0) {
        const failingHidden = hidden.filter((testCase) => testCase.verdict.fails).length;
        const failingNote = failingHidden > 0 ? ` (${failingHidden} of them failed)` : '';
        const junit = junitWritten ? ' and the JUnit report' : '';
        const where = `the results file (output <code>results-file</code>)${junit}`;
        tail.push(
          `<p>${plural(hidden.length, 'more test case')} not shown${failingNote}; the full list is in ${where}.</p>`,
        );
      }
    }
    if (details) tail.push(details);
    return `${[...head, ...tail].join('\n')}\n`;
  };
  return { fixedBytes, html };
}

/** With several targets: the step's outcome, its totals, and a row per target. */
function targetsOverview(outcomes: readonly RunOutcome[]): string {
  const step = stepOutcome(outcomes);
  const byStatus = STATUS_ORDER.flatMap((status) => {
    const count = outcomes.filter((outcome) => outcome.status === status).length;
    return count > 0 ? [`${count} ${status}`] : [];
  });
  const duration = step.durationMs === undefined ? '' : ` · longest run ${formatDuration(step.durationMs)}`;
  const rows = outcomes.map((outcome) => {
    const cells = [
      `${iconOf(outcome)} ${outcome.status}`,
      targetHtml(outcome, cellText) || '—',
      outcome.runId ? linked(outcome.dashboardUrl, `<code>${cellText(outcome.runId)}</code>`) : '—',
      outcome.status === 'STARTED' ? '—' : cellText(countsLine(outcome.counts)),
      formatDuration(outcome.durationMs),
    ];
    return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
  });
  const heading = `${iconOf(step)} ${plural(outcomes.length, 'test run')}: ${byStatus.join(', ')}`;
  const totals = step.status === 'STARTED' ? '' : `<p>${cellText(countsLine(step.counts))}${duration}</p>\n`;
  return `<h2>${heading}</h2>\n${totals}${[TARGETS_OPEN, ...rows, TABLE_CLOSE].join('\n')}\n`;
}

/**
 * Within `budgetBytes` (what the summary file leaves), every text redacted and escaped. One target:
 * its section. Several: an overview, then a section per target, sharing the budget's rows.
 */
export function renderSummary(
  outcomes: readonly RunOutcome[],
  context: { junitWritten: boolean; budgetBytes?: number },
): string {
  const budget = context.budgetBytes ?? SUMMARY_BUDGET_BYTES;
  const several = outcomes.length > 1;
  const overview = several ? [targetsOverview(outcomes)] : [];
  // One target's comparison lists are capped by count only; several share an eighth of the budget
  // (in characters: up to three bytes each), the table rows most of the rest.
  const listChars = several ? budget / 8 / outcomes.length : Number.POSITIVE_INFINITY;
  const optionsChars = Math.floor(APPLIED_OPTIONS_MAX_CHARS / Math.max(1, outcomes.length));
  const sections = outcomes.map((outcome) => sectionOf(outcome, several, listChars, optionsChars));
  let fixed = Buffer.byteLength(overview.join(''));
  for (const section of sections) fixed += section.fixedBytes;
  const rows = shareRows(
    outcomes.map((outcome) => (outcome.status === 'STARTED' ? [] : outcome.reportOrder)),
    budget - fixed,
  );
  const html = sections.map((section, i) => section.html(rows[i] ?? [], context.junitWritten));
  return [...overview, ...html].join('\n');
}

function startedSummary(outcome: RunOutcome): string {
  const kind = outcome.mode === 'suite' ? 'test suite run' : 'project run';
  const suite =
    outcome.mode === 'suite' && outcome.testSuiteName
      ? ` of <strong>${cellText(outcome.testSuiteName)}</strong>`
      : '';
  const id = outcome.runId ? ` <code>${cellText(outcome.runId)}</code>` : '';
  return `<p>Started ${kind}${id}${suite} (not waiting for it).</p>\n`;
}

export async function writeSummary(outcomes: readonly RunOutcome[], junitWritten: boolean): Promise<void> {
  const file = process.env.GITHUB_STEP_SUMMARY;
  // A missing file counts as empty: core.summary.write() reports it.
  const existing = file ? ((await stat(file).catch(() => undefined))?.size ?? 0) : 0;
  const html = renderSummary(outcomes, { junitWritten, budgetBytes: SUMMARY_BUDGET_BYTES - existing });
  // A blank line first, so that whatever the file holds cannot run into this summary's HTML.
  const separator = existing > 0 ? '\n\n' : '';
  await appendSummary(separator + html);
}

import { stat } from 'node:fs/promises';
import { formatDuration } from '../runner/duration.js';
import { appendSummary } from '../runner/step.js';
import { cellText, linked, preText } from './escape.js';
import {
  comparisonHeadline,
  comparisonLists,
  countsLine,
  headingOf,
  type ListMarkup,
  plural,
  runLine,
} from './format.js';
import type { RunOutcome, TestCase } from './outcome.js';

/** GitHub drops a step summary above 1 MiB whole; stay well under it. */
export const SUMMARY_BUDGET_BYTES = 1_000_000;
// Room kept for the closing lines after the table.
const CLOSING_RESERVE_BYTES = 1_000;
const APPLIED_OPTIONS_MAX_CHARS = 20_000;

const TABLE_OPEN =
  '<table>\n<thead><tr><th>Status</th><th>Test case</th><th>Duration</th></tr></thead>\n<tbody>';
const TABLE_CLOSE = '</tbody>\n</table>';

function tableRows(ordered: readonly TestCase[], budgetBytes: number): string[] {
  const rows: string[] = [];
  let bytes = Buffer.byteLength(TABLE_OPEN) + Buffer.byteLength(TABLE_CLOSE) + 2;
  for (const testCase of ordered) {
    const { icon, label } = testCase.verdict;
    const row = `<tr><td>${icon} ${cellText(label, 60)}</td><td>${linked(testCase.dashboardUrl, cellText(testCase.title))}</td><td>${formatDuration(testCase.durationMs)}</td></tr>`;
    bytes += Buffer.byteLength(row) + 1;
    if (bytes > budgetBytes) break;
    rows.push(row);
  }
  return rows;
}

const HTML: ListMarkup = {
  text: cellText,
  item: (html) => `<li>${html}</li>`,
  list: (heading, items) => [`<p>${heading}</p>`, '<ul>', ...items, '</ul>'],
  note: (text) => [`<p>${text}</p>`],
};

/** Within `budgetBytes` (what the summary file leaves), every text redacted and escaped. */
export function renderSummary(
  outcome: RunOutcome,
  context: { junitWritten: boolean; budgetBytes?: number },
): string {
  if (outcome.status === 'STARTED') return startedSummary(outcome);
  const budget = context.budgetBytes ?? SUMMARY_BUDGET_BYTES;
  const head: string[] = [`<h2>${headingOf(outcome)}</h2>`];
  const line = runLine(outcome, cellText);
  if (line) head.push(`<p>${line}</p>`);
  if (outcome.message) head.push(`<p>${cellText(outcome.message, 2_000)}</p>`);
  if (outcome.notes.length > 0) {
    head.push(`<ul>${outcome.notes.map((note) => `<li>${cellText(note, 1_000)}</li>`).join('')}</ul>`);
  }
  const flakyNote = outcome.failOnFlaky && outcome.counts.flaky > 0 ? ' (flaky ones count as failed)' : '';
  head.push(`<p>${cellText(countsLine(outcome.counts))}${flakyNote}</p>`);
  const { comparison } = outcome;
  if (comparison) {
    const still = `${comparison.stillFailing.length} still failing`;
    head.push(
      `<h3>Compared with ${cellText(comparison.against)}: ${comparisonHeadline(comparison)}, ${still}</h3>`,
    );
    head.push(...comparisonLists(comparison, HTML, { left: Number.POSITIVE_INFINITY }));
  }

  const options = outcome.appliedOptions && JSON.stringify(outcome.appliedOptions, null, 2);
  const details = options
    ? `<details><summary>Applied options</summary><pre><code>${preText(options, APPLIED_OPTIONS_MAX_CHARS)}</code></pre></details>`
    : '';
  const tail: string[] = [];
  if (outcome.testCases.length === 0) {
    tail.push('<p>No test case was reported.</p>');
  } else {
    const used = Buffer.byteLength(head.join('\n')) + Buffer.byteLength(details) + CLOSING_RESERVE_BYTES;
    const rows = tableRows(outcome.reportOrder, budget - used);
    tail.push([TABLE_OPEN, ...rows, TABLE_CLOSE].join('\n'));
    const hidden = outcome.reportOrder.slice(rows.length);
    if (hidden.length > 0) {
      const failingHidden = hidden.filter((testCase) => testCase.verdict.fails).length;
      const failingNote = failingHidden > 0 ? ` (${failingHidden} of them failed)` : '';
      const junit = context.junitWritten ? ' and the JUnit report' : '';
      const where = `the results file (output <code>results-file</code>)${junit}`;
      tail.push(
        `<p>${plural(hidden.length, 'more test case')} not shown${failingNote}; the full list is in ${where}.</p>`,
      );
    }
  }
  if (details) tail.push(details);
  return `${[...head, ...tail].join('\n')}\n`;
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

export async function writeSummary(outcome: RunOutcome, junitWritten: boolean): Promise<void> {
  const file = process.env.GITHUB_STEP_SUMMARY;
  // A missing file counts as empty: core.summary.write() reports it.
  const existing = file ? ((await stat(file).catch(() => undefined))?.size ?? 0) : 0;
  const html = renderSummary(outcome, { junitWritten, budgetBytes: SUMMARY_BUDGET_BYTES - existing });
  // A blank line first, so that whatever the file holds cannot run into this summary's HTML.
  const separator = existing > 0 ? '\n\n' : '';
  await appendSummary(separator + html);
}

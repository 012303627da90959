import type { Column } from './record.js';

/** Longer branch names are cut: the title is one line above a chart a few hundred pixels wide. */
const MAX_BRANCH_CHARS = 60;

/**
 * What a Mermaid string can carry as it is, whatever GitHub's Mermaid does with it: letters, marks
 * and digits of any script, and a little punctuation. Everything else goes: `"` ends the string,
 * `%%` starts a comment or a directive (`%%{init: …}%%`) anywhere in the text, `#name;` is read as
 * an entity, `<…>` as HTML, and a control or bidirectional character would show what is not there.
 */
const NOT_IN_LABEL = /[^\p{L}\p{M}\p{N} ._\-/+@'(),!]/gu;

/** The branch as a chart's title shows it: a double quote as a single one, what Mermaid cannot take left out. */
function branchLabel(branch: string): string {
  const label = branch
    .replaceAll('"', "'")
    .replace(/\s+/g, ' ')
    .replace(NOT_IN_LABEL, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  const chars = [...label];
  if (chars.length === 0) return 'the base branch';
  return chars.length > MAX_BRANCH_CHARS ? `${chars.slice(0, MAX_BRANCH_CHARS - 1).join('')}…` : label;
}

/** The x axis: each commit short, quoted; a commit is hex, and anything else of it is left out. */
function commitAxis(columns: readonly Column[]): string {
  const labels = columns.map(({ commit }) => `"${commit.replace(/[^0-9a-zA-Z]/g, '').slice(0, 7) || '?'}"`);
  return `  x-axis "Oldest to newest" [${labels.join(', ')}]`;
}

/** A count Mermaid reads as a number: a value the record should never hold draws as 0, not as a broken chart. */
const count = (value: number) => (Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

/** A number in Mermaid's syntax (no exponent), to a tenth. */
const tenths = (value: number) => String(Math.round(value * 10) / 10);

function mermaid(lines: readonly string[]): string[] {
  return ['```mermaid', 'xychart-beta', ...lines, '```'];
}

function failedChart(label: string, columns: readonly Column[]): string[] {
  const failed = columns.map((column) => count(column.failed));
  return mermaid([
    `  title "Failed test cases on ${label}"`,
    commitAxis(columns),
    `  y-axis "Failed test cases" 0 --> ${Math.max(1, ...failed)}`,
    `  bar [${failed.join(', ')}]`,
  ]);
}

/** Minutes from two minutes on, seconds below: the longest result sets the unit of all. */
function durationChart(label: string, columns: readonly Column[]): string[] {
  const timed = columns.filter(
    (column): column is Column & { durationMs: number } =>
      column.durationMs !== undefined && Number.isFinite(column.durationMs) && column.durationMs >= 0,
  );
  if (timed.length === 0) return [];
  const longest = Math.max(...timed.map(({ durationMs }) => durationMs));
  const [unit, msPerUnit] = longest >= 120_000 ? ['min', 60_000] : ['s', 1000];
  const values = timed.map(({ durationMs }) => tenths(durationMs / msPerUnit));
  return mermaid([
    `  title "Duration of each result on ${label}"`,
    commitAxis(timed),
    `  y-axis "Duration (${unit})" 0 --> ${Math.max(1, Math.ceil(longest / msPerUnit))}`,
    `  line [${values.join(', ')}]`,
  ]);
}

/**
 * The base branch at a glance, as lines of Markdown: a Mermaid chart of the failed test cases of
 * each result, as bars, and one of each result's duration, as a line, oldest to newest. The
 * duration chart shows the results whose duration is known, and none when no result has one.
 * Nothing from fewer than two results: a single bar says nothing a table does not.
 */
export function baseBranchCharts(branch: string, columns: readonly Column[]): string[] {
  if (columns.length < 2) return [];
  const label = branchLabel(branch);
  const durations = durationChart(label, columns);
  return [...failedChart(label, columns), ...(durations.length > 0 ? ['', ...durations] : [])];
}

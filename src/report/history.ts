import { HISTORY_MAX_RESULTS } from '../inputs/settings.js';
import { hashOf } from './digest.js';
import { judge } from './test-case-status.js';

/*
 * A target's history on its branch (round 6), hidden in the output.text of the branch's own check
 * runs. v1 layout, one HTML comment, rows in hash order:
 *
 *   <!-- test-run-action history v1 commits=<oldest>,...,<newest> partial=<n>
 *   <12-hex title hash> <one verdict per commit>
 *   -->
 *
 * Only test cases that did not pass in some result of the window have a row. `partial=n`: the n
 * oldest columns may miss rows that were cut to fit; once those columns leave the window, whatever
 * was cut would have left with them, so the history is whole again.
 */

/** Within GitHub's 65,535 characters and bytes of `output.text` (the text is ASCII). */
export const HISTORY_MAX_CHARS = 60_000;
/** Longer text is refused before it is parsed. */
const READ_MAX_CHARS = 70_000;
const OPEN = '<!-- test-run-action history v1 ';
/** What tells a text that holds a history, valid or not. */
export const HISTORY_MARK = OPEN;
const CLOSE = '-->';
const HASH_CHARS = 12;
/** Enough to tell commits apart in a large repository; a label shows the first 7. */
const SHORT_COMMIT_CHARS = 12;
const COMMIT = /^[0-9a-f]{7,64}$/;
const HEADER = /^commits=([0-9a-f,]+) partial=(0|[1-9]\d{0,2})$/;
const ROW = /^[0-9a-f]{12} [FKS.]+$/;
const PASSED = '.';
/** From the best verdict to the worst: a title listed several times in a run gets its worst. */
const WORSE = '.SKF';

export interface History {
  /** The results' short commits, oldest first. */
  commits: string[];
  /** By title hash: one verdict per commit, F failed, K flaky, S skipped, `.` passed there or did not run. */
  rows: Map<string, string>;
  /** How many of the oldest columns may miss rows cut to fit: 0 when the history is whole. */
  partial: number;
}

export interface HistoryRun {
  commit: string;
  testCases: readonly { title: string; verdict: { count: string; fails: boolean } }[];
}

export type Label =
  | { kind: 'new' }
  | { kind: 'failing'; since: string; results: number }
  | { kind: 'flaky'; failed: number; of: number };

export interface Quarantine {
  matches(title: string): boolean;
  /** The lines that match none of the titles. */
  unmatched(titles: readonly string[]): string[];
}

export function historyText(history: History): string {
  const { commits, rows, partial } = withinBudget(history);
  const lines = [...rows.keys()].sort().map((hash) => `${hash} ${rows.get(hash)}\n`);
  return `${OPEN}commits=${commits.join(',')} partial=${partial}\n${lines.join('')}${CLOSE}`;
}

/** Undefined for a history that is missing, cut off, forged or garbage. Never throws; linear in the text. */
export function readHistory(text: string | null | undefined): History | undefined {
  if (typeof text !== 'string' || text.length > READ_MAX_CHARS) return undefined;
  const start = text.indexOf(OPEN);
  const end = text.indexOf(`\n${CLOSE}`, start);
  if (start < 0 || end < 0 || text.includes(OPEN, start + 1)) return undefined;
  if (end + 1 + CLOSE.length - start > HISTORY_MAX_CHARS) return undefined;
  const [header = '', ...lines] = text.slice(start + OPEN.length, end).split('\n');
  const match = HEADER.exec(header);
  const commits = match?.[1]?.split(',') ?? [];
  const partial = Number(match?.[2]);
  if (!match || commits.length > HISTORY_MAX_RESULTS || partial > commits.length) return undefined;
  if (!commits.every((commit) => COMMIT.test(commit))) return undefined;
  const rows = new Map<string, string>();
  let previous = '';
  for (const line of lines) {
    const hash = line.slice(0, HASH_CHARS);
    const verdicts = line.slice(HASH_CHARS + 1);
    // In hash order, so a hash given twice is out of order too.
    if (!ROW.test(line) || verdicts.length !== commits.length || hash <= previous) return undefined;
    if (!hasNonPass(verdicts)) return undefined;
    rows.set(hash, verdicts);
    previous = hash;
  }
  return { commits, rows, partial };
}

/**
 * The history with this run's column added, its oldest columns past `window` (1 to 100) dropped.
 * A run of the newest column's commit again (a re-run) replaces that column: one result per commit.
 */
export function extendHistory(previous: History | undefined, run: HistoryRun, window: number): History {
  if (!Number.isInteger(window) || window < 1 || window > HISTORY_MAX_RESULTS) {
    throw new RangeError(`history window ${window} is not 1 to ${HISTORY_MAX_RESULTS}`);
  }
  const commit = run.commit.toLowerCase();
  if (!COMMIT.test(commit)) throw new RangeError(`not a commit: ${run.commit}`);
  const short = commit.slice(0, SHORT_COMMIT_CHARS);
  const before = previous?.commits ?? [];
  const newest = before.at(-1);
  const rerun = newest !== undefined && (newest.startsWith(short) || short.startsWith(newest));
  const end = rerun ? before.length - 1 : before.length;
  const from = Math.max(0, end - (window - 1));
  const commits = [...before.slice(from, end), short];
  const column = columnOf(run.testCases);
  const rows = new Map<string, string>();
  for (const [hash, verdicts] of previous?.rows ?? []) {
    const row = verdicts.slice(from, end) + (column.get(hash) ?? PASSED);
    if (hasNonPass(row)) rows.set(hash, row);
  }
  for (const [hash, verdict] of column) {
    if (!rows.has(hash)) rows.set(hash, PASSED.repeat(commits.length - 1) + verdict);
  }
  const partial = Math.max(0, Math.min(previous?.partial ?? 0, end) - from);
  return withinBudget({ commits, rows, partial });
}

/** The newest `count` results of a history, none for 0 (a pull request reads at most 'history' of them). */
export function lastResults(history: History, count: number): History | undefined {
  if (count === 0) return undefined;
  const cut = Math.max(0, history.commits.length - count);
  if (cut === 0) return history;
  const rows = new Map<string, string>();
  for (const [hash, verdicts] of history.rows) {
    if (hasNonPass(verdicts.slice(cut))) rows.set(hash, verdicts.slice(cut));
  }
  return { commits: history.commits.slice(cut), rows, partial: Math.max(0, history.partial - cut) };
}

/** This run's verdict of each title that did not pass. */
function columnOf(testCases: HistoryRun['testCases']): Map<string, string> {
  const column = new Map<string, string>();
  for (const testCase of testCases) {
    const { verdict } = testCase;
    let char = PASSED;
    if (verdict.fails || verdict.count === 'failed') char = 'F';
    else if (verdict.count === 'flaky') char = 'K';
    else if (verdict.count === 'skipped') char = 'S';
    if (char === PASSED) continue;
    const hash = hashOf(testCase);
    const earlier = column.get(hash) ?? PASSED;
    if (WORSE.indexOf(char) > WORSE.indexOf(earlier)) column.set(hash, char);
  }
  return column;
}

/**
 * Past the budget, the rows that failed (F or K) most recently are kept, then by hash: a row only
 * ever skipped goes first, whatever its skips, since labels are made of failures.
 */
function withinBudget(history: History): History {
  const { commits, rows } = history;
  const frame = `${OPEN}commits=${commits.join(',')} partial=${commits.length}\n${CLOSE}`.length;
  const room = Math.max(0, Math.floor((HISTORY_MAX_CHARS - frame) / (HASH_CHARS + commits.length + 2)));
  if (rows.size <= room) return history;
  const kept = [...rows]
    .map(([hash, verdicts]) => ({ hash, verdicts, last: lastFailure(verdicts) }))
    .sort((a, b) => b.last - a.last || byHash(a, b))
    .slice(0, room);
  return { commits, rows: new Map(kept.map((row) => [row.hash, row.verdicts])), partial: commits.length };
}

/**
 * `knownFailing`: it fails at the baseline or at the base branch's newest result (the digests say).
 * Failing also when the history's newest result has it failing.
 */
export function labelFailure(hash: string, history: History, knownFailing: boolean): Label {
  const { commits } = history;
  const verdicts = history.rows.get(hash) ?? '';
  let start = verdicts.length;
  while (start > 0 && verdicts[start - 1] === 'F') start--;
  const results = verdicts.length - start;
  if (results > 0) return { kind: 'failing', since: commits[start] as string, results };
  if (knownFailing) return { kind: 'failing', since: commits.at(-1) ?? '', results: 1 };
  const failed = countFailures(verdicts);
  return failed > 0 ? { kind: 'flaky', failed, of: commits.length } : { kind: 'new' };
}

const ICONS: Record<string, string> = {
  '.': judge('PASSED', false).icon,
  F: judge('FAILED', false).icon,
  K: judge('FLAKY', false).icon,
  S: judge('SKIPPED', false).icon,
};

const records = new Map<string, string>();

/** One icon per result, oldest to newest: `✅✅❌✅⚠️`. Made once per pattern: rows share few of them. */
export function recordOf(verdicts: string): string {
  let record = records.get(verdicts);
  if (record === undefined) {
    record = Array.from(verdicts, (verdict) => ICONS[verdict] ?? '').join('');
    records.set(verdicts, record);
  }
  return record;
}

/** The rows with the most changes between passing and failing (F or K); skipped results left out. */
export function flakiest(
  history: History,
  limit = 10,
): { hash: string; verdicts: string; changes: number }[] {
  const ranked: { hash: string; verdicts: string; changes: number; last: number }[] = [];
  for (const [hash, verdicts] of history.rows) {
    const changes = changesIn(verdicts);
    if (changes > 0) ranked.push({ hash, verdicts, changes, last: lastFailure(verdicts) });
  }
  ranked.sort((a, b) => b.changes - a.changes || b.last - a.last || byHash(a, b));
  return ranked.slice(0, limit).map(({ hash, verdicts, changes }) => ({ hash, verdicts, changes }));
}

function changesIn(verdicts: string): number {
  let changes = 0;
  let wasFailing: boolean | undefined;
  for (const verdict of verdicts) {
    if (verdict === 'S') continue;
    const failing = verdict !== PASSED;
    if (wasFailing !== undefined && failing !== wasFailing) changes++;
    wasFailing = failing;
  }
  return changes;
}

const hasNonPass = (verdicts: string) => /[^.]/.test(verdicts);
const lastFailure = (verdicts: string) => Math.max(verdicts.lastIndexOf('F'), verdicts.lastIndexOf('K'));
function countFailures(verdicts: string): number {
  let failures = 0;
  for (const verdict of verdicts) if (verdict === 'F' || verdict === 'K') failures++;
  return failures;
}
const byHash = (a: { hash: string }, b: { hash: string }) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0);

/**
 * `quarantine`'s lines: `*` matches any run of characters, everything else is literal, the whole
 * title, case-sensitive. No RegExp: `^.*a.*a.*a.*a.*b$` took 27 s on a title of 200 `a`s, as it
 * backtracks; each part between stars is found left to right with indexOf instead, which never does.
 */
export function quarantineMatcher(lines: readonly string[]): Quarantine {
  const patterns = [...new Set(lines.map((line) => line.trim()).filter(Boolean))].map((line) => ({
    line,
    parts: line.split('*'),
  }));
  const matches = (title: string) => patterns.some(({ parts }) => globMatches(parts, title));
  const unmatched = (titles: readonly string[]) =>
    patterns
      .filter(({ parts }) => !titles.some((title) => globMatches(parts, title)))
      .map(({ line }) => line);
  return { matches, unmatched };
}

/** The leftmost place of each middle part is as good as any: it leaves the most title for the rest. */
function globMatches(parts: readonly string[], title: string): boolean {
  const first = parts[0] ?? '';
  if (parts.length === 1) return title === first;
  const last = parts.at(-1) ?? '';
  const stop = title.length - last.length;
  if (stop < first.length || !title.startsWith(first) || !title.endsWith(last)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = title.indexOf(part, at);
    if (found < 0 || found + part.length > stop) return false;
    at = found + part.length;
  }
  return true;
}

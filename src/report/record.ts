import { hash } from 'node:crypto';
import type { QuarantineEntry } from '../inputs/quarantine.js';
import { HISTORY_MAX_RESULTS } from '../inputs/settings.js';
import { judge } from './test-case-status.js';

/*
 * A target's record: the one fact a run leaves for later runs, hidden in the output.text of each
 * check run the action writes. This module alone writes, reads, validates and carries it forward.
 * v=1, ASCII, one HTML comment of lines:
 *
 *   <!-- test-run-action record v=1
 *   of=<branch|pull-request> commit=<full sha> cut=<oldest columns missing rows> qcut=<entries left out> name=<check name, URI-encoded>
 *   c <short commit> <passed> <failed> <flaky> <duration ms|->      a column a result, oldest first
 *   q <until YYYY-MM-DD|-> <pattern, URI-encoded>                   quarantine entries the run applied
 *   d <key> <ms>,<ms>,...                                           last durations of passing results
 *   r <key> <one verdict a column>                                  test cases that did not pass in one
 *   -->
 *
 * A key is a title's hash; the k-th test case of a title in a run (worst verdict first) adds `.k`,
 * so that a title failing twice then and three times now is one new failure.
 */

export type RecordOwner = 'branch' | 'pull-request';

export interface Column {
  /** Short: enough to tell commits apart in a large repository; a label shows the first 7. */
  commit: string;
  passed: number;
  failed: number;
  flaky: number;
  durationMs?: number;
}

export interface ResultRecord {
  of: RecordOwner;
  /** The check name: the target's identity. */
  name: string;
  /** The newest column's full commit. */
  commit: string;
  columns: Column[];
  /** By key: a verdict a column, F failed, K flaky, S skipped, `.` passed there or no verdict. */
  rows: Map<string, string>;
  /** By key: the last durations (ms) of its passed or flaky results, oldest first. */
  durations: Map<string, number[]>;
  quarantine: QuarantineEntry[];
  /** Quarantine entries left out to fit (past 200 entries or 10,000 characters): the first ones are carried. */
  quarantineCut: number;
  /**
   * How many of the oldest columns may miss rows cut to fit (0: whole). Once they leave the window,
   * whatever was cut left with them.
   */
  cut: number;
}

/** GitHub's limit of a check run's output.text, in characters and in bytes (the record is ASCII). */
const MAX_CHARS = 65_535;
/** Quarantine entries carried at most (the rest are cut, and the record says so). */
export const QUARANTINE_MAX_ENTRIES = 200;
const QUARANTINE_MAX_CHARS = 10_000;
/** What the durations may take: the rows of a thousand flaky test cases must fit beside them. */
const DURATIONS_MAX_CHARS = 20_000;
export const DURATIONS_KEPT = 5;
const SHORT_COMMIT_CHARS = 12;
const OPEN = '<!-- test-run-action record ';
const CLOSE = '-->';

const KEY = '[0-9a-f]{12}(?:\\.[1-9]\\d{0,5})?';
const HEADER =
  /^of=(branch|pull-request) commit=([0-9a-f]{40,64}) cut=(0|[1-9]\d{0,2}) qcut=(0|[1-9]\d{0,6}) name=(\S{1,2000})$/;
const COLUMN = /^c ([0-9a-f]{7,12}) (\d{1,9}) (\d{1,9}) (\d{1,9}) (\d{1,10}|-)$/;
const ENTRY = /^q (\d{4}-\d{2}-\d{2}|-) (\S{1,10000})$/;
const DURATIONS = new RegExp(`^d (${KEY}) (\\d{1,10}(?:,\\d{1,10}){0,${DURATIONS_KEPT - 1}})$`);
const ROW = new RegExp(`^r (${KEY}) ([FKS.]{1,${HISTORY_MAX_RESULTS}})$`);

/** A record as one run reads another's; `invalid` for one it cannot read, a version it does not know included. */
export type RecordRead =
  | { kind: 'record'; record: ResultRecord }
  | { kind: 'none' }
  | { kind: 'invalid'; why: string };

export function titleHash(title: string): string {
  return hash('sha256', title, 'hex').slice(0, 12);
}

/** What a run of the record needs of a test case. */
export interface RecordedCase {
  title: string;
  status?: string;
  durationMs?: number;
}

/** F failed, K flaky, S skipped; `.` passed or never ran to an end (no failure of the branch): the status table's. */
export function verdictChar(status: string | undefined): string {
  return judge(status, false).recorded;
}
/** F, then a test case that did not finish, K, S, passed: duplicates of a title are numbered so. */
function rank(testCase: RecordedCase): number {
  const verdict = verdictChar(testCase.status);
  if (verdict !== '.') return 'F.KS'.indexOf(verdict);
  return testCase.status === 'PASSED' ? 4 : 1;
}

/** Each test case's key: duplicates of a title are numbered worst verdict first. Made once per run. */
const keysMade = new WeakMap<readonly RecordedCase[], Map<RecordedCase, string>>();
export function keysOf<T extends RecordedCase>(testCases: readonly T[]): Map<T, string> {
  const made = keysMade.get(testCases);
  if (made) return made as Map<T, string>;
  const byHash = new Map<string, T[]>();
  for (const testCase of testCases) {
    const titleKey = titleHash(testCase.title);
    const same = byHash.get(titleKey);
    if (same) same.push(testCase);
    else byHash.set(titleKey, [testCase]);
  }
  const keys = new Map<T, string>();
  for (const [titleKey, same] of byHash) {
    if (same.length > 1) same.sort((a, b) => rank(a) - rank(b));
    for (const [k, each] of same.entries()) keys.set(each, k === 0 ? titleKey : `${titleKey}.${k}`);
  }
  keysMade.set(testCases, keys as Map<RecordedCase, string>);
  return keys;
}

/** One run's result, as the record takes it. */
export interface RecordedRun {
  commit: string;
  testCases: readonly RecordedCase[];
  durationMs?: number;
}

/**
 * The record a run's check run carries: with `run` (a run that finished), the previous record's
 * newest `window - 1` columns and this run's; without, the previous one unchanged.
 */
export function nextRecord(
  previous: ResultRecord | undefined,
  run: RecordedRun | undefined,
  context: { of: RecordOwner; name: string; window: number; quarantine: readonly QuarantineEntry[] },
): ResultRecord | undefined {
  if (!run) return previous && { ...previous, of: context.of, name: context.name };
  const carried = previous && context.window > 1 ? lastResults(previous, context.window - 1) : undefined;
  const before = carried?.columns ?? [];
  const keys = keysOf(run.testCases);
  const column: Column = { commit: run.commit.slice(0, SHORT_COMMIT_CHARS), passed: 0, failed: 0, flaky: 0 };
  if (run.durationMs !== undefined) column.durationMs = Math.round(run.durationMs);
  const now = new Map<string, string>();
  const durations = new Map<string, number[]>();
  for (const testCase of run.testCases) {
    const verdict = verdictChar(testCase.status);
    const key = keys.get(testCase) as string;
    if (verdict === 'F') column.failed++;
    else if (verdict === 'K') column.flaky++;
    else if (testCase.status === 'PASSED') column.passed++;
    if (verdict !== '.') now.set(key, verdict);
    const earlier = previous?.durations.get(key) ?? [];
    const passing = (verdict === 'K' || testCase.status === 'PASSED') && testCase.durationMs !== undefined;
    const kept = passing ? [...earlier, Math.round(testCase.durationMs as number)] : earlier;
    if (kept.length > 0) durations.set(key, kept.slice(-DURATIONS_KEPT));
  }
  const rows = new Map<string, string>();
  for (const [key, verdicts] of carried?.rows ?? []) {
    const row = verdicts + (now.get(key) ?? '.');
    if (/[^.]/.test(row)) rows.set(key, row);
  }
  for (const [key, verdict] of now) {
    if (!rows.has(key)) rows.set(key, '.'.repeat(before.length) + verdict);
  }
  return {
    of: context.of,
    name: context.name,
    commit: run.commit,
    columns: [...before, column],
    rows,
    durations,
    quarantine: [...context.quarantine],
    quarantineCut: 0,
    cut: carried?.cut ?? 0,
  };
}

/** The newest `count` columns (at least one), rows that only passed in them dropped. */
export function lastResults(record: ResultRecord, count: number): ResultRecord {
  const from = Math.max(0, record.columns.length - Math.max(1, count));
  if (from === 0) return record;
  const rows = new Map<string, string>();
  for (const [key, verdicts] of record.rows) {
    const kept = verdicts.slice(from);
    if (/[^.]/.test(kept)) rows.set(key, kept);
  }
  const cut = Math.max(0, record.cut - from);
  return { ...record, columns: record.columns.slice(from), rows, cut };
}

/**
 * The record as text, within GitHub's limit, in this order of priority: the window and its totals,
 * the quarantine, the durations (slowest first), the rows that failed most recently. What is cut
 * is counted (rows) or shows (fewer entries, fewer durations).
 */
export function recordText(record: ResultRecord): string {
  const columns = record.columns.map(
    (column) =>
      `c ${column.commit} ${column.passed} ${column.failed} ${column.flaky} ${column.durationMs ?? '-'}\n`,
  );
  const entries = fitting(
    record.quarantine
      .slice(0, QUARANTINE_MAX_ENTRIES)
      .map((entry) => `q ${entry.until ?? '-'} ${encodeURIComponent(entry.pattern)}\n`),
    QUARANTINE_MAX_CHARS,
  );
  const slowest = [...record.durations]
    .map(([key, list]) => ({ key, list, typical: median(list) }))
    .sort((a, b) => b.typical - a.typical || byKey(a.key, b.key));
  const durations = fitting(
    slowest.map(({ key, list }) => `d ${key} ${list.join(',')}\n`),
    DURATIONS_MAX_CHARS,
  );
  const quarantineCut = record.quarantine.length - entries.length + record.quarantineCut;
  const frame = (cut: number) =>
    `${OPEN}v=1\nof=${record.of} commit=${record.commit} cut=${cut} qcut=${quarantineCut} name=${encodeURIComponent(record.name)}\n`;
  const fixed = frame(999).length + CLOSE.length + sum(columns) + sum(entries) + sum(durations);
  const ranked = [...record.rows]
    .map(([key, verdicts]) => ({ key, verdicts, last: lastFailure(verdicts) }))
    .sort((a, b) => b.last - a.last || byKey(a.key, b.key));
  const rows = fitting(
    ranked.map(({ key, verdicts }) => `r ${key} ${verdicts}\n`),
    MAX_CHARS - fixed,
  );
  const cut = rows.length < ranked.length ? record.columns.length : record.cut;
  return `${frame(cut)}${columns.join('')}${entries.join('')}${durations.join('')}${rows.join('')}${CLOSE}`;
}

/** Never throws; linear in the text. */
export function readRecord(text: string | null | undefined): RecordRead {
  if (typeof text !== 'string') return { kind: 'none' };
  const start = text.indexOf(OPEN);
  if (start < 0) return { kind: 'none' };
  const end = text.indexOf(`\n${CLOSE}`, start);
  if (end < 0 || end - start > MAX_CHARS) return { kind: 'invalid', why: 'it is cut off or too long' };
  const [version, header = '', ...lines] = text.slice(start + OPEN.length, end).split('\n');
  if (version !== 'v=1') return { kind: 'invalid', why: `its version (${version?.slice(0, 20)}) is unknown` };
  const head = HEADER.exec(header);
  const name = head ? decoded(head[5] as string) : undefined;
  if (!head || name === undefined) return { kind: 'invalid', why: 'its header does not read' };
  const record: ResultRecord = {
    of: head[1] as RecordOwner,
    name,
    commit: head[2] as string,
    columns: [],
    rows: new Map(),
    durations: new Map(),
    quarantine: [],
    quarantineCut: Number(head[4]),
    cut: Number(head[3]),
  };
  for (const each of lines) {
    const why = readLine(record, each);
    if (why) return { kind: 'invalid', why };
  }
  const width = record.columns.length;
  if (width === 0 || width > HISTORY_MAX_RESULTS || record.cut > width) {
    return { kind: 'invalid', why: 'its columns do not read' };
  }
  if (record.quarantine.length > QUARANTINE_MAX_ENTRIES) return { kind: 'invalid', why: 'too many entries' };
  for (const verdicts of record.rows.values()) {
    if (verdicts.length !== width) return { kind: 'invalid', why: 'a row does not match its columns' };
  }
  return { kind: 'record', record };
}

/** A line into the record, in the order written; why it does not read otherwise. */
function readLine(record: ResultRecord, text: string): string | undefined {
  const kind = text[0] ?? '';
  const at = 'cqdr'.indexOf(kind);
  const last = record.rows.size ? 3 : record.durations.size ? 2 : record.quarantine.length ? 1 : 0;
  if (at >= 0 && at < last) return 'its lines are out of order';
  if (kind === 'c') {
    const match = COLUMN.exec(text);
    if (!match) return 'a column does not read';
    const [passed, failed, flaky] = [match[2], match[3], match[4]].map(Number) as [number, number, number];
    const column: Column = { commit: match[1] as string, passed, failed, flaky };
    if (match[5] !== '-') column.durationMs = Number(match[5]);
    record.columns.push(column);
  } else if (kind === 'q') {
    const match = ENTRY.exec(text);
    const pattern = match ? decoded(match[2] as string) : undefined;
    if (!match || pattern === undefined) return 'a quarantine entry does not read';
    record.quarantine.push(match[1] === '-' ? { pattern } : { pattern, until: match[1] as string });
  } else if (kind === 'd') {
    const match = DURATIONS.exec(text);
    if (!match || record.durations.has(match[1] as string)) return 'a duration does not read';
    record.durations.set(match[1] as string, (match[2] as string).split(',').map(Number));
  } else if (kind === 'r') {
    const match = ROW.exec(text);
    if (!match || record.rows.has(match[1] as string) || !/[^.]/.test(match[2] as string)) {
      return 'a row does not read';
    }
    record.rows.set(match[1] as string, match[2] as string);
  } else {
    return 'a line does not read';
  }
  return undefined;
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The typical duration: the median of three or more, else none. */
export function typicalDuration(durations: readonly number[] | undefined): number | undefined {
  return durations && durations.length >= 3 ? median(durations) : undefined;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const ICONS: Record<string, string> = {
  '.': judge('PASSED', false).icon,
  F: judge('FAILED', false).icon,
  K: judge('FLAKY', false).icon,
  S: judge('SKIPPED', false).icon,
};
const icons = new Map<string, string>();

/** One icon per result, oldest to newest: `✅✅❌✅⚠️`. Made once per pattern: rows share few of them. */
export function iconsOf(verdicts: string): string {
  let made = icons.get(verdicts);
  if (made === undefined) {
    made = Array.from(verdicts, (verdict) => ICONS[verdict] ?? '').join('');
    icons.set(verdicts, made);
  }
  return made;
}

/** The rows with the most changes between passing and failing (F or K); skipped results left out. */
export function flakiest(
  record: ResultRecord,
  limit = 10,
): { key: string; verdicts: string; changes: number }[] {
  const ranked: { key: string; verdicts: string; changes: number; last: number }[] = [];
  for (const [key, verdicts] of record.rows) {
    const changes = changesIn(verdicts);
    if (changes > 0) ranked.push({ key, verdicts, changes, last: lastFailure(verdicts) });
  }
  ranked.sort((a, b) => b.changes - a.changes || b.last - a.last || byKey(a.key, b.key));
  return ranked.slice(0, limit).map(({ key, verdicts, changes }) => ({ key, verdicts, changes }));
}

function changesIn(verdicts: string): number {
  let changes = 0;
  let wasFailing: boolean | undefined;
  for (const verdict of verdicts) {
    if (verdict === 'S') continue;
    const failing = verdict === 'F' || verdict === 'K';
    if (wasFailing !== undefined && failing !== wasFailing) changes++;
    wasFailing = failing;
  }
  return changes;
}

/** The longest run of lines that fits in `max` characters, in their order. */
function fitting(lines: string[], max: number): string[] {
  let left = max;
  let count = 0;
  for (const each of lines) {
    if (each.length > left) break;
    left -= each.length;
    count++;
  }
  return lines.slice(0, count);
}

const sum = (lines: readonly string[]) => lines.reduce((total, each) => total + each.length, 0);
const lastFailure = (verdicts: string) => Math.max(verdicts.lastIndexOf('F'), verdicts.lastIndexOf('K'));
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

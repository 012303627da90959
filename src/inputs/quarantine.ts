import { shown } from '../service/validation.js';
import { InputError } from './input-error.js';

/**
 * One line of the `quarantine` input: a title pattern, `*` matching any run of characters, and
 * the last day (UTC, `YYYY-MM-DD`) it is in force when the line ends with `until <date>`.
 */
export interface QuarantineEntry {
  pattern: string;
  until?: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** What a date was meant to be, written some other way (`2026-5-1`): an error, not part of a title. */
const DATE_LIKE = /^\d{1,4}-\d{1,2}-\d{1,2}$/;

/** The line without its last word, and that word; `undefined` for a line of one word. */
function lastWord(text: string): [rest: string, word: string] | undefined {
  let at = text.length;
  while (at > 0 && !/\s/.test(text.charAt(at - 1))) at -= 1;
  return at === 0 ? undefined : [text.slice(0, at).trimEnd(), text.slice(at)];
}

/** Whether `YYYY-MM-DD` names a day of the calendar (not `2026-02-30`, not `2026-13-01`). */
function isDay(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function quarantineLine(line: string, number: number): QuarantineEntry {
  const [rest, date] = lastWord(line) ?? ['', ''];
  const before = lastWord(rest);
  const [pattern, keyword] = before ?? ['', rest];
  // A title may end with "until" and some word: only a date after it makes the line expire.
  if (keyword !== 'until' || !DATE_LIKE.test(date)) return { pattern: line };
  if (!isDay(date)) {
    throw new InputError(
      `Input 'quarantine' line ${number}, ${shown(line)}: the date after 'until' must be a day that exists, written YYYY-MM-DD (e.g. 2026-03-31); got ${shown(date)}.`,
    );
  }
  if (pattern === '') {
    throw new InputError(
      `Input 'quarantine' line ${number}, ${shown(line)}: a test case title or pattern must come before 'until'.`,
    );
  }
  return { pattern, until: date };
}

/** Each non-blank line, trimmed, in the input's order. */
export function parseQuarantine(text: string): QuarantineEntry[] {
  return text.split('\n').flatMap((raw, index) => {
    const line = raw.trim();
    return line === '' ? [] : [quarantineLine(line, index + 1)];
  });
}

/** The UTC day of a time, `YYYY-MM-DD`, as `until` is written. */
export function utcDay(time: Date | number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** In force through its `until` day (UTC); expired from the day after. `today`: `YYYY-MM-DD`, UTC. */
export function expired(entry: QuarantineEntry, today: string): boolean {
  return entry.until !== undefined && entry.until < today;
}

/** The entries still in force whose last day is within `days` days from today, today included. */
export function expiringWithin(
  entries: readonly QuarantineEntry[],
  today: string,
  days = 7,
): QuarantineEntry[] {
  const last = utcDay(Date.parse(`${today}T00:00:00Z`) + (days - 1) * 86_400_000);
  return entries.filter((entry) => entry.until !== undefined && entry.until >= today && entry.until <= last);
}

/**
 * Whether a pattern matches the whole title, case-sensitively: `*` matches any run of characters,
 * everything else itself. No regular expression: one built from a pattern such as `*a*a*a*b` can
 * backtrack for minutes on a long title. The parts between stars are found left to right, each at
 * its first place after the previous one: that leaves the most title for the parts after it.
 */
export function matchesPattern(pattern: string, title: string): boolean {
  const parts = pattern.split('*');
  const first = parts[0] ?? '';
  if (parts.length === 1) return title === first;
  const last = parts.at(-1) ?? '';
  const end = title.length - last.length;
  if (end < first.length || !title.startsWith(first) || !title.endsWith(last)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = title.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

export interface QuarantineMatcher {
  /** Whether any pattern matches the title. */
  matches(title: string): boolean;
  /** The patterns that match none of the titles, each once, in the order given. */
  unmatched(titles: readonly string[]): string[];
}

export function quarantineMatcher(patterns: readonly string[]): QuarantineMatcher {
  const unique = [...new Set(patterns)];
  return {
    matches: (title) => unique.some((pattern) => matchesPattern(pattern, title)),
    unmatched: (titles) =>
      unique.filter((pattern) => !titles.some((title) => matchesPattern(pattern, title))),
  };
}

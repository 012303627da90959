/** Until inputs/quarantine.ts owns the input: the quarantine's glob matcher. */
export interface Quarantine {
  matches(title: string): boolean;
  /** The lines that match none of the titles. */
  unmatched(titles: readonly string[]): string[];
}

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

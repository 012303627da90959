import { redact } from './secrets.js';

declare const cleaned: unique symbol;

/**
 * Text that may reach the runner: one line, no character of the set below and no secret. Only
 * `safe` and `line` make it, and everything that writes to the log, an annotation, an output or
 * the state takes it, so no foreign value reaches the runner without passing through `clean`.
 */
export type SafeText = string & { readonly [cleaned]: true };

/**
 * The one set of characters that no text leaving the action carries as it is: what could end a
 * line for the runner (LF, CR) or a terminal, hide what the text says or reorder it. C0 and C1
 * controls, DEL, the Arabic letter mark, zero-width space, left-to-right and right-to-left marks,
 * line and paragraph separators, bidirectional embeddings, overrides and isolates, invisible
 * operators, the byte order mark, and the two non-characters XML cannot carry. The joiners that
 * build emoji (U+200C, U+200D) stay.
 */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
  /[\u0000-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u2028-\u202E\u2060-\u2069\uFEFF\uFFFE\uFFFF]/g;
const UNSAFE_CHARACTER = new RegExp(UNSAFE.source);
/** Line breaks and tabs: escaped in the log, folded to a space in documents, kept in a `<pre>` block. */
const BREAK = /[\t\n\r\u2028\u2029]/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/;

/** Whether `text` holds a character of the set: no id or header value may. */
export function hasUnsafeCharacters(text: string): boolean {
  return UNSAFE_CHARACTER.test(text);
}

const ELLIPSIS = '…';

/** At most this many characters of one value in a log line, unless its caller cuts it shorter. */
export const VALUE_MAX_CHARS = 2000;

/** `\n`, `\r`, `\t` in the log; `<U+202E>` for the rest: what the character was stays readable. */
function visible(char: string): string {
  const short = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }[char];
  return short ?? `<U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Cuts `text` to at most `maxChars` code points, the last one an ellipsis; never splits a surrogate pair. */
export function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // A code point is one or two UTF-16 units: 2 × maxChars units hold more than maxChars code points
  // or the whole text, and only that much is split, however long the text.
  const points = Array.from(text.slice(0, 2 * maxChars));
  if (points.length <= maxChars && text.length <= 2 * maxChars) return text;
  const kept = points.slice(0, maxChars - 1).join('');
  return kept.trimEnd() + ELLIPSIS;
}

/**
 * Folds every run of line breaks and tabs (with the white space around it) to one space, then
 * trims. Split, not matched: titles can be megabytes, and a regular expression that looks for spaces
 * before a break backtracks over every run of spaces that has none.
 */
function foldLines(text: string): string {
  return text
    .split(BREAK)
    .map((piece) => piece.trim())
    .filter(Boolean)
    .join(' ');
}

/** What `clean` does with line breaks and tabs: see BREAK. */
export type Breaks = 'escape' | 'fold' | 'keep';

/**
 * The one cleaner of every text the action did not write itself (from the service, GitHub, the
 * inputs, the file system) before it leaves the action: secrets masked, line breaks escaped,
 * folded or kept, every other character of the set shown as a visible escape, lone surrogates
 * replaced, cut to `maxChars` code points. Masked again after cleaning when that changed the text:
 * a secret split by a line break must not come back together. Linear in the length of the value.
 */
export function clean(value: string | number, maxChars = VALUE_MAX_CHARS, breaks: Breaks = 'escape'): string {
  const text = redact(String(value));
  if (
    !UNSAFE_CHARACTER.test(text) &&
    !LONE_SURROGATE.test(text) &&
    (breaks !== 'fold' || text.trim() === text)
  ) {
    return cut(text, maxChars);
  }
  const folded = breaks === 'fold' ? foldLines(text) : text;
  // Escaping only lengthens, so no more than this much of the value can be shown.
  const escaped = folded
    .slice(0, 2 * maxChars + 2)
    .replace(UNSAFE, (char) => (breaks === 'keep' && BREAK.test(char) ? char : visible(char)));
  const result = cut(escaped.toWellFormed(), maxChars);
  return result === text ? result : redact(result);
}

/** `clean` for the runner: one line, with line breaks escaped. */
export function safe(value: string | number, maxChars = VALUE_MAX_CHARS): SafeText {
  return clean(value, maxChars, 'escape') as SafeText;
}

/**
 * A line for the runner, as a tagged template: the literal text is the action's own, and each
 * value goes through `safe` (a value already cleaned, with a shorter cut, stays as it is).
 */
export function line(literals: TemplateStringsArray, ...values: (string | number)[]): SafeText {
  return String.raw({ raw: literals }, ...values.map((value) => safe(value))) as SafeText;
}

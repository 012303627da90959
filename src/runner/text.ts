import { redact } from './secrets.js';

declare const cleaned: unique symbol;

/** Only `safe` and `line` make it, so no foreign value reaches the runner without passing through `clean`. */
export type SafeText = string & { readonly [cleaned]: true };

/**
 * No text leaving the action carries these as they are: what could end a line for the runner or a
 * terminal, hide what the text says or reorder it (bidi controls), and what XML cannot carry. The
 * joiners that build emoji (U+200C, U+200D) stay.
 */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
  /[\u0000-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u2028-\u202E\u2060-\u2069\uFEFF\uFFFE\uFFFF]/g;
/** One of the set: no id or header value may hold one. */
export const UNSAFE_CHARACTER = new RegExp(UNSAFE.source);
const BREAK = /[\t\n\r\u2028\u2029]/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/;

const VALUE_MAX_CHARS = 2000;

/** What the character was stays readable: `\n`, `<U+202E>`. */
function visible(char: string): string {
  const short = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }[char];
  return short ?? `<U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** At most `maxChars` code points, the last one an ellipsis; never splits a surrogate pair. */
export function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // A code point is one or two UTF-16 units: 2 × maxChars units hold more than maxChars code points
  // or the whole text, and only that much is split, however long the text.
  const points = Array.from(text.slice(0, 2 * maxChars));
  if (points.length <= maxChars && text.length <= 2 * maxChars) return text;
  const kept = points.slice(0, maxChars - 1).join('');
  return `${kept.trimEnd()}…`;
}

/** The pieces between separators, trimmed, blank ones left out. */
export function pieces(text: string, separator: string | RegExp): string[] {
  return text
    .split(separator)
    .map((piece) => piece.trim())
    .filter(Boolean);
}

/** Line breaks and tabs: escaped in the log, folded to a space in documents, kept in a `<pre>` block. */
type Breaks = 'escape' | 'fold' | 'keep';

/**
 * The one cleaner of every text the action did not write itself. Masked again after cleaning when
 * that changed the text: a secret split by a line break must not come back together. Linear in the
 * length of the value.
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
  // Split, not matched: titles can be megabytes, and a regular expression that looks for spaces
  // before a break backtracks over every run of spaces that has none.
  const folded = breaks === 'fold' ? pieces(text, BREAK).join(' ') : text;
  // Escaping only lengthens, so no more than this much of the value can be shown.
  const escaped = folded
    .slice(0, 2 * maxChars + 2)
    .replace(UNSAFE, (char) => (breaks === 'keep' && BREAK.test(char) ? char : visible(char)));
  const result = cut(escaped.toWellFormed(), maxChars);
  return result === text ? result : redact(result);
}

export function safe(value: string | number, maxChars = VALUE_MAX_CHARS): SafeText {
  return clean(value, maxChars, 'escape') as SafeText;
}

/** The literal text is the action's own; each value goes through `safe`. */
export function line(literals: TemplateStringsArray, ...values: (string | number)[]): SafeText {
  return String.raw({ raw: literals }, ...values.map((value) => safe(value))) as SafeText;
}

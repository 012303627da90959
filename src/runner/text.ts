import { redact } from './secrets.js';

declare const cleaned: unique symbol;

/**
 * Text that may reach the runner: one line, no control character and no secret. Only `safe` and
 * `line` make it, and everything that writes to the log, an annotation, an output or the state
 * takes it, so no foreign value reaches the runner without passing through `safe`.
 */
export type SafeText = string & { readonly [cleaned]: true };

/**
 * What could end a line for the runner (which ends one at LF, CR or CRLF) or for a terminal, or
 * hide what the text says: C0 and C1 controls, DEL, zero-width and bidirectional formatting
 * characters, line and paragraph separators, the byte order mark.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const UNSAFE_CHARACTER = /[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/;
const UNSAFE = new RegExp(UNSAFE_CHARACTER.source, 'g');

/** Whether `text` holds a character that `safe` would escape: no id or header value may. */
export function hasUnsafeCharacters(text: string): boolean {
  return UNSAFE_CHARACTER.test(text);
}

const ELLIPSIS = '…';

/** At most this many characters of one value in a log line, unless its caller cuts it shorter. */
export const VALUE_MAX_CHARS = 2000;

/** `\n`, `\r`, `\t`, else `\u` and four hex digits: what the character was stays readable. */
function visible(char: string): string {
  if (char === '\n') return '\\n';
  if (char === '\r') return '\\r';
  if (char === '\t') return '\\t';
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Cuts `text` to at most `maxChars` code points, the last one an ellipsis; never splits a surrogate pair. */
export function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let index = 0;
  let points = 0;
  let keep = 0;
  while (index < text.length) {
    if (points === maxChars - 1) keep = index;
    if (points === maxChars) return text.slice(0, keep).trimEnd() + ELLIPSIS;
    const code = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    index += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    points++;
  }
  return text;
}

/**
 * The one function that turns a value the action did not write itself (from the service, the
 * inputs, the file system) into text for the runner: secrets masked, every character in UNSAFE
 * made a visible escape, lone surrogates replaced, cut to `maxChars` code points. Linear in the
 * length of the value, and bounded by `maxChars` past the masking.
 */
export function safe(value: string | number, maxChars = VALUE_MAX_CHARS): SafeText {
  const text = redact(String(value));
  // Escaping only lengthens, so no more than this much of the value can be shown.
  const head = text.length > 2 * maxChars + 2 ? text.slice(0, 2 * maxChars + 2) : text;
  return cut(head.toWellFormed().replace(UNSAFE, visible), maxChars) as SafeText;
}

/**
 * A line for the runner, as a tagged template: the literal text is the action's own, and each
 * value goes through `safe` (a value already cleaned, with a shorter cut, stays as it is).
 */
export function line(literals: TemplateStringsArray, ...values: (string | number)[]): SafeText {
  let text = literals[0] ?? '';
  values.forEach((value, index) => {
    text += safe(value) + (literals[index + 1] ?? '');
  });
  return text as SafeText;
}

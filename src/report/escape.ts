import { redact, redactAround } from '../runner/secrets.js';
import { cut } from '../runner/text.js';

/** Shown for a title that is empty once cleaned. */
export const UNTITLED = '(untitled)';

// C0 controls other than tab, LF and CR; DEL; C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const BREAK = /[\t\n\r\u2028\u2029]/;
const BREAKS = new RegExp(BREAK.source, 'g');

// `$` and `~` too: GitHub renders math and strike-through.
const HTML_SPECIALS = /[&<>"'|`*_[\]\\$~]/g;
/** Anything cellText would change but its length and secrets: controls, breaks, specials, edge spaces. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const NEEDS_WORK = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\uD800-\uDFFF&<>"'|`*_[\]\\$~]|^\s|\s$/;
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '|': '&#124;',
  '`': '&#96;',
  '*': '&#42;',
  _: '&#95;',
  '[': '&#91;',
  ']': '&#93;',
  '\\': '&#92;',
  $: '&#36;',
  '~': '&#126;',
};

function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIALS, (char) => ENTITIES[char] ?? char);
}

/** Drops control characters and replaces lone surrogates by U+FFFD; line breaks and tabs stay. */
function stripControls(text: string): string {
  return text.replace(CONTROLS, '').toWellFormed();
}

/**
 * Folds every run of line breaks and tabs (with the white space around it) to one space, then
 * trims. Linear: titles can be megabytes, and a regular expression that looks for spaces before a
 * break backtracks over every run of spaces that has none.
 */
function foldLines(text: string): string {
  if (!BREAK.test(text)) return text.trim();
  const pieces = text.replace(BREAKS, '\n').split('\n');
  const kept: string[] = [];
  for (const piece of pieces) {
    const trimmed = piece.trim();
    if (trimmed !== '') kept.push(trimmed);
  }
  return kept.join(' ');
}

/**
 * One line, without control characters or secrets. Redacted before and after cleaning: a secret
 * split by a control character or a line break must not come back together unmasked.
 */
function clean(text: string): string {
  return redactAround(text, (redacted) => foldLines(stripControls(redacted)));
}

/**
 * Text for an HTML table cell of the job summary: secrets redacted, one line, at most `maxChars`
 * code points, escaped so that neither HTML nor Markdown can be injected. Never empty.
 */
export function cellText(title: string, maxChars = 200): string {
  // Most titles need nothing done: the short way, when no secret is in them either.
  if (title.length <= maxChars && title !== '' && !NEEDS_WORK.test(title) && redact(title) === title) {
    return title;
  }
  const line = clean(title);
  if (line === '') return UNTITLED;
  return escapeHtml(cut(line, maxChars));
}

/** A URL for an `href` attribute, in the summary or a comment: secrets redacted, escaped, never cut. */
export function hrefText(url: string): string {
  return escapeHtml(redact(url));
}

/** Multi-line text for a `<pre>` block of the summary: secrets redacted, escaped, line breaks kept. */
export function preText(text: string, maxChars: number): string {
  return escapeHtml(cut(redactAround(text, stripControls), maxChars));
}

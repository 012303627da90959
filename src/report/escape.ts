import { clean } from '../runner/text.js';

/** Shown for a title that is empty once cleaned. */
export const UNTITLED = '(untitled)';

// `$` and `~` too: GitHub renders math and strike-through.
const HTML_SPECIALS = /[&<>"'|`*_[\]\\$~]/g;
const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIALS, (char) => NAMED[char] ?? `&#${char.charCodeAt(0)};`);
}

/**
 * Text for an HTML table cell of the job summary or a comment: cleaned (line breaks folded), at
 * most `maxChars` code points, escaped so that neither HTML nor Markdown can be injected. Never empty.
 */
export function cellText(title: string, maxChars = 200): string {
  return escapeHtml(clean(title, maxChars, 'fold')) || UNTITLED;
}

/** Multi-line text for a `<pre>` block of the summary: cleaned and escaped, line breaks kept. */
export function preText(text: string, maxChars: number): string {
  return escapeHtml(clean(text, maxChars, 'keep'));
}

/**
 * `html`, linked to `url` when there is one (a run's or a test case's page on the service); the
 * URL cleaned and escaped for the `href` attribute, never cut.
 */
export function linked(url: string | undefined, html: string): string {
  if (!url) return html;
  return `<a href="${escapeHtml(clean(url, Number.POSITIVE_INFINITY, 'fold'))}">${html}</a>`;
}

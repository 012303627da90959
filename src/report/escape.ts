import { clean } from '../runner/text.js';

export const UNTITLED = '(untitled)';

// `$` and `~` too: GitHub renders math and strike-through.
const HTML_SPECIALS = /[&<>"'|`*_[\]\\$~]/g;
export const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIALS, (char) => ENTITIES[char] ?? `&#${char.charCodeAt(0)};`);
}

/** Escaped so that neither HTML nor Markdown can be injected; never empty. */
export function cellText(title: string, maxChars = 200): string {
  return escapeHtml(clean(title, maxChars, 'fold')) || UNTITLED;
}

/** For a `<pre>` block: line breaks kept. */
export function preText(text: string, maxChars: number): string {
  return escapeHtml(clean(text, maxChars, 'keep'));
}

/** The URL is never cut. */
export function linked(url: string | undefined, html: string): string {
  if (!url) return html;
  return `<a href="${escapeHtml(clean(url, Number.POSITIVE_INFINITY, 'fold'))}">${html}</a>`;
}

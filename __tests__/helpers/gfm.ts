import { marked } from 'marked';
import { decodeEntities } from './html.js';

/** How many lines of a comment a reviewer reads at a glance: what shows without scrolling. */
export const FOLD_LINES = 12;

/**
 * The text a reviewer sees of GitHub-flavoured Markdown (a comment, or the job summary's HTML),
 * line by line: rendered as GFM, hidden HTML comments gone, tags stripped, blank lines dropped.
 */
export function visibleLines(markdown: string): string[] {
  const html = marked.parse(markdown, { gfm: true, async: false });
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/(p|h\d|li|ul|ol|tr|table|details|summary|blockquote|pre)>|<br\s*\/?>/g, '$&\n')
    .replace(/<[^>]+>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The links of rendered GFM: each anchor's text and where it goes. */
export function renderedLinks(markdown: string): { text: string; href: string }[] {
  const html = marked.parse(markdown, { gfm: true, async: false });
  return [...html.matchAll(/<a href="([^"]*)"[^>]*>(.*?)<\/a>/g)].map((match) => ({
    href: decodeEntities(match[1] ?? ''),
    text: decodeEntities((match[2] ?? '').replace(/<[^>]+>/g, '')),
  }));
}

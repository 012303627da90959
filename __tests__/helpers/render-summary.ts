import { decodeEntities } from './html.js';

/** A plain-text rendering of the job summary's HTML, for a terminal. */
export function renderSummary(html: string): string {
  // Tags are stripped before entities are decoded, so that an escaped "<b>" in a title stays text.
  const text = html
    .replace(/<h\d>(.*?)<\/h\d>/g, '# $1\n')
    .replace(/<tr>(.*?)<\/tr>/gs, (_row, cells: string) =>
      cells
        .split(/<\/t[hd]>/)
        .map((cell) => cell.replace(/<[^>]+>/g, '').trim())
        .filter(Boolean)
        .join(' | '),
    )
    .replace(/<summary>(.*?)<\/summary>/g, '$1\n')
    .replace(/<\/?(p|table|thead|tbody|details|code|br|pre)[^>]*>/g, '')
    .replace(/<[^>]+>/g, '');
  return decodeEntities(text)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

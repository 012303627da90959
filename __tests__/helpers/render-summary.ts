import { decodeEntities } from './html.js';

/** A plain-text rendering of the job summary's HTML, for a terminal. */
export function renderSummary(html: string): string {
  return decodeEntities(html)
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
    .replace(/<[^>]+>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

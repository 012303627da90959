const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text an HTML or XML reader would see: numeric and the five named entities decoded. */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d+)|#x([\da-f]+)|(amp|lt|gt|quot|apos));/gi, (_, decimal, hex, name) =>
    decimal !== undefined
      ? String.fromCodePoint(Number(decimal))
      : hex !== undefined
        ? String.fromCodePoint(Number.parseInt(hex, 16))
        : (NAMED[name.toLowerCase()] as string),
  );
}

/** The first table of an HTML text: its header cells and the cells of each row, as raw HTML. */
export function firstTable(html: string): { header: string[]; rows: string[][] } {
  const table = /<table>([\s\S]*?)<\/table>/.exec(html)?.[1];
  if (table === undefined) throw new Error('no table');
  const [header = [], ...rows] = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] as string).matchAll(/<(td|th)>([\s\S]*?)<\/\1>/g)].map((cell) => cell[2] as string),
  );
  return { header, rows };
}

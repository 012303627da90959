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

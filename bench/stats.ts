/** Small helpers for the benchmark's figures and tables. */

export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

export function median(values: readonly number[]): number {
  const list = sorted(values);
  if (list.length === 0) return Number.NaN;
  const middle = Math.floor(list.length / 2);
  return list.length % 2 === 1
    ? (list[middle] as number)
    : ((list[middle - 1] as number) + (list[middle] as number)) / 2;
}

/** Nearest-rank percentile. */
export function percentile(values: readonly number[], p: number): number {
  const list = sorted(values);
  if (list.length === 0) return Number.NaN;
  return list[Math.min(list.length - 1, Math.max(0, Math.ceil((p / 100) * list.length) - 1))] as number;
}

export function ms(value: number, digits = 1): string {
  return Number.isFinite(value) ? `${value.toFixed(digits)} ms` : '-';
}

export function mb(value: number): string {
  return `${value.toFixed(1)} MB`;
}

/** 1 234 567 B and (1.18 MiB) past a KiB. */
export function bytes(value: number): string {
  const grouped = value.toLocaleString('en-US');
  if (value < 1024) return `${grouped} B`;
  if (value < 1024 * 1024) return `${grouped} B (${(value / 1024).toFixed(1)} KiB)`;
  return `${grouped} B (${(value / 1024 / 1024).toFixed(2)} MiB)`;
}

/** A plain-text table: the first column (and those listed in `left`) left-aligned, the others right-aligned. */
export function table(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  left: readonly number[] = [],
): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === 0 || left.includes(column)
          ? cell.padEnd(widths[column] as number)
          : cell.padStart(widths[column] as number),
      )
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

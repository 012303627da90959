import * as fs from 'node:fs';
import { USER_DOCS } from './helpers/user-docs.js';

/**
 * The labels a failing test case gets ("new", "failing on main since abc1234, 2 results", …) and
 * the icons of its record are defined in one pair of tables, shown whole in the README and in
 * docs/pr-comment.md. Every page that holds such a table (found by its header, or by a row that
 * defines a label or an icon) must hold exactly the README's: the same rows, the same cells.
 */
const PAGES = USER_DOCS;

const TABLES = {
  labels: {
    header: '| label | when | blocks `fail-on: new` |',
    // A row that defines a label, whatever the header above it.
    defines: (firstCell: string) =>
      /\b(new|quarantined|fixed|flaky on main|failing on main|slower than main)\b/.test(firstCell) &&
      firstCell.includes('**'),
  },
  icons: {
    header: "| icon | in `main`'s results | as the last icon: this run |",
    defines: (firstCell: string) => /^(✅|❌|⚠️|⏭️|⏱️|⛔)$/u.test(firstCell),
  },
} as const;
type Kind = keyof typeof TABLES;

/** The Markdown tables of a page (code blocks left out), each as its lines, header first. */
function tablesOf(text: string): string[][] {
  const tables: string[][] = [];
  let current: string[] | undefined;
  let inCode = false;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) inCode = !inCode;
    if (!inCode && line.startsWith('|')) {
      current ??= [];
      current.push(line.trimEnd());
    } else if (current) {
      tables.push(current);
      current = undefined;
    }
  }
  if (current) tables.push(current);
  return tables;
}

const firstCell = (row: string) => (row.split('|')[1] ?? '').trim();

/** The tables of a kind on a page: those under its header, and any other that defines one of its rows. */
function tablesOfKind(text: string, kind: Kind): string[][] {
  const { header, defines } = TABLES[kind];
  return tablesOf(text).filter(
    (table) => table[0] === header || table.slice(2).some((row) => defines(firstCell(row))),
  );
}

const text = (page: string) => fs.readFileSync(page, 'utf8');

describe.each(Object.keys(TABLES) as Kind[])('the %s table', (kind) => {
  const [readme = [], ...extra] = tablesOfKind(text('README.md'), kind);

  test('is in the README once, with its rows', () => {
    expect(extra).toEqual([]);
    expect(readme[0]).toBe(TABLES[kind].header);
    expect(readme.length).toBeGreaterThanOrEqual(6);
  });

  test('is in docs/pr-comment.md', () => {
    expect(tablesOfKind(text('docs/pr-comment.md'), kind).length).toBeGreaterThan(0);
  });

  test.each(PAGES.filter((page) => page !== 'README.md'))(
    '%s: the same as the README, row for row',
    (page) => {
      for (const table of tablesOfKind(text(page), kind)) {
        expect([page, table.join('\n')]).toEqual([page, readme.join('\n')]);
      }
    },
  );
});

/** A label's shape: its commits and numbers left out ("flaky on main: failed N of the last N"). */
const shape = (label: string) =>
  label
    .replace(/\*\*/g, '')
    .replace(/\b[0-9a-f]{7}\b/g, 'C')
    .replace(/\d+(\.\d+)?/g, 'N');

describe('the tables say what the action writes', () => {
  // The README's picture of the comment, as dist/index.js writes it (readme-pictures.test.ts holds it so).
  const comment = text('.github/readme/pr-comment.md');
  const segments = comment
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .flatMap((line) => line.slice(2).split(' · '));
  const [labels = []] = tablesOfKind(text('README.md'), 'labels');
  const [icons = []] = tablesOfKind(text('README.md'), 'icons');

  test('each label of the comment has a row of that shape', () => {
    const written = segments.filter((segment) => /^(flaky on|failing on|slower than) /.test(segment));
    expect(written.length).toBeGreaterThanOrEqual(3);
    const rows = new Set(labels.slice(2).map((row) => shape(firstCell(row))));
    for (const label of written) expect([label, rows.has(shape(label))]).toEqual([label, true]);
  });

  test("each icon of the comment's records is in the icons table", () => {
    const records = segments.filter((segment) => /^(?:✅|❌|⚠️|⏭️|⏱️|⛔)+$/u.test(segment));
    expect(records.length).toBeGreaterThanOrEqual(3);
    const known = icons.slice(2).map(firstCell);
    for (const record of records) {
      const left = known.reduce((rest, icon) => rest.replaceAll(icon, ''), record);
      expect([record, left]).toEqual([record, '']);
    }
  });
});

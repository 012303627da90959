import { JSDOM } from 'jsdom';
import type { Mermaid } from 'mermaid';
import { baseBranchCharts } from '../../src/report/charts.js';
import type { Column as ChartColumn } from '../../src/report/record.js';

/**
 * GitHub shows an error in place of a chart that does not parse, so what is generated is parsed
 * by Mermaid itself. Mermaid runs every label through DOMPurify, which needs a DOM and binds to the
 * global window when it is first loaded: jsdom's window is set before Mermaid is imported.
 */
let mermaid: Mermaid;
beforeAll(async () => {
  Object.assign(globalThis, { window: new JSDOM('').window });
  mermaid = (await import('mermaid')).default;
});

/** The text of each ```mermaid block of the Markdown lines. */
function mermaidBlocks(lines: readonly string[]): string[] {
  const text = `${lines.join('\n')}\n`;
  return [...text.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
}

/** Each block parses: the chart type Mermaid saw, one per block. */
async function parsedTypes(lines: readonly string[]): Promise<string[]> {
  const blocks = mermaidBlocks(lines);
  const parsed = await Promise.all(blocks.map((block) => mermaid.parse(block)));
  return parsed.map((result) => result.diagramType);
}

const column = (commit: string, failed: number, durationMs?: number): ChartColumn => ({
  commit,
  passed: 10 - failed,
  failed,
  flaky: 0,
  durationMs,
});

const columns = [
  column('0123456789abcdef0123456789abcdef01234567', 0, 95_000),
  column('89abcdef0123456789abcdef0123456789abcdef', 3, 100_000),
  column('fedcba9876543210fedcba9876543210fedcba98', 1, 81_250),
];

describe('the parser check is real', () => {
  test('a well-formed chart parses', async () => {
    await expect(mermaid.parse('xychart-beta\n  x-axis ["a", "b"]\n  bar [1, 2]\n')).resolves.toMatchObject({
      diagramType: 'xychart',
    });
  });

  test.each([
    ['a quote in a quoted title', 'xychart-beta\n  title "Failed on feat/"x""\n  bar [1, 2]\n'],
    ['a quote in a commit label', 'xychart-beta\n  x-axis ["ab"c", "d"]\n  bar [1, 2]\n'],
    ['a value that is not a number', 'xychart-beta\n  x-axis ["a", "b"]\n  bar [1, NaN]\n'],
    ['an unclosed list', 'xychart-beta\n  x-axis ["a", "b"\n  bar [1, 2]\n'],
    ['an unquoted title that ends a list', 'xychart-beta\n  x-axis [a] b]\n  bar [1, 2]\n'],
  ])('a chart with %s does not', async (_, chart) => {
    await expect(mermaid.parse(chart)).rejects.toThrow(/Parse error|Lexical error/);
  });

  test('a chart built with the branch name as it is would not parse: what charts.ts strips matters', async () => {
    const branch = 'feat/"quoted"';
    const [good] = mermaidBlocks(baseBranchCharts(branch, columns));
    const naive = good?.replace(
      /title "Failed test cases on [^\n]*"/,
      `title "Failed test cases on ${branch}"`,
    );
    expect(naive).not.toBe(good);
    await expect(mermaid.parse(naive as string)).rejects.toThrow(/Parse error|Lexical error/);
    await expect(mermaid.parse(good as string)).resolves.toMatchObject({ diagramType: 'xychart' });
  });
});

describe('baseBranchCharts', () => {
  test('nothing from fewer than two results', () => {
    expect(baseBranchCharts('main', [])).toEqual([]);
    expect(baseBranchCharts('main', columns.slice(0, 1))).toEqual([]);
  });

  test('the failed test cases as bars and the durations as a line, oldest to newest, short commits quoted', async () => {
    const lines = baseBranchCharts('main', columns);
    expect(lines).toEqual([
      '```mermaid',
      'xychart-beta',
      '  title "Failed test cases on main"',
      '  x-axis "Oldest to newest" ["0123456", "89abcde", "fedcba9"]',
      '  y-axis "Failed test cases" 0 --> 3',
      '  bar [0, 3, 1]',
      '```',
      '',
      '```mermaid',
      'xychart-beta',
      '  title "Duration of each result on main"',
      '  x-axis "Oldest to newest" ["0123456", "89abcde", "fedcba9"]',
      '  y-axis "Duration (s)" 0 --> 100',
      '  line [95, 100, 81.3]',
      '```',
    ]);
    expect(await parsedTypes(lines)).toEqual(['xychart', 'xychart']);
  });

  test('minutes from two minutes on', async () => {
    const lines = baseBranchCharts('main', [column('aaaaaaa', 1, 119_000), column('bbbbbbb', 0, 754_000)]);
    expect(lines).toContain('  y-axis "Duration (min)" 0 --> 13');
    expect(lines).toContain('  line [2, 12.6]');
    expect(await parsedTypes(lines)).toEqual(['xychart', 'xychart']);
  });

  test('no duration chart when no result has a duration; only the results with one when some have', async () => {
    const none = baseBranchCharts('main', [column('aaaaaaa', 1), column('bbbbbbb', 0)]);
    expect(mermaidBlocks(none)).toHaveLength(1);
    expect(none.at(-1)).toBe('```');
    const some = baseBranchCharts('main', [
      column('aaaaaaa', 1, 5000),
      column('bbbbbbb', 0),
      column('ccc', 2, 7000),
    ]);
    expect(some).toContain('  x-axis "Oldest to newest" ["aaaaaaa", "bbbbbbb", "ccc"]');
    expect(some).toContain('  x-axis "Oldest to newest" ["aaaaaaa", "ccc"]');
    expect(some).toContain('  line [5, 7]');
    expect(await parsedTypes(some)).toEqual(['xychart', 'xychart']);
  });

  test('no failure at all still draws an axis that goes up to 1; a count the record should not hold draws as 0', async () => {
    const lines = baseBranchCharts('main', [
      column('aaaaaaa', 0, Number.NaN),
      column('bbbbbbb', Number.NaN, -5),
      column('ccccccc', 0),
    ]);
    expect(lines).toContain('  y-axis "Failed test cases" 0 --> 1');
    expect(lines).toContain('  bar [0, 0, 0]');
    expect(await parsedTypes(lines)).toEqual(['xychart']);
  });

  test.each([
    ['feat/"quoted"', "Failed test cases on feat/'quoted'"],
    ["it's-mine", "Failed test cases on it's-mine"],
    ['%%{init: {"theme": "dark"}}%%', "Failed test cases on init 'theme' 'dark'"],
    ['x"]\n  bar [9, 9', "Failed test cases on x' bar 9, 9"],
    ['tab\tand  spaces', 'Failed test cases on tab and spaces'],
    ['fix/a%%b', 'Failed test cases on fix/ab'],
    ['a#quot;b', 'Failed test cases on aquotb'],
    ['<script>alert(1)</script>', 'Failed test cases on scriptalert(1)/script'],
    ['`backticks`', 'Failed test cases on backticks'],
    ['release/1.2\u202Eevil', 'Failed test cases on release/1.2evil'],
    ['größe/日本語-ветка', 'Failed test cases on größe/日本語-ветка'],
    ['"""', "Failed test cases on '''"],
    ['%%;#<>', 'Failed test cases on the base branch'],
    ['', 'Failed test cases on the base branch'],
    [`feature/${'x'.repeat(100)}`, `Failed test cases on feature/${'x'.repeat(51)}…`],
  ])('branch %j: titled %j, and it parses', async (branch, title) => {
    const lines = baseBranchCharts(branch, columns);
    expect(lines).toContain(`  title "${title}"`);
    expect(lines.filter((each) => each.startsWith('  title ')).map((each) => each.split('"').length)).toEqual(
      [3, 3],
    );
    expect(await parsedTypes(lines)).toEqual(['xychart', 'xychart']);
  });

  test('a commit is shown by its letters and digits only, never empty', async () => {
    const lines = baseBranchCharts('main', [column('ab"c]d,ef0123', 1), column('', 2)]);
    expect(lines).toContain('  x-axis "Oldest to newest" ["abcdef0", "?"]');
    expect(await parsedTypes(lines)).toEqual(['xychart']);
  });

  test('a hundred results parse', async () => {
    const many = Array.from({ length: 100 }, (_, index) =>
      column(index.toString(16).padStart(40, '0'), index % 7, 60_000 + index * 1500),
    );
    expect(await parsedTypes(baseBranchCharts('main', many))).toEqual(['xychart', 'xychart']);
  });
});

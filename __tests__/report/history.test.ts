import { titleHash } from '../../src/report/digest.js';
import {
  extendHistory,
  flakiest,
  HISTORY_MAX_CHARS,
  type History,
  historyText,
  labelFailure,
  lastResults,
  quarantineMatcher,
  readHistory,
  recordOf,
} from '../../src/report/history.js';
import { judge } from '../../src/report/test-case-status.js';

/** The i-th commit of the branch, 40 hex digits; the history keeps its first 12. */
const commit = (i: number) => `c${i.toString(16).padStart(6, '0')}`.padEnd(40, '0');
const short = (i: number) => commit(i).slice(0, 12);

/** A finished run: each title with the service's status. */
const run = (i: number, statuses: Record<string, string> = {}, failOnFlaky = false) => ({
  commit: commit(i),
  testCases: Object.entries(statuses).map(([title, status]) => ({
    title,
    verdict: judge(status, failOnFlaky),
  })),
});

function chain(window: number, ...runs: ReturnType<typeof run>[]): History {
  let history: History | undefined;
  for (const each of runs) history = extendHistory(history, each, window);
  return history as History;
}

const rows = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('the history as text', () => {
  const history = chain(
    20,
    run(1, { A: 'PASSED', B: 'SKIPPED' }),
    run(2, { A: 'FAILED', C: 'FLAKY' }),
    run(3, { A: 'PASSED' }),
  );
  const text = historyText(history);

  test('is one HTML comment, rows by hash, and reads back', () => {
    const [a, b, c] = ['A', 'B', 'C'].map(titleHash);
    expect(history).toEqual({
      commits: [short(1), short(2), short(3)],
      rows: rows({ [a as string]: '.F.', [b as string]: 'S..', [c as string]: '.K.' }),
      partial: 0,
    });
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      `<!-- test-run-action history v1 commits=${short(1)},${short(2)},${short(3)} partial=0`,
    );
    expect(lines.slice(1, -1)).toEqual([...history.rows].map(([hash, v]) => `${hash} ${v}`).sort());
    expect(lines.at(-1)).toBe('-->');
    expect(readHistory(text)).toEqual(history);
    expect(readHistory(`## Summary\n\nsome text\n${text}\nmore text`)).toEqual(history);
  });

  const [header = '', ...rest] = text.split('\n');
  const rowLines = rest.slice(0, -1);
  const withRows = (...lines: string[]) => [header, ...lines, '-->'].join('\n');
  const withHeader = (line: string) => [line, ...rest].join('\n');
  const hash = 'ffffffffffff';
  test.each([
    ['nothing', undefined],
    ['null', null],
    ['an empty text', ''],
    ['garbage', 'no history here'],
    ['no end', text.slice(0, -3)],
    ['two histories', `${text}\n${text}`],
    ['a verdict string too short', withRows(...rowLines, `${hash} F.`)],
    ['a verdict string too long', withRows(...rowLines, `${hash} F...`)],
    ['a verdict that is no verdict', withRows(...rowLines, `${hash} F.X`)],
    ['a row that never failed', withRows(...rowLines, `${hash} ...`)],
    ['a hash in capitals', withRows(...rowLines, `${hash.toUpperCase()} F..`)],
    ['a short hash', withRows(...rowLines, 'fffffffffff F..')],
    ['a hash given twice', withRows(rowLines[0] as string, ...rowLines)],
    ['rows out of order', withRows(...[...rowLines].reverse())],
    ['a blank line', withRows(...rowLines, '')],
    ['no commits', withHeader('<!-- test-run-action history v1 commits= partial=0')],
    ['a commit too short', withHeader('<!-- test-run-action history v1 commits=abc,def,012 partial=0')],
    ['a commit not hex', withHeader(header.replace(short(2), 'g'.repeat(12)))],
    ['partial past the commits', withHeader(header.replace('partial=0', 'partial=4'))],
    ['partial with a leading zero', withHeader(header.replace('partial=0', 'partial=01'))],
    ['another version', text.replace(' v1 ', ' v2 ')],
  ])('is refused: %s', (_, input) => {
    expect(readHistory(input)).toBeUndefined();
  });

  test('with more than 100 commits, or longer than its budget, or in a text over 70,000 characters, is refused', () => {
    const commits = Array.from({ length: 101 }, (_, i) => short(i));
    const at = (count: number) =>
      `<!-- test-run-action history v1 commits=${commits.slice(0, count)} partial=0\n-->`;
    expect(readHistory(at(100))?.commits).toHaveLength(100);
    expect(readHistory(at(101))).toBeUndefined();

    const row = (i: number) => `${i.toString(16).padStart(12, '0')} ${'F'.repeat(100)}`;
    const big = (count: number) =>
      [`<!-- test-run-action history v1 commits=${commits.slice(0, 100)} partial=0`]
        .concat(
          Array.from({ length: count }, (_, i) => row(i)),
          '-->',
        )
        .join('\n');
    expect(big(500).length).toBeLessThan(HISTORY_MAX_CHARS);
    expect(readHistory(big(500))?.rows.size).toBe(500);
    expect(big(600).length).toBeGreaterThan(HISTORY_MAX_CHARS);
    expect(readHistory(big(600))).toBeUndefined();

    expect(readHistory(`${text}${' '.repeat(65_000)}`)).toEqual(history);
    expect(readHistory(`${text}${' '.repeat(70_000)}`)).toBeUndefined();
  });
});

describe('a run added to the history', () => {
  test("a title's verdict: failed, flaky, skipped, the worst where it is listed twice; passes leave no row", () => {
    const history = extendHistory(
      undefined,
      {
        commit: commit(1),
        testCases: [
          { title: 'failed', verdict: judge('FAILED', false) },
          { title: 'did not finish', verdict: judge('RUNNING', false) },
          { title: 'flaky', verdict: judge('FLAKY', false) },
          { title: 'flaky, failing the step', verdict: judge('FLAKY', true) },
          { title: 'skipped', verdict: judge('SKIPPED', false) },
          { title: 'passed', verdict: judge('PASSED', false) },
          { title: 'twice', verdict: judge('SKIPPED', false) },
          { title: 'twice', verdict: judge('FAILED', false) },
          { title: 'twice', verdict: judge('FLAKY', false) },
        ],
      },
      20,
    );
    const verdictOf = (title: string) => history.rows.get(titleHash(title));
    expect(
      ['failed', 'did not finish', 'flaky', 'flaky, failing the step', 'skipped', 'passed', 'twice'].map(
        verdictOf,
      ),
    ).toEqual(['F', 'F', 'K', 'F', 'S', undefined, 'F']);
  });

  test('the window keeps the newest results: an older failure is forgotten, its row dropped', () => {
    const history = chain(2, run(1, { A: 'FAILED', B: 'FLAKY' }), run(2), run(3, { B: 'PASSED' }));
    expect(history).toEqual({ commits: [short(2), short(3)], rows: new Map(), partial: 0 });
    expect(labelFailure(titleHash('A'), history, false)).toEqual({ kind: 'new' });
    const kept = chain(2, run(1, { A: 'FAILED' }), run(2, { A: 'FAILED' }), run(3));
    expect(kept.rows).toEqual(rows({ [titleHash('A')]: 'F.' }));
  });

  test("a re-run of the newest result's commit replaces its column", () => {
    const history = chain(
      20,
      run(1, { A: 'FAILED' }),
      run(2, { A: 'FAILED', B: 'FAILED' }),
      run(2, { B: 'FLAKY' }),
    );
    expect(history.commits).toEqual([short(1), short(2)]);
    expect(history.rows).toEqual(rows({ [titleHash('A')]: 'F.', [titleHash('B')]: '.K' }));
  });

  test('a window outside 1 to 100, or a commit that is none, is refused', () => {
    for (const window of [0, 101, 1.5, Number.NaN])
      expect(() => extendHistory(undefined, run(1), window)).toThrow();
    expect(() => extendHistory(undefined, { commit: 'HEAD', testCases: [] }, 20)).toThrow();
  });
});

describe('the newest results of a history', () => {
  const history = chain(20, run(1, { A: 'FAILED' }), run(2, { B: 'FLAKY' }), run(3), run(4, { B: 'FAILED' }));

  test('the window cut: older columns go, and a row with no failure left goes with them', () => {
    expect(lastResults(history, 2)).toEqual({
      commits: [short(3), short(4)],
      rows: rows({ [titleHash('B')]: '.F' }),
      partial: 0,
    });
  });

  test('a window as long as the history keeps it whole; 0 keeps nothing', () => {
    expect(lastResults(history, 4)).toBe(history);
    expect(lastResults(history, 20)).toBe(history);
    expect(lastResults(history, 0)).toBeUndefined();
  });
});

describe('what each failure is', () => {
  // Passes, fails, passes, passes for A; B never fails; C fails in the last two.
  const history = chain(
    20,
    run(1, { A: 'PASSED', B: 'PASSED', C: 'PASSED' }),
    run(2, { A: 'FAILED', B: 'PASSED', C: 'PASSED' }),
    run(3, { A: 'PASSED', B: 'PASSED', C: 'FAILED' }),
    run(4, { A: 'PASSED', B: 'PASSED', C: 'FAILED' }),
  );
  const [a, b, c] = ['A', 'B', 'C'].map(titleHash) as [string, string, string];

  test('flaky when it failed in some results: failed 1 of 4', () => {
    expect(labelFailure(a, history, false)).toEqual({ kind: 'flaky', failed: 1, of: 4 });
  });

  test('new when it failed in none', () => {
    expect(labelFailure(b, history, false)).toEqual({ kind: 'new' });
  });

  test('failing since the first of the newest results that it failed in, known or not', () => {
    const failing = { kind: 'failing', since: short(3), results: 2 };
    expect(labelFailure(c, history, false)).toEqual(failing);
    expect(labelFailure(c, history, true)).toEqual(failing);
  });

  test('failing at the newest result when only the base branch says it fails', () => {
    const failing = { kind: 'failing', since: short(4), results: 1 };
    expect(labelFailure(a, history, true)).toEqual(failing);
    expect(labelFailure(b, history, true)).toEqual(failing);
  });

  test('flaky in the newest result is flaky, not failing; flaky results count as failures', () => {
    const flakyLast = chain(20, run(1), run(2, { A: 'FAILED' }), run(3, { A: 'FLAKY' }));
    expect(labelFailure(a, flakyLast, false)).toEqual({ kind: 'flaky', failed: 2, of: 3 });
  });

  test('its record, oldest to newest', () => {
    expect(recordOf('..FKS')).toBe('✅✅❌⚠️⏭️');
    expect(recordOf(history.rows.get(c) as string)).toBe('✅✅❌❌');
  });
});

describe('the flakiest', () => {
  test('most changes between passing and failing first, then the most recent failure, then the hash', () => {
    const history: History = {
      commits: [1, 2, 3, 4, 5].map(short),
      rows: rows({
        aaaaaaaaaaaa: 'F....',
        bbbbbbbbbbbb: '.F.F.',
        cccccccccccc: 'F.F.F',
        dddddddddddd: 'FFFFF',
        eeeeeeeeeeee: 'F.S.K',
        ffffffffffff: 'SSSSS',
        '000000000000': '.F.F.',
      }),
      partial: 0,
    };
    expect(flakiest(history).map(({ hash, changes }) => [hash, changes])).toEqual([
      ['cccccccccccc', 4],
      ['000000000000', 4],
      ['bbbbbbbbbbbb', 4],
      ['eeeeeeeeeeee', 2],
      ['aaaaaaaaaaaa', 1],
    ]);
    expect(flakiest(history, 2).map(({ hash }) => hash)).toEqual(['cccccccccccc', '000000000000']);
    expect(flakiest(history)[0]).toEqual({ hash: 'cccccccccccc', verdicts: 'F.F.F', changes: 4 });
  });
});

describe('within its budget', () => {
  const flakyRuns = (count: number, tests: number, flaky: number, window: number) =>
    Array.from({ length: count }, (_, r) =>
      run(
        r + 1,
        Object.fromEntries(
          Array.from({ length: tests }, (_, i) => [
            `test case ${i}`,
            i < flaky && i % window === r % window ? 'FLAKY' : 'PASSED',
          ]),
        ),
      ),
    );

  test('10,000 test cases of which 1,000 flaked in a window of 20: whole', () => {
    const history = chain(20, ...flakyRuns(20, 10_000, 1_000, 20));
    const text = historyText(history);
    expect(text.length).toBeLessThan(HISTORY_MAX_CHARS);
    expect(readHistory(text)).toEqual(history);
    expect(history.rows.size).toBe(1_000);
    expect(history.partial).toBe(0);
  });

  test('2,000 flaky test cases in a window of 100: partial, the most recently failed kept, and whole again once their results left the window', () => {
    let history = chain(100, ...flakyRuns(100, 2_000, 2_000, 100));
    const text = historyText(history);
    expect(text.length).toBeLessThanOrEqual(HISTORY_MAX_CHARS);
    expect(readHistory(text)).toEqual(history);
    expect(history.partial).toBe(100);
    // Test case i flaked in result i % 100 only.
    const lastFailure = (i: number) => i % 100;
    const expected = Array.from({ length: 2_000 }, (_, i) => ({
      hash: titleHash(`test case ${i}`),
      last: lastFailure(i),
    }))
      .sort((x, y) => y.last - x.last || (x.hash < y.hash ? -1 : 1))
      .slice(0, history.rows.size)
      .map(({ hash }) => hash);
    expect(history.rows.size).toBeGreaterThan(400);
    expect([...history.rows.keys()].sort()).toEqual(expected.sort());

    for (let i = 101; i <= 199; i++) history = extendHistory(history, run(i), 100);
    expect(history.partial).toBe(1);
    history = extendHistory(history, run(200), 100);
    expect(history).toEqual({ commits: expect.any(Array), rows: new Map(), partial: 0 });
  });

  test('past the budget, a test case only ever skipped goes before one that failed long ago', () => {
    const skipped = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`skipped ${i}`, 'SKIPPED']));
    const runs = Array.from({ length: 100 }, (_, r) =>
      run(r + 1, r === 0 ? { ...skipped, old: 'FAILED' } : skipped),
    );
    const history = chain(100, ...runs);
    expect(history.partial).toBe(100);
    expect(history.rows.get(titleHash('old'))).toBe(`F${'.'.repeat(99)}`);
  });
});

describe('quarantine', () => {
  const quarantine = quarantineMatcher([
    '  checkout *  ',
    '',
    '*flaky*',
    'a.b (c)',
    'exact title',
    'nothing * matches',
    '   ',
    'ab*ba',
    'one*two*two',
    '*dup*dup*',
  ]);

  test.each([
    ['checkout pays', true],
    ['checkout ', true],
    ['a checkout pays', false],
    ['Checkout pays', false],
    ['is flaky at times', true],
    ['flaky', true],
    ['Flaky', false],
    ['a.b (c)', true],
    ['axb (c)', false],
    ['a.b (c) too', false],
    ['exact title', true],
    ['exact title!', false],
    [' exact title', false],
    ['aba', false],
    ['abba', true],
    ['one two', false],
    ['one two two', true],
    ['a dup b', false],
    ['dup dup', true],
  ])('%j: %s', (title, quarantined) => {
    expect(quarantine.matches(title)).toBe(quarantined);
  });

  test('names the lines that match no test case', () => {
    expect(quarantine.unmatched(['checkout pays', 'a.b (c)', 'abba', 'one two two', 'dup dup'])).toEqual([
      '*flaky*',
      'exact title',
      'nothing * matches',
    ]);
    expect(quarantine.unmatched([])).toHaveLength(8);
    expect(quarantineMatcher(['twice', ' twice ']).unmatched([])).toEqual(['twice']);
    expect(quarantineMatcher([]).matches('anything')).toBe(false);
    expect(quarantineMatcher(['*']).matches('')).toBe(true);
  });

  test('stars in a row and many stars stay fast on a long title', () => {
    const started = performance.now();
    const title = 'a'.repeat(5_000);
    expect(quarantineMatcher(['****a****a****a****a****b']).matches(title)).toBe(false);
    expect(quarantineMatcher(['****a****a****a****a****b']).matches(`${title}b`)).toBe(true);
    expect(quarantineMatcher(['a*a*a*a*a*b*a']).matches(title)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

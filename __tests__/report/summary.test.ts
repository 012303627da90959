import { writeFileSync } from 'node:fs';
import { writeReports } from '../../src/report/index.js';
import { renderSummary, SUMMARY_BUDGET_BYTES } from '../../src/report/summary.js';
import { judge } from '../../src/report/test-case-status.js';
import type { TestCaseResult } from '../../src/service/run-driver.js';
import { decodeEntities, firstTable } from '../helpers/html.js';
import { cases, HOSTILE_TITLES, makeOutcome, reportSetUp, threeTargets } from './helpers.js';

const { files } = reportSetUp();

async function summaryOf(...args: Parameters<typeof makeOutcome>): Promise<string> {
  await writeReports([makeOutcome(...args)], { summary: true, resultsDir: files.dir });
  return files.readSummary();
}

describe('job summary', () => {
  it('has a heading, the run line, message, notes and counts', async () => {
    const summary = await summaryOf([...cases(2, 'PASSED'), ...cases(1, 'FAILED')], {
      message: 'Something <odd> happened',
      notes: ['note one', 'note | two'],
    });
    expect(summary).toMatch(/^<h2>❌ Test run failed<\/h2>\n/);
    expect(summary).toContain(
      '<p>Project <code>proj-1</code> · Run <code>run-1</code> · Branch <code>main</code> · Environment <code>staging</code> · Duration 3 min 4 s</p>',
    );
    expect(summary).toContain('<p>Something &lt;odd&gt; happened</p>');
    expect(summary).toContain('<ul><li>note one</li><li>note &#124; two</li></ul>');
    expect(summary).toContain('<p>3 test cases: 2 passed, 1 failed, 0 flaky, 0 skipped</p>');
  });

  it.each([
    [{ status: 'PASSED', success: true }, '✅ Test run passed'],
    [{ status: 'PASSED', success: false }, '❌ Test run failed'],
    [{ status: 'TIMEDOUT', success: false }, '⏱️ Test run timed out'],
    [{ status: 'CANCELLED', success: false }, '🚫 Test run cancelled'],
    [{ status: 'ERROR', success: false }, '⚠️'],
  ] as const)('heading for %j', async (overrides, heading) => {
    const summary = await summaryOf(cases(1, 'PASSED'), overrides);
    expect(summary.split('\n')[0]).toContain(heading);
  });

  it('names the suite of a suite run', async () => {
    const summary = await summaryOf(cases(1, 'PASSED'), {
      mode: 'suite',
      projectId: undefined,
      testSuiteId: 'suite-9',
      testSuiteName: 'Checkout <flow>',
    });
    expect(summary).toContain('Suite <strong>Checkout &lt;flow&gt;</strong> · Run <code>run-1</code>');
  });

  it('renders hostile titles as plain text: three cells per row, no markup, no blank line', async () => {
    const testCases = HOSTILE_TITLES.map((title, i) => ({ title, status: i % 2 ? 'FAILED' : 'PASSED' }));
    const summary = await summaryOf(testCases);
    const { header, rows } = firstTable(summary);
    expect(rows).toHaveLength(HOSTILE_TITLES.length);
    for (const row of rows) expect(row).toHaveLength(3);
    expect(header).toEqual(['Status', 'Test case', 'Duration']);
    expect(summary).not.toMatch(/<script|<img|<style|<details open|<!--|<b>|<\/?td><\/tr><tr>injected/i);
    expect(summary).not.toMatch(/\n\s*\n/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
    const unsafe = /[<>"'|`*_[\]\\\n\r\t\u0000-\u0008\u007f-\u009f]/;
    for (const [, title] of rows) {
      expect(title).not.toBe('');
      expect(title).not.toMatch(unsafe);
    }
    const titles = rows.map((row) => decodeEntities(row[1] as string));
    expect(titles).toContain('<script>alert(1)</script>');
    expect(titles).toContain('line one line two <b>after a blank line</b>');
    expect(titles).toContain('nul<U+0000> bell<U+0007> esc<U+001B>[31m del<U+007F> nel<U+0085> csi<U+009B>');
    expect(titles).toContain('(untitled)');
    expect(titles).toContain(`${'x'.repeat(199)}…`);
  });

  it('lists failures first, in the contract order, stable within a group', async () => {
    const testCases: TestCaseResult[] = [
      { title: 'p1', status: 'PASSED' },
      { title: 's1', status: 'SKIPPED' },
      { title: 'fl1', status: 'FLAKY' },
      { title: 'i1', status: 'INTERRUPTED' },
      { title: 't1', status: 'TIMEDOUT' },
      { title: 'f1', status: 'FAILED' },
      { title: 'e1', status: 'ERROR' },
      { title: 'u1', status: 'CANCELLED' },
      { title: 'u2' },
      { title: 'p2', status: 'PASSED' },
      { title: 'f2', status: 'FAILED' },
      { title: 't2', status: 'TIMEDOUT' },
      { title: 'fl2', status: 'FLAKY' },
    ];
    const { rows } = firstTable(await summaryOf(testCases));
    expect(rows.map((row) => row[1])).toEqual([
      'f1',
      'e1',
      'u1',
      'u2',
      'f2',
      't1',
      't2',
      'i1',
      'fl1',
      'fl2',
      's1',
      'p1',
      'p2',
    ]);
    expect(rows[2]?.[0]).toBe('⛔ did not finish (CANCELLED)');
    expect(rows[3]?.[0]).toBe('⛔ did not finish (no status)');
    expect(rows[8]?.[0]).toBe('⚠️ FLAKY');
    expect(rows[0]?.[2]).toBe('—');
  });

  it('marks flaky test cases as failed with fail-on-flaky', async () => {
    const summary = await summaryOf(cases(1, 'FLAKY'), { failOnFlaky: true, success: false });
    expect(firstTable(summary).rows[0]?.[0]).toBe('❌ FLAKY (counts as failed)');
    expect(summary).toContain('(flaky ones count as failed)');
  });

  it('says so when there is no test case', async () => {
    const summary = await summaryOf([], { status: 'CANCELLED', success: false });
    expect(summary).toContain('<p>No test case was reported.</p>');
    expect(summary).not.toContain('<table>');
  });

  it('shows applied options collapsed, escaped', async () => {
    const summary = await summaryOf(cases(1, 'PASSED'), {
      mode: 'suite',
      appliedOptions: { numberOfWorkers: 2, baseUrl: 'https://x/<y>' },
    });
    expect(summary).toContain(
      '<details><summary>Applied options</summary><pre><code>{\n  &quot;numberOfWorkers&quot;: 2,\n  &quot;baseUrl&quot;: &quot;https://x/&lt;y&gt;&quot;\n}</code></pre></details>',
    );
  });

  it('stays under 1 MiB with 50,000 test cases and keeps every failing one that fits', async () => {
    const statuses = [
      'PASSED',
      'PASSED',
      'PASSED',
      'FLAKY',
      'SKIPPED',
      'FAILED',
      'ERROR',
      'TIMEDOUT',
      undefined,
    ];
    const testCases: TestCaseResult[] = Array.from({ length: 50_000 }, (_, i) => {
      const status = statuses[i % 25 === 0 ? 5 + (i % 4) : i % 5];
      return {
        title: `${status ?? 'none'} #${i} <checkout> | ${'lorem ipsum '.repeat(8)}`,
        status,
        durationMs: i,
      };
    });
    const outcome = makeOutcome(testCases);

    const html = renderSummary([outcome], { junitWritten: false });

    await writeReports([outcome], {
      summary: true,
      resultsDir: files.dir,
      junitPath: `${files.dir}/junit.xml`,
    });
    const summary = files.readSummary();
    expect(summary).toBe(
      html.replace(
        '(output <code>results-file</code>)',
        '(output <code>results-file</code>) and the JUnit report',
      ),
    );
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_BUDGET_BYTES);
    const { rows } = firstTable(summary);
    for (const row of rows) expect(row).toHaveLength(3);
    const shownTitles = new Set(rows.map((row) => decodeEntities(row[1] as string)));
    const failing = testCases.filter((testCase) => judge(testCase.status ?? undefined, false).fails);
    expect(failing).toHaveLength(2_000);
    expect(failing.every((testCase) => shownTitles.has(testCase.title.trim()))).toBe(true);
    const hidden = 50_000 - rows.length;
    expect(hidden).toBeGreaterThan(0);
    expect(summary).toContain(
      `<p>${hidden} more test cases not shown; the full list is in the results file (output <code>results-file</code>) and the JUnit report.</p>`,
    );
  });

  it('with more failures than fit, shows only failures and says how many failing ones it left out', async () => {
    const testCases = [...cases(100, 'PASSED'), ...cases(20_000, 'FAILED', `failed ${'y'.repeat(150)}`)];
    const summary = renderSummary([makeOutcome(testCases)], { junitWritten: false });
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_BUDGET_BYTES);
    const { rows } = firstTable(summary);
    expect(rows.length).toBeGreaterThan(1_000);
    expect(rows.every((row) => row[0] === '❌ FAILED')).toBe(true);
    const expected = testCases.slice(100, 100 + rows.length).map((testCase) => testCase.title);
    expect(rows.every((row, i) => row[1] === expected[i])).toBe(true);
    expect(summary).toContain(
      `${20_100 - rows.length} more test cases not shown (${20_000 - rows.length} of them failed)`,
    );
  });

  it('counts what the summary file already holds against the budget', async () => {
    writeFileSync(files.summaryFile, `${'z'.repeat(900_000)}\n`);
    await writeReports([makeOutcome(cases(10_000, 'FAILED'))], { summary: true, resultsDir: files.dir });
    expect(Buffer.byteLength(files.readSummary())).toBeLessThan(SUMMARY_BUDGET_BYTES);
    expect(files.readSummary()).toContain('more test cases not shown');
  });

  it('writes a one-line summary for a run started without waiting', async () => {
    await writeReports([makeOutcome([], { status: 'STARTED', success: true, runId: 'run-<7>' })], {
      summary: true,
      resultsDir: files.dir,
    });
    expect(files.readSummary()).toBe(
      '<p>Started project run <code>run-&lt;7&gt;</code> (not waiting for it).</p>\n',
    );
  });

  it('writes nothing when the summary is turned off', async () => {
    await writeReports([makeOutcome(cases(3, 'FAILED'))], { summary: false, resultsDir: files.dir });
    expect(files.readSummary()).toBe('');
  });
});

/** Every table of an HTML text, in order. */
function tables(html: string): ReturnType<typeof firstTable>[] {
  return html
    .split('<table>')
    .slice(1)
    .map((part) => firstTable(`<table>${part}`));
}

describe('job summary of several targets', () => {
  it('opens with the outcome, the totals and a line per target, then a section per target', async () => {
    await writeReports(threeTargets(), { summary: true, resultsDir: files.dir });
    const summary = files.readSummary();
    const lines = summary.split('\n');
    expect(lines[0]).toBe('<h2>⚠️ 3 test runs: 1 ERROR, 1 FAILED, 1 PASSED</h2>');
    expect(lines[1]).toBe('<p>6 test cases: 5 passed, 1 failed, 0 flaky, 0 skipped · longest run 5.0 s</p>');
    const [targets, ...sections] = tables(summary);
    expect(targets?.header).toEqual(['Status', 'Target', 'Run', 'Test cases', 'Duration']);
    expect(targets?.rows).toEqual([
      [
        '✅ PASSED',
        'Project <code>proj-1</code>',
        '<a href="https://d.example/run-1"><code>run-1</code></a>',
        '3 test cases: 3 passed, 0 failed, 0 flaky, 0 skipped',
        '1.0 s',
      ],
      [
        '❌ FAILED',
        'Suite <strong>Checkout</strong>',
        '<code>run-2</code>',
        expect.stringMatching(/^3 test cases/),
        '5.0 s',
      ],
      ['⚠️ ERROR', 'Project <code>proj-3</code>', '—', expect.stringMatching(/^0 test cases/), '—'],
    ]);
    expect([...summary.matchAll(/<h3>(.*)<\/h3>/g)].map((match) => match[1])).toEqual([
      '✅ Test run passed: project proj-1',
      '❌ Test run failed: Checkout',
      '⚠️ Could not learn the outcome of the test run: project proj-3',
    ]);
    expect(summary).not.toMatch(/<h2>.*Test run/);
    expect(summary).toContain(
      '<h4>Compared with main: 1 new failure, 0 flaky on main, 0 failing on main, 1 fixed</h4>',
    );
    expect(summary).toContain('<p>Could not start the project run of proj-3: HTTP 503.</p>');
    // The third target reported no test case: two tables of test cases, the failing row first.
    expect(sections.map(({ rows }) => rows.map((row) => row[1]))).toEqual([
      ['PASSED 0', 'PASSED 1', 'PASSED 2'],
      ['FAILED 0', 'PASSED 0', 'PASSED 1'],
    ]);
  });

  it('20 targets of 10,000 test cases stay under 1 MiB, quickly, every failing row kept and the rest shared', () => {
    const outcomes = Array.from({ length: 20 }, (_, target) =>
      makeOutcome(
        [
          ...cases(9_700, 'PASSED', `target ${target} passing ${'lorem '.repeat(6)}`),
          ...cases(300, 'FAILED', `target ${target} failing ${'ipsum '.repeat(6)}`),
        ],
        { runId: `run-${target}` },
      ),
    );
    const started = performance.now();
    const summary = renderSummary(outcomes, { junitWritten: false });
    const elapsedMs = performance.now() - started;
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_BUDGET_BYTES);
    expect(Buffer.byteLength(summary)).toBeGreaterThan(SUMMARY_BUDGET_BYTES * 0.9);
    expect(elapsedMs).toBeLessThan(2_000);
    const sections = tables(summary).slice(1);
    expect(sections).toHaveLength(20);
    const shown = sections.map(({ rows }) => rows.length);
    for (const [target, { rows }] of sections.entries()) {
      const failing = rows.filter((row) => row[0] === '❌ FAILED');
      expect(failing).toHaveLength(300);
      expect(failing.every((row) => row[1]?.startsWith(`target ${target} failing`))).toBe(true);
      expect(rows.slice(0, 300)).toEqual(failing);
    }
    // Passing rows share what is left: no section gets more than one row over another.
    expect(Math.max(...shown) - Math.min(...shown)).toBeLessThanOrEqual(1);
    expect(shown[0]).toBeGreaterThan(300);
    for (const count of shown) {
      expect(summary).toContain(`<p>${10_000 - count} more test cases not shown; the full list is in`);
    }
  });

  it('with more failures than fit, each target keeps a fair share of failing rows and no passing one', () => {
    const outcomes = Array.from({ length: 20 }, (_, target) =>
      makeOutcome([
        ...cases(100, 'PASSED'),
        ...cases(target === 0 ? 100 : 9_900, 'FAILED', `failed ${'y'.repeat(100)}`),
      ]),
    );
    const summary = renderSummary(outcomes, { junitWritten: false });
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_BUDGET_BYTES);
    const sections = tables(summary).slice(1);
    // The first target's 100 failures all fit; the others share the rest evenly.
    expect(sections[0]?.rows.filter((row) => row[0] === '❌ FAILED')).toHaveLength(100);
    expect(sections[0]?.rows).toHaveLength(100);
    const others = sections.slice(1).map(({ rows }) => rows.length);
    expect(Math.max(...others) - Math.min(...others)).toBeLessThanOrEqual(1);
    expect(others[0]).toBeGreaterThan(200);
    for (const { rows } of sections.slice(1)) expect(rows.every((row) => row[0] === '❌ FAILED')).toBe(true);
    expect(summary).toContain(
      `${10_000 - (others[0] ?? 0)} more test cases not shown (${9_900 - (others[0] ?? 0)} of them failed)`,
    );
  });

  it('20 targets whose comparisons list 120 long titles each stay under 1 MiB and keep failing rows', () => {
    const outcomes = Array.from({ length: 20 }, () => {
      const outcome = makeOutcome(cases(120, 'FAILED', '|'.repeat(200)));
      const [a, b, c, d] = [0, 30, 60, 90].map((start) => outcome.testCases.slice(start, start + 30));
      const judgment = {
        against: 'main',
        base: 'main',
        newFailures: a ?? [],
        failing: b ?? [],
        flaky: c ?? [],
        quarantined: [],
        fixed: d ?? [],
        partial: false,
        baseResults: [],
      };
      return { ...outcome, judgment };
    });
    const summary = renderSummary(outcomes, { junitWritten: false });
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_BUDGET_BYTES);
    expect(summary.match(/<h4>Compared with main/g)).toHaveLength(20);
    for (const { rows } of tables(summary).slice(1)) expect(rows.length).toBeGreaterThan(10);
  });

  it('runs started without waiting: the overview, then one line each', () => {
    const started = (runId: string) => makeOutcome([], { status: 'STARTED', success: true, runId });
    const summary = renderSummary([started('run-1'), started('run-2')], { junitWritten: false });
    expect(summary.split('\n')[0]).toBe('<h2>▶️ 2 test runs: 2 STARTED</h2>');
    expect(summary).not.toContain('test cases:');
    expect(summary).toContain('<p>Started project run <code>run-1</code> (not waiting for it).</p>');
    expect(summary).toContain('<p>Started project run <code>run-2</code> (not waiting for it).</p>');
  });
});

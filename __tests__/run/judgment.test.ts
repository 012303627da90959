import { afterEach, beforeEach } from '@jest/globals';
import { parseQuarantine } from '../../src/inputs/quarantine.js';
import type { Settings } from '../../src/inputs/settings.js';
import { judgmentHeadline } from '../../src/report/format.js';
import type { RunOutcome, TestCase } from '../../src/report/outcome.js';
import { nextRecord, type ResultRecord, readRecord, recordText, titleHash } from '../../src/report/record.js';
import { runsEntry } from '../../src/report/targets.js';
import type { Baseline } from '../../src/run/baseline.js';
import { judgeAgainst, type RecordContext } from '../../src/run/judgment.js';
import type { TestCaseResult } from '../../src/service/run-driver.js';
import { captureStdout, makeOutcome } from '../report/helpers.js';

/** The i-th commit of the branch: 40 hex digits, told apart by their first 7. */
const commit = (i: number) => `${i.toString(16).padStart(7, '0')}c`.padEnd(40, '0');
/** As a label shows it. */
const label7 = (i: number) => commit(i).slice(0, 7);
/** As a column keeps it. */
const short = (i: number) => commit(i).slice(0, 12);

const withStatus =
  (status: string | undefined) =>
  (...titles: string[]): TestCaseResult[] =>
    titles.map((title) => ({ title, status }));
const failed = withStatus('FAILED');
const passed = withStatus('PASSED');
const flaky = withStatus('FLAKY');
const skipped = withStatus('SKIPPED');

/** The record `main`'s runs build, one after the other (the i-th run tests commit `from + i`). */
function mainRecord(runs: TestCaseResult[][], from = 1, previous?: ResultRecord): ResultRecord {
  let record = previous;
  runs.forEach((testCases, i) => {
    // Its test cases as the action concluded them, as its check run recorded them.
    const run = { commit: commit(from + i), testCases: makeOutcome(testCases).testCases };
    record = nextRecord(record, run, { of: 'branch', name: 'Test run', window: 20, quarantine: [] });
  });
  return record as ResultRecord;
}

const AGAINST = 'main at 0000004 (the base branch)';
const found = (record: ResultRecord, newest?: ResultRecord): Baseline => ({
  kind: 'found',
  record,
  ...(newest ? { newest } : {}),
  against: AGAINST,
  base: 'main',
});
const WHY_NONE = "main has no result of 'Test run' at or before the merge base 0000004";
const NONE: Baseline = { kind: 'none', whyNone: WHY_NONE };

type JudgeSettings = Pick<Settings, 'failOn' | 'history' | 'slowdown'> & { quarantine: string[] };
const TODAY = '2026-12-04';
const PULL_REQUEST: RecordContext = {
  of: 'pull-request',
  commit: commit(99),
  name: 'Test run',
  today: TODAY,
};

/** This run (a finished project run of `now`) judged as the action judges it. */
function judged(
  now: TestCaseResult[],
  baseline: Baseline,
  settings: Partial<JudgeSettings> = {},
  { outcome = {}, context = PULL_REQUEST }: { outcome?: Partial<RunOutcome>; context?: RecordContext } = {},
): RunOutcome {
  // The lines as the input gives them; on a pull request, the base branch ran with them (in force).
  const quarantine = parseQuarantine((settings.quarantine ?? []).join('\n'));
  const ranWith = (record: ResultRecord) => ({ ...record, quarantine });
  const base: Baseline =
    baseline.kind === 'found'
      ? { ...baseline, record: ranWith(baseline.record), newest: baseline.newest && ranWith(baseline.newest) }
      : baseline;
  return judgeAgainst(
    makeOutcome(now, outcome),
    base,
    { failOn: 'any', history: 20, ...settings, quarantine },
    context,
  );
}

const titles = (testCases: readonly TestCase[] | undefined) => (testCases ?? []).map(({ title }) => title);
/** The judgment's lists, by title. */
const lists = ({ judgment }: RunOutcome) => ({
  newFailures: titles(judgment?.newFailures),
  flaky: titles(judgment?.flaky),
  failing: titles(judgment?.failing),
  quarantined: titles(judgment?.quarantined),
  fixed: titles(judgment?.fixed),
});
const NOTHING = { newFailures: [], flaky: [], failing: [], quarantined: [], fixed: [] };
/** Each test case's label, by title (a title listed twice: its last). */
const labels = (outcome: RunOutcome) =>
  Object.fromEntries(outcome.testCases.map(({ title, label }) => [title, label]));

let stdout: ReturnType<typeof captureStdout>;
beforeEach(() => {
  stdout = captureStdout();
});
afterEach(() => stdout.restore());

describe('each failure, one label', () => {
  test('new, failing since, flaky "failed k of the last n", and fixed, in one pass', () => {
    // Four results of main: A flaky, C failing in the last two, D and E failing at the newest,
    // G flaky at the newest, H and I failing throughout; B and J never failed.
    const record = mainRecord([
      [...passed('A', 'B', 'C', 'G'), ...failed('D', 'E', 'H', 'I')],
      [...failed('A'), ...passed('B', 'C', 'E', 'G'), ...failed('D', 'H', 'I')],
      [...passed('A', 'B', 'G'), ...failed('C', 'D', 'E', 'H', 'I')],
      [...passed('A', 'B'), ...flaky('G'), ...failed('C', 'D', 'E', 'H', 'I')],
    ]);
    const outcome = judged(
      [...failed('A', 'B', 'C'), ...passed('D', 'E', 'G'), ...flaky('H'), ...skipped('I'), ...failed('J')],
      found(record),
    );
    expect(lists(outcome)).toEqual({
      ...NOTHING,
      newFailures: ['B', 'J'],
      flaky: ['A'],
      failing: ['C'],
      fixed: ['D', 'E'],
    });
    expect(labels(outcome)).toEqual({
      A: { kind: 'flaky', text: 'flaky on main: failed 1 of the last 4', record: '✅❌✅✅❌' },
      B: { kind: 'new', text: 'new', record: '✅✅✅✅❌' },
      C: { kind: 'failing', text: `failing on main since ${label7(3)}, 2 results`, record: '✅✅❌❌❌' },
      D: undefined,
      E: undefined,
      G: undefined,
      H: undefined,
      I: undefined,
      J: { kind: 'new', text: 'new', record: '✅✅✅✅❌' },
    });
    expect(outcome.judgment).toMatchObject({
      against: AGAINST,
      base: 'main',
      whyNone: undefined,
      partial: false,
    });
    expect(judgmentHeadline(outcome.judgment as NonNullable<RunOutcome['judgment']>)).toBe(
      '2 new failures, 1 flaky on main, 1 failing on main, 2 fixed',
    );
    expect(runsEntry(outcome)).toMatchObject({ newFailures: 2, fixed: 2, flakyFailures: 1, quarantined: 0 });
    expect(stdout.text()).toContain(
      `Compared with ${AGAINST}: 2 new failures, 1 flaky on main, 1 failing on main, 2 fixed.`,
    );
  });

  test('a renamed failing test case is new, and its old title is not fixed', () => {
    const outcome = judged(
      failed('Checkout applies the discount'),
      found(mainRecord([failed('Checkout works')])),
    );
    expect(lists(outcome)).toEqual({ ...NOTHING, newFailures: ['Checkout applies the discount'] });
  });

  test('a title listed several times is counted: two failing then, three now, is one new failure', () => {
    const twice = found(mainRecord([failed('A', 'A')]));
    const thrice = judged(failed('A', 'A', 'A'), twice);
    expect(lists(thrice)).toEqual({ ...NOTHING, newFailures: ['A'], failing: ['A', 'A'] });
    expect(thrice.judgment?.newFailures[0]).toBe(thrice.testCases[2]);
    expect(thrice.testCases.map(({ label }) => label?.kind)).toEqual(['failing', 'failing', 'new']);
    // Twice then; once failing and once passing now: one failing, one fixed.
    expect(lists(judged([...failed('A'), ...passed('A')], twice))).toEqual({
      ...NOTHING,
      failing: ['A'],
      fixed: ['A'],
    });
    // Once then; passing twice now: fixed once.
    expect(lists(judged(passed('A', 'A'), found(mainRecord([failed('A')]))))).toEqual({
      ...NOTHING,
      fixed: ['A'],
    });
  });

  test("flaky then, failing now: flaky on main over the history; with history 0, new (round 5's rule, no flaky label)", () => {
    const flakyThen = found(mainRecord([flaky('A')]));
    expect(labels(judged(failed('A'), flakyThen)).A).toEqual({
      kind: 'flaky',
      text: 'flaky on main: failed 1 of the last 1',
      record: '⚠️❌',
    });
    const roundFive = judged(failed('A'), flakyThen, { history: 0 });
    expect(labels(roundFive).A).toEqual({ kind: 'new', text: 'new', record: '⚠️❌' });
    expect(lists(roundFive)).toEqual({ ...NOTHING, newFailures: ['A'] });
    // Failing at the newest result is known with history 0 too.
    const failingThen = judged(failed('A'), found(mainRecord([passed('A'), failed('A')])), { history: 0 });
    expect(labels(failingThen).A).toEqual({
      kind: 'failing',
      text: `failing on main since ${label7(2)}, 1 result`,
      record: '❌❌',
    });
    // Flaky at the newest result is flaky, not failing; its flaky results count as failures.
    const flakyLast = judged(failed('A'), found(mainRecord([passed('A'), failed('A'), flaky('A')])));
    expect(labels(flakyLast).A).toEqual({
      kind: 'flaky',
      text: 'flaky on main: failed 2 of the last 3',
      record: '✅❌⚠️❌',
    });
  });

  test('skipped then, failing now: new; failing then, flaky or skipped now: neither a failure nor fixed', () => {
    expect(lists(judged(failed('A'), found(mainRecord([skipped('A'), skipped('A')]))))).toEqual({
      ...NOTHING,
      newFailures: ['A'],
    });
    const outcome = judged([...flaky('A'), ...skipped('B')], found(mainRecord([failed('A', 'B')])));
    expect(lists(outcome)).toEqual(NOTHING);
    expect(labels(outcome)).toEqual({ A: undefined, B: undefined });
  });

  test('any status that fails: TIMEDOUT then, ERROR now, is failing since then', () => {
    const outcome = judged(
      [{ title: 'A', status: 'ERROR' }],
      found(mainRecord([[{ title: 'A', status: 'TIMEDOUT' }]])),
    );
    expect(labels(outcome).A).toEqual({
      kind: 'failing',
      text: `failing on main since ${label7(1)}, 1 result`,
      record: '❌❌',
    });
  });

  test('a test case that never ran to an end on main is no failure of main: failing now, it is new', () => {
    const unfinished = [
      { title: 'interrupted', status: 'INTERRUPTED' },
      { title: 'cancelled', status: 'CANCELLED' },
      { title: 'running', status: 'RUNNING' },
      { title: 'queued', status: 'QUEUED' },
      { title: 'no status' },
      { title: 'no status either', status: null },
    ];
    const record = mainRecord([[...unfinished, ...failed('failed')]]);
    const outcome = judged(failed(...unfinished.map(({ title }) => title), 'failed'), found(record));
    expect(lists(outcome)).toEqual({
      ...NOTHING,
      newFailures: ['interrupted', 'cancelled', 'running', 'queued', 'no status', 'no status either'],
      failing: ['failed'],
    });
  });

  test('with fail-on-flaky, a flaky test case fails: failing then is failing, flaky then is flaky (new with history 0)', () => {
    const record = found(mainRecord([[...failed('A'), ...flaky('B'), ...passed('C')]]));
    const now = flaky('A', 'B', 'C');
    const outcome = judged(now, record, {}, { outcome: { failOnFlaky: true } });
    expect(lists(outcome)).toEqual({ ...NOTHING, newFailures: ['C'], flaky: ['B'], failing: ['A'] });
    expect(labels(outcome)).toEqual({
      A: { kind: 'failing', text: `failing on main since ${label7(1)}, 1 result`, record: '❌❌' },
      B: { kind: 'flaky', text: 'flaky on main: failed 1 of the last 1', record: '⚠️❌' },
      C: { kind: 'new', text: 'new', record: '✅❌' },
    });
    expect(lists(judged(now, record, { history: 0 }, { outcome: { failOnFlaky: true } }))).toEqual({
      ...NOTHING,
      newFailures: ['B', 'C'],
      failing: ['A'],
    });
  });

  test('the history is the last `history` results: a failure older than them is forgotten', () => {
    // A failed in the first of five results.
    const record = found(mainRecord([failed('A'), passed('A'), passed('A'), passed('A'), passed('A')]));
    const labelWith = (history: number) => labels(judged(failed('A'), record, { history })).A;
    expect(labelWith(20)).toEqual({
      kind: 'flaky',
      text: 'flaky on main: failed 1 of the last 5',
      record: '❌✅✅✅✅❌',
    });
    expect(labelWith(5)).toEqual({
      kind: 'flaky',
      text: 'flaky on main: failed 1 of the last 5',
      record: '❌✅✅✅✅❌',
    });
    expect(labelWith(4)).toEqual({ kind: 'new', text: 'new', record: '✅✅✅✅❌' });
    expect(labelWith(1)).toEqual({ kind: 'new', text: 'new', record: '✅❌' });
    expect(labelWith(0)).toEqual({ kind: 'new', text: 'new', record: '✅❌' });
  });

  test("the base branch's newest result: a failure there is failing since its own commit; anything else there changes nothing", () => {
    // At the merge base (commits 1 and 2): C failed once. Since (commits 3 and 4): A failing, B
    // failed once, D flaky.
    const atMergeBase = mainRecord([[...passed('A', 'B', 'D'), ...failed('C')], passed('A', 'B', 'C', 'D')]);
    const newest = mainRecord(
      [
        [...failed('A', 'B'), ...flaky('D'), ...passed('C')],
        [...failed('A'), ...flaky('D'), ...passed('B', 'C')],
      ],
      3,
      atMergeBase,
    );
    const outcome = judged(failed('A', 'B', 'C', 'D'), found(atMergeBase, newest));
    expect(lists(outcome)).toEqual({ ...NOTHING, newFailures: ['B', 'D'], flaky: ['C'], failing: ['A'] });
    expect(labels(outcome)).toEqual({
      A: { kind: 'failing', text: `failing on main since ${label7(3)}, 2 results`, record: '✅✅❌' },
      B: { kind: 'new', text: 'new', record: '✅✅❌' },
      C: { kind: 'flaky', text: 'flaky on main: failed 1 of the last 2', record: '❌✅❌' },
      D: { kind: 'new', text: 'new', record: '✅✅❌' },
    });
    // Fixed is against the baseline: A passing now is not fixed.
    expect(lists(judged(passed('A'), found(atMergeBase, newest)))).toEqual(NOTHING);
  });

  test('a baseline whose rows were cut: a failure without a row is new (fail closed), one with its row is known', () => {
    const old = Array.from({ length: 5_000 }, (_, i) => `old failure ${i}`);
    const read = readRecord(recordText(mainRecord([failed(...old)])));
    if (read.kind !== 'record') throw new Error('the record does not read');
    const { record } = read;
    expect(record.cut).toBe(1);
    expect(record.rows.size).toBeLessThan(5_000);
    const outcome = judged(failed(...old, 'brand new'), found(record), { failOn: 'new' });
    const held = old.filter((title) => record.rows.has(titleHash(title)));
    const cut = old.filter((title) => !record.rows.has(titleHash(title)));
    expect(lists(outcome)).toEqual({ ...NOTHING, newFailures: [...cut, 'brand new'], failing: held });
    expect(outcome.judgment?.partial).toBe(true);
    expect(outcome.success).toBe(false);
    expect(outcome.message).toBe(
      `Project run run-1: ${cut.length + 1} test cases failed that did not fail in ${AGAINST} (5001 failing in all; fail-on is 'new').`,
    );
  });
});

describe("the step's result", () => {
  // A failing in both results of main, B failed in the first only.
  const known = found(mainRecord([failed('A', 'B'), [...failed('A'), ...passed('B')]]));

  test("fail-on 'new', every failure known: the step passes, the run's status stays, the log says why", () => {
    const outcome = judged([...failed('A', 'B'), ...passed('C')], known, { failOn: 'new' });
    expect(lists(outcome)).toEqual({ ...NOTHING, flaky: ['B'], failing: ['A'] });
    expect(outcome).toMatchObject({ success: true, status: 'FAILED', message: undefined });
    const note = `2 test cases failed as in ${AGAINST}: with fail-on 'new', known failures do not fail the step.`;
    expect(outcome.notes).toEqual([note]);
    expect(stdout.lines()).toContain(note);
    expect(outcome.counts).toMatchObject({ failed: 2, passed: 1 });
  });

  test("fail-on 'new' and a new failure: the step fails, and its message says how many are new", () => {
    const outcome = judged(failed('A', 'B', 'N'), known, { failOn: 'new' });
    expect(lists(outcome)).toEqual({ ...NOTHING, newFailures: ['N'], flaky: ['B'], failing: ['A'] });
    expect(outcome).toMatchObject({
      success: false,
      status: 'FAILED',
      message: `Project run run-1: 1 test case failed that did not fail in ${AGAINST} (3 failing in all; fail-on is 'new').`,
    });
  });

  test("fail-on 'any': known failures fail the step, labelled all the same", () => {
    const run = makeOutcome(failed('A', 'B'));
    const outcome = judgeAgainst(run, known, { failOn: 'any', history: 20, quarantine: [] }, PULL_REQUEST);
    expect(lists(outcome)).toEqual({ ...NOTHING, flaky: ['B'], failing: ['A'] });
    expect(outcome).toMatchObject({ success: false, status: 'FAILED', message: run.message, notes: [] });
  });

  test("no baseline: under fail-on 'new' (as 'any', and the log says so) every failure is new, with no record; under 'any' none is labelled; the outputs are empty", () => {
    const run = makeOutcome([...failed('A', 'B'), ...passed('C')]);
    const outcome = judgeAgainst(run, NONE, { failOn: 'new', history: 20, quarantine: [] }, PULL_REQUEST);
    expect(lists(outcome)).toEqual({ ...NOTHING, newFailures: ['A', 'B'] });
    expect(outcome.testCases.map(({ label }) => label)).toStrictEqual([
      { kind: 'new', text: 'new' },
      { kind: 'new', text: 'new' },
      undefined,
    ]);
    expect(outcome.judgment).toMatchObject({
      against: undefined,
      base: undefined,
      whyNone: WHY_NONE,
      partial: false,
    });
    expect(outcome).toMatchObject({ success: false, status: 'FAILED', message: run.message });
    expect(stdout.lines()).toContain(
      `fail-on is 'new', but there is nothing to compare with (${WHY_NONE}): every failure counts. A push or scheduled run of the base branch records a result to compare with.`,
    );
    expect(runsEntry(outcome)).toMatchObject({
      newFailures: null,
      fixed: null,
      flakyFailures: null,
      quarantined: 0,
    });
    // Under fail-on 'any', where no label gates, the failures are counted and left without one.
    const underAny = judgeAgainst(
      makeOutcome(failed('A')),
      NONE,
      { failOn: 'any', history: 20, quarantine: [] },
      PULL_REQUEST,
    );
    expect(lists(underAny)).toEqual(NOTHING);
    expect(labels(underAny)).toEqual({ A: undefined });
    expect(underAny).toMatchObject({ success: false, status: 'FAILED' });
    expect(runsEntry(underAny)).toMatchObject({ newFailures: null, fixed: null, flakyFailures: null });
  });

  test.each(['TIMEDOUT', 'CANCELLED', 'INTERRUPTED', 'ERROR'])(
    'a run that ended %s fails the step either way: every failure known, every failure quarantined, or none',
    (status) => {
      const unfinished = {
        status,
        success: false,
        message: `Project run run-1 ended ${status}.`,
      } as Partial<RunOutcome>;
      const allKnown = judged(failed('A'), known, { failOn: 'new' }, { outcome: unfinished });
      expect(lists(allKnown)).toEqual({ ...NOTHING, failing: ['A'] });
      expect(allKnown).toMatchObject({ success: false, status, message: unfinished.message });
      const quarantined = judged(failed('A'), known, { quarantine: ['A'] }, { outcome: unfinished });
      expect(lists(quarantined)).toEqual({ ...NOTHING, quarantined: ['A'] });
      expect(quarantined).toMatchObject({ success: false, status, message: unfinished.message });
      expect(judged(passed('A'), known, { failOn: 'new' }, { outcome: unfinished })).toMatchObject({
        success: false,
        status,
      });
    },
  );

  test('a run started with wait: false is left as it is', () => {
    const started = makeOutcome([], { status: 'STARTED', success: true });
    expect(judgeAgainst(started, known, { failOn: 'new', history: 20, quarantine: [] }, PULL_REQUEST)).toBe(
      started,
    );
  });
});

describe('quarantine', () => {
  /** A baseline where nothing failed: a failure not quarantined is new. */
  const CLEAN = found(mainRecord([passed('other')]));
  const checkoutFails = [...failed('checkout pays'), ...passed('search')];

  test.each([
    ["fail-on 'any'", 'any', true],
    ["fail-on 'new'", 'new', true],
    ["fail-on 'new' without a baseline", 'new', false],
    ["fail-on 'any' without a baseline", 'any', false],
  ] as const)(
    'a quarantined failure never fails the step (%s); it counts in quarantined only, and the status stays',
    (_, failOn, withBaseline) => {
      const baseline = withBaseline ? found(mainRecord([passed('checkout pays', 'search')])) : NONE;
      // Without a baseline only a branch's own run applies its entries (on a pull request, none is in force).
      const context = withBaseline ? PULL_REQUEST : { ...PULL_REQUEST, of: 'branch' as const };
      const outcome = judged(checkoutFails, baseline, { failOn, quarantine: ['checkout *'] }, { context });
      expect(lists(outcome)).toEqual({ ...NOTHING, quarantined: ['checkout pays'] });
      expect(labels(outcome)['checkout pays']).toStrictEqual({
        kind: 'quarantined',
        text: 'quarantined',
        ...(withBaseline ? { record: '✅❌' } : {}),
      });
      expect(outcome).toMatchObject({ success: true, status: 'FAILED', message: undefined });
      expect(outcome.counts.failed).toBe(1);
      expect(outcome.notes).toContain(
        '1 failing test case is quarantined: the quarantine does not fail the step.',
      );
      expect(runsEntry(outcome)).toMatchObject({ quarantined: 1, newFailures: withBaseline ? 0 : null });
    },
  );

  test('quarantined, and failing on main: quarantined, not failing', () => {
    const outcome = judged(failed('checkout pays'), found(mainRecord([failed('checkout pays')])), {
      quarantine: ['checkout pays'],
    });
    expect(lists(outcome)).toEqual({ ...NOTHING, quarantined: ['checkout pays'] });
    expect(labels(outcome)['checkout pays']).toEqual({
      kind: 'quarantined',
      text: 'quarantined',
      record: '❌❌',
    });
  });

  test("beside it, a new failure still fails the step under fail-on 'new', any failure under 'any'; known ones pass 'new'", () => {
    const baseline = found(mainRecord([[...failed('known'), ...passed('checkout pays', 'other')]]));
    const settings = { quarantine: ['checkout *'] };
    const withNew = judged(failed('checkout pays', 'other'), baseline, { ...settings, failOn: 'new' });
    expect(lists(withNew)).toEqual({ ...NOTHING, newFailures: ['other'], quarantined: ['checkout pays'] });
    expect(withNew).toMatchObject({
      success: false,
      message: `Project run run-1: 1 test case failed that did not fail in ${AGAINST} (2 failing in all; fail-on is 'new').`,
    });
    const withKnown = judged(failed('checkout pays', 'known'), baseline, { ...settings, failOn: 'any' });
    expect(withKnown.success).toBe(false);
    const knownUnderNew = judged(failed('checkout pays', 'known'), baseline, { ...settings, failOn: 'new' });
    expect(knownUnderNew).toMatchObject({ success: true, status: 'FAILED', message: undefined });
    expect(knownUnderNew.notes).toContain(
      `2 test cases failed as in ${AGAINST} (1 of them quarantined): with fail-on 'new', known failures do not fail the step.`,
    );
  });

  const patterns = [
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
  ];
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
  ])(
    'a title %j: quarantined %s (`*` any run of characters, the whole title, case-sensitive)',
    (title, quarantined) => {
      const outcome = judged(failed(title), CLEAN, { quarantine: patterns });
      expect(labels(outcome)[title]?.kind).toBe(quarantined ? 'quarantined' : 'new');
    },
  );

  test('on a pull request, an entry protects only once the base branch ran with it; with no base record, none does', () => {
    const entries = [{ pattern: 'checkout *' }];
    const base = mainRecord([passed('checkout pays', 'search')]);
    const settings = { failOn: 'new' as const, history: 20, quarantine: entries, slowdown: undefined };
    const ran = (record: ResultRecord): Baseline => found({ ...record, quarantine: entries });
    const outcome = (baseline: Baseline) =>
      judgeAgainst(makeOutcome(checkoutFails), baseline, settings, PULL_REQUEST);
    expect(lists(outcome(ran(base))).quarantined).toEqual(['checkout pays']);
    expect(lists(outcome(found(base))).newFailures).toEqual(['checkout pays']);
    expect(lists(outcome(NONE)).quarantined).toEqual([]);
  });

  test('`*` alone quarantines every title, the empty one too; no line, none', () => {
    expect(labels(judged(failed(''), CLEAN, { quarantine: ['*'] }))['']?.kind).toBe('quarantined');
    expect(labels(judged(failed('A'), CLEAN, { quarantine: [] })).A?.kind).toBe('new');
  });

  test('the notes: a line that matches no test case of the run, and a quarantined test case that did not fail in the history', () => {
    const baseline = found(mainRecord([passed('stable one', 'checkout pays'), passed('stable one')]));
    const outcome = judged([...failed('checkout pays'), ...passed('stable one')], baseline, {
      quarantine: [
        'checkout *',
        'nothing * matches',
        '',
        'gone',
        ' gone ',
        '   ',
        'stable one',
        ' stable one ',
      ],
    });
    expect(outcome.notes).toEqual([
      "quarantine: no test case of the run matches 'nothing * matches', 'gone'.",
      "quarantine: 1 test case did not fail in any of the last 2 results and may leave it: 'stable one'.",
      '1 failing test case is quarantined: the quarantine does not fail the step.',
    ]);
    for (const note of outcome.notes) expect(stdout.lines()).toContain(note);
  });

  test('stars in a row and many stars stay fast on a long title', () => {
    const started = performance.now();
    const title = 'a'.repeat(5_000);
    const quarantine = ['****a****a****a****a****b', 'a*a*a*a*a*b*a'];
    expect(labels(judged(failed(title), CLEAN, { quarantine }))[title]?.kind).toBe('new');
    expect(labels(judged(failed(`${title}b`), CLEAN, { quarantine }))[`${title}b`]?.kind).toBe('quarantined');
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('the record the run carries', () => {
  // A failed in the second of three results of main.
  const baseline = found(mainRecord([passed('A'), failed('A'), passed('A')]));
  const now = [...failed('A'), ...passed('B')];
  const ofBranch = (i: number): RecordContext => ({
    of: 'branch',
    commit: commit(i),
    name: 'Test run',
    today: TODAY,
  });

  test("a branch's run extends its baseline's record with its own result, within the window, and names the flakiest", () => {
    const outcome = judged(now, baseline, {}, { context: ofBranch(4) });
    expect(outcome.record).toEqual({
      of: 'branch',
      name: 'Test run',
      commit: commit(4),
      columns: [
        { commit: short(1), passed: 1, failed: 0, flaky: 0 },
        { commit: short(2), passed: 0, failed: 1, flaky: 0 },
        { commit: short(3), passed: 1, failed: 0, flaky: 0 },
        { commit: short(4), passed: 1, failed: 1, flaky: 0, durationMs: 184_000 },
      ],
      rows: new Map([[titleHash('A'), '.F.F']]),
      durations: new Map(),
      quarantine: [],
      quarantineCut: 0,
      cut: 0,
    });
    expect(outcome.flakiest).toEqual([{ title: 'A', changes: 3, record: '✅❌✅❌' }]);
    const windowed = judged(now, baseline, { history: 3 }, { context: ofBranch(4) });
    expect(windowed.record?.columns.map(({ commit }) => commit)).toEqual([short(2), short(3), short(4)]);
    expect(windowed.record?.rows).toEqual(new Map([[titleHash('A'), 'F.F']]));
  });

  test("a pull request's record holds only its own result", () => {
    const outcome = judged(now, baseline);
    expect(outcome.record).toEqual({
      of: 'pull-request',
      name: 'Test run',
      commit: commit(99),
      columns: [{ commit: short(99), passed: 1, failed: 1, flaky: 0, durationMs: 184_000 }],
      rows: new Map([[titleHash('A'), 'F']]),
      durations: new Map(),
      quarantine: [],
      quarantineCut: 0,
      cut: 0,
    });
    expect(outcome.flakiest).toBeUndefined();
  });

  test("a branch's first run, with nothing to build on, starts a record of one result", () => {
    const outcome = judged(now, NONE, {}, { context: ofBranch(4) });
    expect(outcome.record?.columns.map(({ commit }) => commit)).toEqual([short(4)]);
    expect(outcome.record?.rows).toEqual(new Map([[titleHash('A'), 'F']]));
  });

  test("a run that did not finish carries the record it built on unchanged; a pull request's carries none", () => {
    const timedOut = { outcome: { status: 'TIMEDOUT', success: false } as Partial<RunOutcome> };
    const carried = judged(now, baseline, {}, { ...timedOut, context: ofBranch(4) });
    expect(carried.record).toEqual((baseline as { record: ResultRecord }).record);
    expect(recordText(carried.record as ResultRecord)).toBe(
      recordText((baseline as { record: ResultRecord }).record),
    );
    expect(carried.flakiest).toBeUndefined();
    expect(judged(now, NONE, {}, { ...timedOut, context: ofBranch(4) }).record).toBeUndefined();
    expect(judged(now, baseline, {}, timedOut).record).toBeUndefined();
    // A finished run whose commit is not known adds no column either.
    const noCommit = judged(now, baseline, {}, { context: { of: 'branch', name: 'Test run', today: TODAY } });
    expect(noCommit.record).toEqual((baseline as { record: ResultRecord }).record);
  });

  // The contract: "With `history: 0` the record holds one column" (and "max(1, `history`)
  // columns"). A branch's run with history 0 or 1 writes two: nextRecord keeps max(1, window - 1)
  // columns of the previous record. Reported; flip to `test` once it holds.
  test("with history 0, a branch's record holds one column: its own", () => {
    const outcome = judged(now, baseline, { history: 0 }, { context: ofBranch(4) });
    expect(outcome.record?.columns.map(({ commit }) => commit)).toEqual([short(4)]);
  });
});

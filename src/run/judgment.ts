import {
  expired,
  expiringWithin,
  type QuarantineEntry,
  type QuarantineMatcher,
  quarantineMatcher,
} from '../inputs/quarantine.js';
import type { Settings } from '../inputs/settings.js';
import { judgmentHeadline, plural } from '../report/format.js';
import { FINISHED, type Judgment, type RunOutcome, type TestCase } from '../report/outcome.js';
import {
  flakiest,
  iconsOf,
  keysOf,
  lastResults,
  nextRecord,
  type RecordOwner,
  type ResultRecord,
  typicalDuration,
} from '../report/record.js';
import { info, warning } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Baseline } from './baseline.js';
import { failureMessage, runName } from './conclude.js';

type JudgeSettings = Pick<Settings, 'failOn' | 'history' | 'quarantine' | 'slowdown'>;

/** Whose result this run is, the commit it tested, its check name, and the day (UTC) it is judged on. */
export interface RecordContext {
  of: RecordOwner;
  commit?: string;
  name: string;
  /** `YYYY-MM-DD`: when quarantine entries expire. */
  today: string;
}

/**
 * The one judgment of a run: one pass over the baseline's record and this run's test cases gives
 * each failing test case one label (quarantined, failing on the base branch, flaky there, new)
 * and finds the fixed ones. Then the step's verdict: with fail-on 'new', a finished run whose
 * failures are all known passes; a quarantined failure never fails it; a run that did not finish
 * fails it either way; with no baseline every failure counts.
 */
export function judgeAgainst(
  outcome: RunOutcome,
  baseline: Baseline,
  settings: JudgeSettings,
  context: RecordContext,
): RunOutcome {
  if (outcome.status === 'STARTED') return outcome;
  const quarantine = quarantineInForce(settings.quarantine, baseline, context);
  const matcher = quarantineMatcher(quarantine.inForce.map(({ pattern }) => pattern));
  const judgment = judgmentOf(outcome, baseline, settings, matcher);
  const judged: RunOutcome = {
    ...outcome,
    judgment,
    notes: [...outcome.notes, ...quarantine.notes, ...quarantineNotes(outcome, matcher, settings, baseline)],
    ...carriedRecord(outcome, baseline, settings, { ...context, quarantine: quarantine.inForce }),
  };
  for (const note of judged.notes.slice(outcome.notes.length)) info(line`${note}`);
  if (judgment.against) info(line`Compared with ${judgment.against}: ${judgmentHeadline(judgment)}.`);
  if (outcome.success) return judged;
  if (settings.failOn === 'new' && !judgment.against && judgment.whyNone !== undefined) {
    info(
      line`fail-on is 'new', but there is nothing to compare with (${judgment.whyNone ?? ''}): every failure counts. A push or scheduled run of the base branch records a result to compare with.`,
    );
  }
  if (!FINISHED.includes(outcome.status)) return judged;
  const failing = outcome.reportOrder.filter((testCase) => testCase.verdict.fails);
  if (failing.length === 0) return judged;
  const gating = settings.failOn === 'new' && judgment.against !== undefined;
  const quarantined = new Set(judgment.quarantined);
  const blocking = gating ? judgment.newFailures : failing.filter((testCase) => !quarantined.has(testCase));
  if (blocking.length > 0) {
    if (!gating) return judged;
    const why = `${plural(blocking.length, 'test case')} failed that did not fail in ${judgment.against}`;
    const message = `${runName(outcome)}: ${why} (${failing.length} failing in all; fail-on is 'new').`;
    return { ...judged, message: failureMessage(message, outcome.dashboardUrl) };
  }
  const note = passingNote(failing.length, judgment, gating);
  info(line`${note}`);
  return { ...judged, success: true, message: undefined, notes: [...judged.notes, note] };
}

function judgmentOf(
  outcome: RunOutcome,
  baseline: Baseline,
  settings: JudgeSettings,
  quarantine: QuarantineMatcher,
): Judgment {
  const found = baseline.kind === 'found' ? baseline : undefined;
  // With history 0 the record is read as one result: round 5's rule, no flaky label.
  const record = found && lastResults(found.record, settings.history);
  const judgment: Judgment = {
    against: found?.against,
    base: found?.base,
    whyNone: baseline.kind === 'none' ? baseline.whyNone : undefined,
    newFailures: [],
    flaky: [],
    failing: [],
    quarantined: [],
    fixed: [],
    // Rows were cut from the columns read: a failure without a row may have failed there, so it is new.
    partial: (record?.cut ?? 0) > 0,
    baseResults: record && settings.history >= 2 ? record.columns : [],
  };
  const newest = found?.newest;
  const keys = keysOf(outcome.testCases);
  const base = found?.base ?? '';
  for (const testCase of outcome.reportOrder) {
    const key = keys.get(testCase) as string;
    const then = record?.rows.get(key) ?? '.'.repeat(record?.columns.length ?? 0);
    judgeDuration(testCase, record?.durations.get(key), settings, judgment);
    if (!testCase.verdict.fails) {
      if (then.endsWith('F') && testCase.status === 'PASSED') judgment.fixed.push(testCase);
      continue;
    }
    const icons = record ? `${iconsOf(then)}${testCase.verdict.icon}` : undefined;
    const label = (kind: NonNullable<TestCase['label']>['kind'], text: string) => {
      testCase.label = { kind, text, ...(icons ? { record: icons } : {}) };
    };
    const since = record && failingSince(then, record, newest, key);
    if (quarantine.matches(testCase.title)) {
      label('quarantined', 'quarantined');
      judgment.quarantined.push(testCase);
    } else if (since) {
      label('failing', `failing on ${base} since ${since}`);
      judgment.failing.push(testCase);
    } else if (record && settings.history > 0 && /[FK]/.test(then)) {
      const failed = then.replace(/[^FK]/g, '').length;
      label('flaky', `flaky on ${base}: failed ${failed} of the last ${record.columns.length}`);
      judgment.flaky.push(testCase);
    } else if (found || settings.failOn === 'new') {
      // Without a baseline, a failure is labelled new only where it gates: fail-on 'new' acts as 'any'.
      label('new', 'new');
      judgment.newFailures.push(testCase);
    }
  }
  if (!FINISHED.includes(outcome.status)) judgment.slower = undefined;
  return judgment;
}

/**
 * A test case's typical duration on the base branch (the median of its last passing results,
 * three at least), and whether it was markedly slower here: at least the factor times it, and at
 * least the amount longer. `slower` stays undefined until some test case has a typical duration.
 */
function judgeDuration(
  testCase: TestCase,
  durations: readonly number[] | undefined,
  { slowdown }: JudgeSettings,
  judgment: Judgment,
): void {
  const typicalMs = typicalDuration(durations);
  if (typicalMs === undefined) return;
  testCase.typicalMs = typicalMs;
  if (!slowdown) return;
  judgment.slower ??= [];
  const ms = testCase.durationMs;
  if (ms !== undefined && ms >= slowdown.factor * typicalMs && ms - typicalMs >= slowdown.minMs) {
    judgment.slower.push(testCase);
  }
}

/**
 * The entries in force: not expired (from the day after `until`, UTC); on a pull request's run,
 * only those the base branch's newest record carries (the earlier date applies), so that a pull
 * request cannot quarantine what it breaks. A branch's own runs apply their own entries.
 */
function quarantineInForce(
  entries: readonly QuarantineEntry[],
  baseline: Baseline,
  { of, today }: RecordContext,
): { inForce: QuarantineEntry[]; notes: string[] } {
  const base = baseline.kind === 'found' ? (baseline.newest ?? baseline.record).quarantine : [];
  const inForce: QuarantineEntry[] = [];
  const notYet: string[] = [];
  for (const entry of entries) {
    const there = base.find(({ pattern }) => pattern === entry.pattern);
    const dates = [entry.until, there?.until].filter((until) => until !== undefined).sort();
    const applied =
      dates[0] === undefined ? { pattern: entry.pattern } : { pattern: entry.pattern, until: dates[0] };
    // Expired by the workflow's own date first: that is the line to mend.
    if (expired(entry, today) || (there && expired(applied, today))) {
      warning(
        line`quarantine: '${applied.pattern}' expired on ${applied.until ?? ''}: its test cases are judged like any other.`,
      );
    } else if (of === 'pull-request' && !there) notYet.push(entry.pattern);
    else inForce.push(applied);
  }
  const notes = expiringWithin(inForce, today).map(
    ({ pattern, until }) => `quarantine: '${pattern}' expires on ${until}.`,
  );
  if (notYet.length > 0) {
    notes.push(
      `quarantine: ${notYet.map((pattern) => `'${pattern}'`).join(', ')} not yet in force: the base branch has not run with ${notYet.length === 1 ? 'it' : 'them'}.`,
    );
  }
  return { inForce, notes };
}

/** Failing at the baseline's newest result, else at the base branch's newest: since when ("abc1234, 3 results"). */
function failingSince(
  then: string,
  record: ResultRecord,
  newest: ResultRecord | undefined,
  key: string,
): string | undefined {
  const [verdicts, columns] =
    trailingFailures(then) > 0
      ? [then, record.columns]
      : [newest?.rows.get(key) ?? '', newest?.columns ?? []];
  const run = trailingFailures(verdicts);
  const commit = columns[verdicts.length - run]?.commit ?? '';
  return run > 0 ? `${commit.slice(0, 7)}, ${plural(run, 'result')}` : undefined;
}

function trailingFailures(verdicts: string): number {
  let count = 0;
  while (count < verdicts.length && verdicts[verdicts.length - 1 - count] === 'F') count++;
  return count;
}

function passingNote(failing: number, judgment: Judgment, gating: boolean): string {
  const quarantined = judgment.quarantined.length;
  if (!gating || quarantined === failing) {
    return `${plural(failing, 'failing test case')} ${failing === 1 ? 'is' : 'are'} quarantined: the quarantine does not fail the step.`;
  }
  const also = quarantined > 0 ? ` (${quarantined} of them quarantined)` : '';
  return `${plural(failing, 'test case')} failed as in ${judgment.against}${also}: with fail-on 'new', known failures do not fail the step.`;
}

/** The quarantine's lines that match no test case of the run, and its test cases whose record is clean. */
function quarantineNotes(
  outcome: RunOutcome,
  matcher: QuarantineMatcher,
  settings: JudgeSettings,
  baseline: Baseline,
): string[] {
  const notes: string[] = [];
  const unmatched = matcher.unmatched(outcome.testCases.map(({ title }) => title));
  if (unmatched.length > 0)
    notes.push(
      `quarantine: no test case of the run matches ${unmatched.map((each) => `'${each}'`).join(', ')}.`,
    );
  if (baseline.kind !== 'found' || settings.history === 0) return notes;
  const record = lastResults(baseline.record, settings.history);
  const keys = keysOf(outcome.testCases);
  const clean = outcome.testCases.filter(
    (testCase) =>
      matcher.matches(testCase.title) &&
      !testCase.verdict.fails &&
      !/[FK]/.test(record.rows.get(keys.get(testCase) as string) ?? ''),
  );
  if (clean.length > 0) {
    const names = clean
      .slice(0, 5)
      .map(({ title }) => `'${title}'`)
      .join(', ');
    notes.push(
      `quarantine: ${plural(clean.length, 'test case')} did not fail in any of the last ${record.columns.length} results and may leave it: ${names}${clean.length > 5 ? ', …' : ''}.`,
    );
  }
  return notes;
}

/**
 * What this run's check run carries: a run of the branch builds on its baseline's record (a run
 * that did not finish carries it on unchanged); a pull request's holds only its own result.
 */
function carriedRecord(
  outcome: RunOutcome,
  baseline: Baseline,
  settings: JudgeSettings,
  context: RecordContext & { quarantine: QuarantineEntry[] },
): Pick<RunOutcome, 'record' | 'flakiest'> {
  const ofBranch = context.of === 'branch';
  const previous = ofBranch && baseline.kind === 'found' ? baseline.record : undefined;
  const finished = FINISHED.includes(outcome.status) && context.commit !== undefined;
  const run = finished
    ? { commit: context.commit as string, testCases: outcome.testCases, durationMs: outcome.durationMs }
    : undefined;
  const window = ofBranch ? Math.max(1, settings.history) : 1;
  const record = nextRecord(previous, run, { ...context, window });
  if (!record || !ofBranch || !run || settings.history === 0) return { record };
  const ranked = flakiest(record);
  // Titles by key, for the few ranked: only this run's test cases can be named.
  const wanted = new Set(ranked.map(({ key }) => key));
  const titles = new Map<string, string>();
  for (const [testCase, key] of keysOf(outcome.testCases))
    if (wanted.has(key)) titles.set(key, testCase.title);
  const named = ranked.flatMap(({ key, verdicts, changes }) => {
    const title = titles.get(key);
    return title === undefined ? [] : [{ title, changes, record: iconsOf(verdicts) }];
  });
  return { record, ...(named.length > 0 ? { flakiest: named } : {}) };
}

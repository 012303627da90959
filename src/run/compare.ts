import type { Settings } from '../inputs/settings.js';
import { commitTested } from '../inputs/workflow-run.js';
import { type Digest, hashOf } from '../report/digest.js';
import { comparisonHeadline, plural } from '../report/format.js';
import {
  extendHistory,
  flakiest,
  type History,
  labelFailure,
  quarantineMatcher,
  recordOf,
} from '../report/history.js';
import type { Comparison, RunOutcome, TestCase } from '../report/outcome.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Baseline } from './baseline.js';
import { checkRunOwner } from './check-runs.js';
import { failureMessage, runName } from './conclude.js';

/**
 * Titles are compared as multisets: failing twice then and three times now is one new failure. A
 * renamed failing test is a new failure, and its old title is not fixed; only a pass now fixes
 * (flaky or skipped now is neither). "Failing" is the step's reading (fail-on-flaky included);
 * quarantined test cases are left out: they are reported on their own.
 */
export function compareRuns(
  testCases: readonly TestCase[],
  { digest: previous, against }: { digest: Digest; against: string },
  quarantined: ReadonlySet<TestCase> = new Set(),
): Comparison {
  const comparison: Comparison = {
    against,
    newFailures: [],
    stillFailing: [],
    fixed: [],
    notCompared: [],
    flaky: [],
    partial: previous.failingHeldUpTo !== undefined,
  };
  // Per title: how many of its failures then are not yet matched by a failure or a pass now.
  const left = new Map(previous.counts);
  const matched = (hash: string) => {
    const then = left.get(hash) ?? 0;
    if (then > 0) left.set(hash, then - 1);
    return then > 0;
  };
  for (const testCase of testCases) {
    if (!testCase.verdict.fails || quarantined.has(testCase)) continue;
    const hash = hashOf(testCase);
    // The digest was cut past this title's hash: it may have failed then too.
    const held = previous.failingHeldUpTo === undefined || hash <= previous.failingHeldUpTo;
    if (!held) comparison.notCompared.push(testCase);
    else if (matched(hash)) comparison.stillFailing.push(testCase);
    else comparison.newFailures.push(testCase);
  }
  // Passes are matched only after every failure now, so that a title both failing and passing
  // now is still failing before it is fixed.
  for (const testCase of testCases) {
    const passed = !testCase.verdict.fails && testCase.verdict.count === 'passed';
    if (passed && matched(hashOf(testCase))) comparison.fixed.push(testCase);
  }
  return comparison;
}

/**
 * With the base branch's history, each failure gets its label: a "new" one that failed in some of
 * its results is flaky there, and leaves the new failures; a known one says since when it fails.
 * The labels are set on the test cases themselves, once, for every report to show.
 */
function labelWith(comparison: Comparison, history: History, base: string): void {
  comparison.labelledOn = base;
  const of = history.commits.length;
  const recordOfTitle = (testCase: TestCase) => {
    const verdicts = history.rows.get(hashOf(testCase)) ?? '.'.repeat(of);
    return `${recordOf(verdicts)}${testCase.verdict.icon}`;
  };
  for (const testCase of comparison.stillFailing) {
    const label = labelFailure(hashOf(testCase), history, true);
    const since =
      label.kind === 'failing' ? ` since ${label.since.slice(0, 7)}, ${plural(label.results, 'result')}` : '';
    testCase.label = { kind: 'failing', text: `failing on ${base}${since}`, record: recordOfTitle(testCase) };
  }
  const stillNew: TestCase[] = [];
  for (const testCase of comparison.newFailures) {
    const label = labelFailure(hashOf(testCase), history, false);
    if (label.kind === 'new') {
      testCase.label = { kind: 'new', text: 'new', record: recordOfTitle(testCase) };
      stillNew.push(testCase);
      continue;
    }
    const record =
      label.kind === 'flaky' ? `failed ${label.failed} of the last ${label.of}` : 'failing there';
    testCase.label = { kind: 'flaky', text: `flaky on ${base}: ${record}`, record: recordOfTitle(testCase) };
    comparison.flaky.push(testCase);
  }
  comparison.newFailures = stillNew;
}

/** The quarantine's failing test cases, with its lines that match no test case of the run, and those whose record is clean. */
function quarantineOf(outcome: RunOutcome, lines: readonly string[], history?: History) {
  const matcher = quarantineMatcher(lines);
  const failing = outcome.reportOrder.filter(
    (testCase) => testCase.verdict.fails && matcher.matches(testCase.title),
  );
  for (const testCase of failing) testCase.label = { kind: 'quarantined', text: 'quarantined' };
  const notes: string[] = [];
  const unmatched = matcher.unmatched(outcome.testCases.map(({ title }) => title));
  if (unmatched.length > 0)
    notes.push(
      `quarantine: no test case of the run matches ${unmatched.map((each) => `'${each}'`).join(', ')}.`,
    );
  if (history) {
    const clean = outcome.testCases.filter(
      (testCase) =>
        matcher.matches(testCase.title) &&
        !testCase.verdict.fails &&
        !/[FK]/.test(history.rows.get(hashOf(testCase)) ?? ''),
    );
    if (clean.length > 0) {
      const names = clean
        .slice(0, 5)
        .map(({ title }) => `'${title}'`)
        .join(', ');
      notes.push(
        `quarantine: ${plural(clean.length, 'test case')} did not fail in any of the last ${history.commits.length} results and may leave it: ${names}${clean.length > 5 ? ', …' : ''}.`,
      );
    }
  }
  return { failing, notes };
}

/**
 * The step's verdict on a run: with fail-on 'new', a finished run whose failures all failed in the
 * baseline too (or are flaky there) passes the step; a quarantined failure never fails it; a run
 * that did not finish fails it either way; with nothing to compare with, 'new' acts as 'any'. A run
 * of the branch itself also gets the history its check run carries on.
 */
export function judgeAgainst(
  outcome: RunOutcome,
  baseline: Baseline,
  settings: Pick<Settings, 'failOn' | 'history' | 'quarantine' | 'workflow' | 'pullRequestNumber'>,
): RunOutcome {
  if (outcome.status === 'STARTED') return outcome;
  const found = baseline.kind === 'found' ? baseline : undefined;
  const history = settings.history > 0 ? found?.history : undefined;
  const quarantine = quarantineOf(outcome, settings.quarantine, history);
  const comparison = found && compareRuns(outcome.reportOrder, found, new Set(quarantine.failing));
  if (comparison && history && found) labelWith(comparison, history, found.base);
  if (comparison) info(line`Compared with ${comparison.against}: ${comparisonHeadline(comparison)}.`);
  const judged: RunOutcome = {
    ...outcome,
    comparison,
    quarantined: quarantine.failing,
    notes: [...outcome.notes, ...quarantine.notes],
    ...branchHistory(outcome, found?.history, settings),
  };
  for (const note of quarantine.notes) info(line`${note}`);
  if (outcome.success) return judged;
  if (settings.failOn === 'new' && !comparison) {
    const why = baseline.kind === 'none' ? baseline.whyNone : '';
    info(line`fail-on is 'new', but there is nothing to compare with (${why}): any failure fails the step.`);
  }
  if (!FINISHED.includes(outcome.status)) return judged;
  const failing = outcome.reportOrder.filter((testCase) => testCase.verdict.fails);
  const gating = settings.failOn === 'new' && comparison;
  const blocking = gating
    ? [...comparison.newFailures, ...comparison.notCompared]
    : failing.filter((testCase) => !quarantine.failing.includes(testCase));
  if (failing.length === 0) return judged;
  if (blocking.length > 0) {
    if (!gating) return judged;
    const { newFailures, notCompared, against } = comparison;
    const unknown = notCompared.length > 0 ? `${notCompared.length} could not be compared, ` : '';
    const why =
      newFailures.length > 0
        ? `${plural(newFailures.length, 'test case')} failed that did not fail in ${against}`
        : `${plural(notCompared.length, 'failing test case')} could not be compared with ${against}, which had more failures than its digest holds`;
    const message = `${runName(outcome)}: ${why} (${unknown}${failing.length} failing in all; fail-on is 'new').`;
    return { ...judged, message: failureMessage(message, outcome.dashboardUrl) };
  }
  const note = passingNote(
    failing.length,
    quarantine.failing.length,
    gating ? comparison.against : undefined,
  );
  info(line`${note}`);
  return { ...judged, success: true, message: undefined, notes: [...judged.notes, note] };
}

function passingNote(failing: number, quarantined: number, against?: string): string {
  if (against === undefined || quarantined === failing) {
    return `${plural(failing, 'failing test case')} ${failing === 1 ? 'is' : 'are'} quarantined: the quarantine does not fail the step.`;
  }
  const also = quarantined > 0 ? ` (${quarantined} of them quarantined)` : '';
  return `${plural(failing, 'test case')} failed as in ${against}${also}: with fail-on 'new', known failures do not fail the step.`;
}

/** A run of the branch itself carries the history on, with its own result; a pull request's never enters it. */
function branchHistory(
  outcome: RunOutcome,
  previous: History | undefined,
  settings: Pick<Settings, 'history' | 'workflow' | 'pullRequestNumber'>,
): Pick<RunOutcome, 'history' | 'flakiest'> {
  const commit = commitTested(settings.workflow);
  if (settings.history === 0 || !commit || checkRunOwner(settings) !== 'branch') return {};
  // An interrupted run is a result to compare with, but adds no verdicts: the history goes on as it was.
  if (outcome.status === 'INTERRUPTED' && previous) return { history: previous };
  if (!FINISHED.includes(outcome.status)) return {};
  const history = extendHistory(previous, { commit, testCases: outcome.testCases }, settings.history);
  const ranked = flakiest(history);
  if (ranked.length === 0) return { history };
  // Titles by hash, for the few ranked: only this run's test cases can be named.
  const wanted = new Set(ranked.map(({ hash }) => hash));
  const titles = new Map(
    outcome.testCases.filter((each) => wanted.has(hashOf(each))).map((each) => [hashOf(each), each.title]),
  );
  const named = ranked.flatMap(({ hash, verdicts, changes }) => {
    const title = titles.get(hash);
    return title === undefined ? [] : [{ title, changes, record: recordOf(verdicts) }];
  });
  return { history, flakiest: named };
}

/** Only a run that finished has test cases that tell the step's result. */
const FINISHED: readonly string[] = ['PASSED', 'FAILED'];

import { clean } from '../runner/text.js';
import { ENTITIES as HTML_ENTITIES, UNTITLED } from './escape.js';
import type { RunOutcome } from './outcome.js';
import { onlyTarget, targetName } from './targets.js';
import type { Verdict } from './test-case-status.js';

const XML_SPECIALS = /[&<>"']/g;
const ENTITY: Record<string, string> = { ...HTML_ENTITIES, "'": '&apos;' };

/** On one line: some JUnit consumers cut a name at a newline or show `&#10;` literally. */
function xmlAttr(text: string): string {
  return clean(text, Number.POSITIVE_INFINITY, 'fold').replace(XML_SPECIALS, (char) => ENTITY[char] ?? char);
}

/** JUnit's `time`: seconds as a plain decimal number, which its readers parse (not formatDuration's words). */
function seconds(ms: number | undefined): string {
  return ms !== undefined && Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : '0';
}

/** What follows a test case's attributes. */
function closing(verdict: Verdict, status: string | undefined): string {
  switch (verdict.verdict) {
    case 'passed':
      return '/>';
    case 'flaky':
      return '><properties><property name="flaky" value="true"/></properties></testcase>';
    case 'skipped':
      return '><skipped/></testcase>';
    case 'unfinished':
      return `><failure message="${xmlAttr(verdict.label)}" type="unfinished"/></testcase>`;
  }
  // failure and error: JUnit's element of that name, the status as its message and type.
  const escaped = xmlAttr(status ?? '');
  return `><${verdict.verdict} message="${escaped}" type="${escaped}"/></testcase>`;
}

function countsAttributes({ tests, failures, errors, skipped, durationMs }: SuiteCounts): string {
  return `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(durationMs)}"`;
}

/** With several targets a suite's name alone may not tell two suites apart; its id does. */
function suiteName(outcome: RunOutcome, several: boolean): string {
  const { mode, testSuiteName, testSuiteId } = outcome;
  const withId = several && mode === 'suite' && testSuiteName && testSuiteId;
  return xmlAttr(withId ? `${testSuiteName} (suite ${testSuiteId})` : targetName(outcome));
}

/** One target's counts, from the same verdicts as its test cases' elements. */
function suiteCounts(outcome: RunOutcome) {
  const { total, failed, skipped } = outcome.counts;
  const errors = outcome.testCases.filter(({ verdict }) => verdict.verdict === 'error').length;
  const durationMs =
    outcome.durationMs ?? outcome.testCases.reduce((sum, testCase) => sum + (testCase.durationMs ?? 0), 0);
  return { tests: total, failures: failed - errors, errors, skipped, durationMs };
}

type SuiteCounts = ReturnType<typeof suiteCounts>;

/** One target's testsuite, a line each. */
function testSuiteLines(outcome: RunOutcome, name: string, counts: SuiteCounts): string[] {
  const testCases = outcome.testCases.map(({ title, status, durationMs, verdict }) => {
    const caseName = xmlAttr(title).trim() || UNTITLED;
    return `    <testcase name="${caseName}" classname="${name}" time="${seconds(durationMs)}"${closing(verdict, status)}`;
  });
  const { runId, status, branch, environment, message } = outcome;
  const propertyLines = Object.entries({ runId, status, branch, environment, message })
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([property, value]) => `      <property name="${property}" value="${xmlAttr(value)}"/>`);
  return [
    `  <testsuite name="${name}" ${countsAttributes(counts)}>`,
    '    <properties>',
    ...propertyLines,
    '    </properties>',
    ...testCases,
    '  </testsuite>',
  ];
}

/**
 * A `<testsuite>` per target under one `<testsuites>` with the totals (its time the longest: the runs
 * ran together); with one target, both carry its name. One suite's text at a time, so that 20 targets'
 * reports are never all in memory.
 */
export function* junitText(outcomes: readonly RunOutcome[]): Generator<string> {
  const several = onlyTarget(outcomes) === undefined;
  const names = outcomes.map((outcome) => suiteName(outcome, several));
  const counts = outcomes.map(suiteCounts);
  const sum = (key: keyof SuiteCounts) => counts.reduce((total, each) => total + each[key], 0);
  const totals: SuiteCounts = {
    tests: sum('tests'),
    failures: sum('failures'),
    errors: sum('errors'),
    skipped: sum('skipped'),
    durationMs: Math.max(0, ...counts.map(({ durationMs }) => durationMs)),
  };
  const name = several ? `${outcomes.length} test runs` : names[0];
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${name}" ${countsAttributes(totals)}>\n`;
  for (const [i, outcome] of outcomes.entries()) {
    yield `${testSuiteLines(outcome, names[i] as string, counts[i] as SuiteCounts).join('\n')}\n`;
  }
  yield '</testsuites>\n';
}

export const junitXml = (outcomes: readonly RunOutcome[]): string => [...junitText(outcomes)].join('');

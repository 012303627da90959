import { clean } from '../runner/text.js';
import { UNTITLED } from './escape.js';
import type { RunOutcome } from './outcome.js';
import type { Verdict } from './test-case-status.js';

const XML_SPECIALS = /[&<>"']/g;
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

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

/** One testsuite; its counts are the outcome's, from the same verdicts. */
export function junitXml(outcome: RunOutcome): string {
  const suiteName = xmlAttr(
    outcome.mode === 'suite'
      ? outcome.testSuiteName || `suite ${outcome.testSuiteId ?? ''}`.trim()
      : `project ${outcome.projectId ?? ''}`.trim(),
  );
  const testCases = outcome.testCases.map(({ title, status, durationMs, verdict }) => {
    const name = xmlAttr(title).trim() || UNTITLED;
    return `    <testcase name="${name}" classname="${suiteName}" time="${seconds(durationMs)}"${closing(verdict, status)}`;
  });
  const { total, failed, skipped } = outcome.counts;
  const errors = outcome.testCases.filter(({ verdict }) => verdict.verdict === 'error').length;
  const durationMs =
    outcome.durationMs ?? outcome.testCases.reduce((sum, testCase) => sum + (testCase.durationMs ?? 0), 0);
  const counts = `tests="${total}" failures="${failed - errors}" errors="${errors}" skipped="${skipped}" time="${seconds(durationMs)}"`;

  const { runId, status, branch, environment, message } = outcome;
  const propertyLines = Object.entries({ runId, status, branch, environment, message })
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `      <property name="${name}" value="${xmlAttr(value)}"/>`);

  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${suiteName}" ${counts}>`,
    `  <testsuite name="${suiteName}" ${counts}>`,
    '    <properties>',
    ...propertyLines,
    '    </properties>',
    ...testCases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

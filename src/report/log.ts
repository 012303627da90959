import * as core from '@actions/core';
import { oneLine, UNTITLED } from './escape.js';
import { countsLine, statusLabel } from './format.js';
import { inReportOrder, isFailing, type RunOutcome } from './outcome.js';

const MAX_FAILED_LINES = 50;

/** The end of the log: the counts, the notes, and each failed test case. */
export function logOutcome(outcome: RunOutcome): void {
  core.info(countsLine(outcome.counts));
  for (const note of outcome.notes) core.info(oneLine(note));
  const failing = inReportOrder(
    outcome.testCases.filter((testCase) => isFailing(testCase, outcome.failOnFlaky)),
  );
  for (const testCase of failing.slice(0, MAX_FAILED_LINES)) {
    core.info(`  ✗ ${oneLine(statusLabel(testCase), 60)}  ${oneLine(testCase.title, 200) || UNTITLED}`);
  }
  if (failing.length > MAX_FAILED_LINES) core.info(`  … and ${failing.length - MAX_FAILED_LINES} more`);
}

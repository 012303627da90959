import * as core from '@actions/core';
import { oneLine, UNTITLED } from './escape.js';
import { countsLine } from './format.js';
import type { RunOutcome } from './outcome.js';
import { inReportOrder } from './test-case-status.js';

const MAX_FAILED_LINES = 50;

/** The end of the log: the counts, the notes, and each failed test case. */
export function logOutcome(outcome: RunOutcome): void {
  core.info(countsLine(outcome.counts));
  for (const note of outcome.notes) core.info(oneLine(note));
  const failing = inReportOrder(outcome.testCases).filter((testCase) => testCase.verdict.fails);
  for (const testCase of failing.slice(0, MAX_FAILED_LINES)) {
    core.info(`  ✗ ${oneLine(testCase.verdict.label, 60)}  ${oneLine(testCase.title, 200) || UNTITLED}`);
  }
  if (failing.length > MAX_FAILED_LINES) core.info(`  … and ${failing.length - MAX_FAILED_LINES} more`);
}

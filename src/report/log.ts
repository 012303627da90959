import { info } from '../runner/log.js';
import { line, safe } from '../runner/text.js';
import { UNTITLED } from './escape.js';
import { countsLine } from './format.js';
import type { RunOutcome } from './outcome.js';

const MAX_FAILED_LINES = 50;

/** The end of the log: the counts and each failed test case (the notes were logged when they happened). */
export function logOutcome(outcome: RunOutcome): void {
  info(line`${countsLine(outcome.counts)}`);
  const failing = outcome.reportOrder.filter((testCase) => testCase.verdict.fails);
  for (const testCase of failing.slice(0, MAX_FAILED_LINES)) {
    info(line`  ✗ ${safe(testCase.verdict.label, 60)}  ${safe(testCase.title, 200) || UNTITLED}`);
  }
  if (failing.length > MAX_FAILED_LINES) info(line`  … and ${failing.length - MAX_FAILED_LINES} more`);
}

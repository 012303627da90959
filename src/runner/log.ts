import * as core from '@actions/core';
import type { SafeText } from './text.js';

/**
 * The one place that writes to the step's log: lines, annotations and the step's failure. Each
 * takes SafeText, so every foreign value in it went through `safe`.
 */

/** GitHub shows ten annotations of each kind per step; past them, the text goes to the log as a line. */
const ANNOTATIONS_PER_KIND = 10;

const ANNOTATE = { error: core.error, warning: core.warning, notice: core.notice };
type Kind = keyof typeof ANNOTATE;
const shown: Record<Kind, number> = { error: 0, warning: 0, notice: 0 };

/** A line the runner would read as a workflow command once its leading white space is trimmed. */
const COMMAND_START = /^\s*(::|##\[)/;

/**
 * The last guard: no line break (text made by `safe` and `line` has none; a cast could), and no line
 * that starts as a command (one that starts with a foreign value could).
 */
function guarded(text: SafeText): string {
  const single = text.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  return COMMAND_START.test(single)
    ? single.replace(/[:#]/, (char) => (char === ':' ? '\\u003a' : '\\u0023'))
    : single;
}

export const info = (text: SafeText): void => core.info(guarded(text));
export const debug = (text: SafeText): void => core.debug(guarded(text));

export const annotationsLeft = (kind: Kind): number => ANNOTATIONS_PER_KIND - shown[kind];

/**
 * An annotation while GitHub shows them (an eleventh of a kind would not be seen), else a line of
 * the log that says what it was. Returns whether it was an annotation.
 */
function annotate(kind: Kind, text: SafeText, title?: SafeText): boolean {
  if (shown[kind] >= ANNOTATIONS_PER_KIND) {
    core.info(`${kind[0]?.toUpperCase()}${kind.slice(1)}: ${guarded(text)}`);
    return false;
  }
  shown[kind]++;
  ANNOTATE[kind](guarded(text), title === undefined ? {} : { title: guarded(title) });
  return true;
}

export const warning = (text: SafeText, title?: SafeText): boolean => annotate('warning', text, title);
export const error = (text: SafeText, title?: SafeText): boolean => annotate('error', text, title);
export const notice = (text: SafeText, title?: SafeText): boolean => annotate('notice', text, title);

/** Fails the step with this reason: an error annotation (within the ten) and exit code 1. */
export function fail(text: SafeText): void {
  process.exitCode = core.ExitCode.Failure;
  annotate('error', text);
}

/** A new step counts its annotations from zero (tests run several steps in one process). */
export function beginStep(): void {
  Object.assign(shown, { error: 0, warning: 0, notice: 0 });
}

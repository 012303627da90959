import * as core from '@actions/core';
import type { SafeText } from './text.js';

/**
 * The one place that writes to the step's log: lines, annotations and the step's failure. Each
 * takes SafeText, so every foreign value in it went through `safe`.
 */

/** GitHub shows ten annotations of each kind per step; past them, the text goes to the log as a line. */
export const ANNOTATIONS_PER_KIND = 10;

type Kind = 'error' | 'warning' | 'notice';

const shown: Record<Kind, number> = { error: 0, warning: 0, notice: 0 };

/** A line the runner would read as a workflow command once its leading white space is trimmed. */
const COMMAND_START = /^\s*(::|##\[)/;

/**
 * The last guard: no line break (text made by `safe` and `line` has none; a cast could), and no line
 * that starts as a command (one that starts with a foreign value could).
 */
function guarded(text: SafeText): string {
  const single = /[\r\n]/.test(text) ? text.replace(/\r/g, '\\r').replace(/\n/g, '\\n') : text;
  return COMMAND_START.test(single)
    ? single.replace(/[:#]/, (char) => (char === ':' ? '\\u003a' : '\\u0023'))
    : single;
}

export function info(text: SafeText): void {
  core.info(guarded(text));
}

export function debug(text: SafeText): void {
  core.debug(guarded(text));
}

/** How many more annotations of `kind` GitHub will show for this step. */
export function annotationsLeft(kind: Kind): number {
  return ANNOTATIONS_PER_KIND - shown[kind];
}

/**
 * An annotation while GitHub shows them (an eleventh of a kind would not be seen), else a line of
 * the log that says what it was. Returns whether it was an annotation.
 */
function annotate(kind: Kind, text: SafeText, title?: SafeText): boolean {
  if (shown[kind] >= ANNOTATIONS_PER_KIND) {
    core.info(`${kind === 'error' ? 'Error' : kind === 'warning' ? 'Warning' : 'Notice'}: ${guarded(text)}`);
    return false;
  }
  shown[kind]++;
  const properties = title === undefined ? {} : { title: guarded(title) };
  if (kind === 'error') core.error(guarded(text), properties);
  else if (kind === 'warning') core.warning(guarded(text), properties);
  else core.notice(guarded(text), properties);
  return true;
}

export function warning(text: SafeText, title?: SafeText): boolean {
  return annotate('warning', text, title);
}

export function error(text: SafeText, title?: SafeText): boolean {
  return annotate('error', text, title);
}

export function notice(text: SafeText, title?: SafeText): boolean {
  return annotate('notice', text, title);
}

/** Fails the step with this reason: an error annotation (within the ten) and exit code 1. */
export function fail(text: SafeText): void {
  process.exitCode = core.ExitCode.Failure;
  annotate('error', text);
}

/** A new step counts its annotations from zero (tests run several steps in one process). */
export function beginStep(): void {
  shown.error = 0;
  shown.warning = 0;
  shown.notice = 0;
}

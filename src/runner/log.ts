import * as core from '@actions/core';
import type { SafeText } from './text.js';

/** GitHub shows ten annotations of each kind per step; past them, the text goes to the log as a line. */
const ANNOTATIONS_PER_KIND = 10;

const ANNOTATE = { error: core.error, warning: core.warning, notice: core.notice };
type Kind = keyof typeof ANNOTATE;
const shown: Record<Kind, number> = { error: 0, warning: 0, notice: 0 };

/** A line the runner would read as a workflow command once its leading white space is trimmed. */
const COMMAND_START = /^\s*(::|##\[)/;

/** The last guard: no line break (a cast to SafeText could bring one), no line that starts as a command. */
function guarded(text: SafeText): string {
  const single = text.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  return COMMAND_START.test(single)
    ? single.replace(/[:#]/, (char) => (char === ':' ? '\\u003a' : '\\u0023'))
    : single;
}

export const info = (text: SafeText): void => core.info(guarded(text));
export const debug = (text: SafeText): void => core.debug(guarded(text));
/** Folds what `fn` logs, as actions/checkout does. Groups do not nest: fold only what runs alone, no target's lines beside it. */
export const group = <T>(title: SafeText, fn: () => Promise<T>): Promise<T> => core.group(guarded(title), fn);

export const annotationsLeft = (kind: Kind): number => ANNOTATIONS_PER_KIND - shown[kind];

function annotate(kind: Kind, text: SafeText, title?: SafeText): void {
  if (shown[kind] >= ANNOTATIONS_PER_KIND) {
    core.info(`${kind[0]?.toUpperCase()}${kind.slice(1)}: ${guarded(text)}`);
    return;
  }
  shown[kind]++;
  ANNOTATE[kind](guarded(text), title === undefined ? {} : { title: guarded(title) });
}

export const warning = (text: SafeText, title?: SafeText): void => annotate('warning', text, title);
export const error = (text: SafeText, title?: SafeText): void => annotate('error', text, title);
export const notice = (text: SafeText, title?: SafeText): void => annotate('notice', text, title);

export function fail(text: SafeText): void {
  process.exitCode = core.ExitCode.Failure;
  annotate('error', text);
}

export const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Tests run several steps in one process. */
export function beginStep(): void {
  Object.assign(shown, { error: 0, warning: 0, notice: 0 });
}

import * as core from '@actions/core';
import { safe } from './text.js';

// An output or a state value from the service holds no line break or control character.
export { getInput, getState, isDebug } from '@actions/core';

export function setOutput(name: string, value: string | number): void {
  core.setOutput(name, safe(value, Number.POSITIVE_INFINITY));
}

/** One value per line, each as `setOutput` writes it (so none can add a line). */
export function setOutputLines(name: string, values: readonly string[]): void {
  core.setOutput(name, values.map((value) => safe(value, Number.POSITIVE_INFINITY)).join('\n'));
}

export function saveState(name: string, value: string): void {
  core.saveState(name, safe(value, Number.POSITIVE_INFINITY));
}

/** Appends HTML (escaped by its caller) to the job summary file. */
export async function appendSummary(html: string): Promise<void> {
  try {
    await core.summary.addRaw(html).write();
  } finally {
    core.summary.emptyBuffer();
  }
}

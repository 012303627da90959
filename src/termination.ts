import * as core from '@actions/core';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Calls `onSignal` when the runner cancels the job (SIGINT, then SIGTERM 7.5 s later). Installing
 * the listeners keeps Node from exiting at once, so the run can be cancelled and reported.
 * Returns a function that removes them.
 */
export function onTermination(onSignal: () => void): () => void {
  const listener = (signal: NodeJS.Signals) => {
    core.info(`Received ${signal}: the job is being cancelled.`);
    onSignal();
  };
  for (const signal of SIGNALS) process.on(signal, listener);
  return () => {
    for (const signal of SIGNALS) process.off(signal, listener);
  };
}

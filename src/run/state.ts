import { saveState } from '../runner/step.js';

/** Names of the values the main step leaves for the post step (`core.saveState`). */
export const STATE = {
  isPost: 'isPost',
  runId: 'runId',
  /** 'true' when this step started the run, waits for it, and may cancel it. */
  cancellable: 'cancellable',
  /** 'true' once the main step saw the run to a final status or dealt with its cancellation. */
  settled: 'settled',
  /** The pids of the cloudflared processes still running (`tunnel`), space-separated; empty once stopped. */
  tunnelPids: 'tunnelPids',
} as const;

export function saveRunState(state: { runId: string; cancellable: boolean; settled?: boolean }): void {
  saveState(STATE.runId, state.runId);
  saveState(STATE.cancellable, String(state.cancellable));
  saveState(STATE.settled, String(state.settled ?? false));
}

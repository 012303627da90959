import { saveState } from '../runner/step.js';

/** What the main step leaves for the post step. */
export const STATE = {
  isPost: 'isPost',
  runId: 'runId',
  cancellable: 'cancellable',
  /** 'true' once the main step saw the run to a final status or dealt with its cancellation. */
  settled: 'settled',
  /** Of the cloudflared processes still running, space-separated. */
  tunnelPids: 'tunnelPids',
} as const;

export function saveRunState(state: { runId: string; cancellable: boolean; settled?: boolean }): void {
  saveState(STATE.runId, state.runId);
  saveState(STATE.cancellable, String(state.cancellable));
  saveState(STATE.settled, String(state.settled ?? false));
}

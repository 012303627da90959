/** What the main step leaves for the post step. */
export const STATE = {
  isPost: 'isPost',
  runId: 'runId',
  cancellable: 'cancellable',
  /** 'true' once the main step saw the run to a final status or dealt with its cancellation. */
  settled: 'settled',
  /** Of the cloudflared processes still running, space-separated. */
  tunnelPids: 'tunnelPids',
  /** Of a check run created in progress and not yet completed. */
  checkRunId: 'checkRunId',
} as const;

export type StateName = (typeof STATE)[keyof typeof STATE];

/** A target's own entry, by its place in the targets' order. */
export function stateOf(name: StateName, index: number): string {
  return `${name}-${index}`;
}

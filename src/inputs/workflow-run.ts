/** What the runner tells of the workflow run: for the default note and the pull request comment. */
export interface WorkflowRun {
  eventName?: string;
  /** The event's payload, a JSON file. */
  eventPath?: string;
  apiUrl: string;
  serverUrl: string;
  repository?: string;
  /** The commit the workflow runs on (on a pull request, the merge commit). */
  sha?: string;
  runId?: string;
  runAttempt?: string;
}

export function readWorkflowRun(env: NodeJS.ProcessEnv): WorkflowRun {
  return {
    eventName: env.GITHUB_EVENT_NAME || undefined,
    eventPath: env.GITHUB_EVENT_PATH || undefined,
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    serverUrl: env.GITHUB_SERVER_URL || 'https://github.com',
    repository: env.GITHUB_REPOSITORY || undefined,
    sha: env.GITHUB_SHA || undefined,
    runId: env.GITHUB_RUN_ID || undefined,
    runAttempt: env.GITHUB_RUN_ATTEMPT || undefined,
  };
}

/** The workflow run's page, or of one attempt of it; undefined outside a runner. */
export function workflowRunUrl(
  workflow: WorkflowRun,
  options: { attempt?: boolean } = {},
): string | undefined {
  if (!workflow.repository || !workflow.runId) return undefined;
  const attempt = options.attempt && workflow.runAttempt ? `/attempts/${workflow.runAttempt}` : '';
  return `${workflow.serverUrl}/${workflow.repository}/actions/runs/${workflow.runId}${attempt}`;
}

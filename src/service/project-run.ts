import type { CallContext, ServiceClient } from './client.js';
import type { Poll, RunDriver, StartedRun } from './run-driver.js';
import {
  cancelAnswerSchema,
  FINAL_RUN_STATUSES,
  projectRunSchema,
  projectRunStartSchema,
  type RunStatus,
  usableDecorations,
} from './schemas.js';

/** The start body of a project run. */
interface ProjectRunRequest {
  branch?: string;
  environment?: string;
  playwrightProjectName?: string;
}

/** Project runs: start, poll the run (whose final answer carries the results) and cancel. */
export class ProjectRunDriver implements RunDriver {
  readonly kind = 'project run';
  readonly target: string;
  private readonly base: string;

  constructor(
    private readonly client: ServiceClient,
    private readonly projectId: string,
  ) {
    this.target = `project '${projectId}'`;
    this.base = `/v1/projects/${encodeURIComponent(projectId)}/runs`;
  }

  private notFound(runId: string): string {
    return `Run '${runId}' was not found in project '${this.projectId}'`;
  }

  async start(request: ProjectRunRequest, context: CallContext): Promise<StartedRun> {
    const notFound = `Project '${this.projectId}' was not found: check the 'project-id' input`;
    const name = `start a project run for ${this.target}`;
    const { runId } = await this.client.call(
      { name, path: this.base, body: request, rule: 'start', schema: projectRunStartSchema, notFound },
      context,
    );
    return { runId };
  }

  async poll(runId: string, context: CallContext): Promise<Poll> {
    const run = await this.client.call(
      {
        name: `get project run '${runId}' of ${this.target}`,
        path: `${this.base}/${encodeURIComponent(runId)}`,
        rule: 'read',
        schema: projectRunSchema,
        notFound: this.notFound(runId),
      },
      context,
    );
    if (!FINAL_RUN_STATUSES.has(run.status as RunStatus)) return { status: run.status };
    const usable = usableDecorations({ ...run, testCases: run.results?.testCases ?? [] });
    const branch = run.branchName ?? undefined;
    return { status: run.status, finished: { serviceStatus: run.status, branch, ...usable } };
  }

  async cancel(runId: string, context: CallContext): Promise<void> {
    await this.client.call(
      {
        name: `cancel project run '${runId}' of ${this.target}`,
        path: `${this.base}/cancel`,
        body: { where: { runId } },
        rule: 'cancel',
        schema: cancelAnswerSchema,
        notFound: this.notFound(runId),
      },
      context,
    );
  }
}

import type { CallContext, ServiceClient } from './client.js';
import type { FinishedRun, PollResult, RunDriver, StartedRun } from './driver.js';
import { isCancelAnswer, isProjectRun, isProjectRunStart } from './fast-check.js';
import type { ProjectRun } from './schemas.js';
import { FINAL_RUN_STATUSES } from './statuses.js';

export interface ProjectRunRequest {
  projectId: string;
  branch?: string;
  environment?: string;
  playwrightProjectName?: string;
}

/** Project runs: start, poll the run (whose final answer carries the results) and cancel. */
export class ProjectRunDriver implements RunDriver {
  readonly kind = 'project run';
  readonly target: string;
  private readonly base: string;
  private lastRun?: ProjectRun;

  constructor(
    private readonly client: ServiceClient,
    private readonly request: ProjectRunRequest,
  ) {
    this.target = `project '${request.projectId}'`;
    this.base = `/v1/projects/${encodeURIComponent(request.projectId)}/runs`;
  }

  async start(context: CallContext): Promise<StartedRun> {
    const { branch, environment, playwrightProjectName } = this.request;
    const { runId } = await this.client.call(
      {
        name: `start a project run for ${this.target}`,
        method: 'POST',
        path: this.base,
        body: { branch, environment, playwrightProjectName },
        rule: 'start',
        schema: (schemas) => schemas.projectRunStartSchema,
        accepts: isProjectRunStart,
        notFound: `Project '${this.request.projectId}' was not found: check the 'project-id' input`,
      },
      context,
    );
    return { runId };
  }

  async poll(runId: string, context: CallContext): Promise<PollResult> {
    this.lastRun = await this.client.call(
      {
        name: `get project run '${runId}' of ${this.target}`,
        method: 'GET',
        path: `${this.base}/${encodeURIComponent(runId)}`,
        rule: 'read',
        schema: (schemas) => schemas.projectRunSchema,
        accepts: isProjectRun,
        notFound: `Run '${runId}' was not found in project '${this.request.projectId}'`,
      },
      context,
    );
    return { status: this.lastRun.status, final: FINAL_RUN_STATUSES.has(this.lastRun.status) };
  }

  async finish(runId: string): Promise<FinishedRun> {
    const run = this.lastRun;
    if (!run) throw new Error(`project run '${runId}' was never polled`);
    return {
      serviceStatus: run.status,
      startedAt: run.startedAt ?? undefined,
      finishedAt: run.finishedAt ?? undefined,
      branch: run.branchName ?? undefined,
      testCases: (run.results?.testCases ?? []).map((testCase) => ({
        title: testCase.title,
        status: testCase.status,
        durationMs: testCase.durationMs ?? undefined,
      })),
    };
  }

  async cancel(runId: string, context: CallContext): Promise<void> {
    await this.client.call(
      {
        name: `cancel project run '${runId}' of ${this.target}`,
        method: 'POST',
        path: `${this.base}/cancel`,
        body: { where: { runId } },
        rule: 'cancel',
        schema: (schemas) => schemas.cancelResponseSchema,
        accepts: isCancelAnswer,
        notFound: `Run '${runId}' was not found in project '${this.request.projectId}'`,
      },
      context,
    );
  }
}

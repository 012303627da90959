import type { CallContext, Operation, ServiceClient } from './client.js';
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

  /** A request about one run: reading it, or cancelling it. */
  private ofRun<T>(
    runId: string,
    verb: 'get' | 'cancel',
    operation: Pick<Operation<T>, 'path' | 'body' | 'rule' | 'schema'>,
    context: CallContext,
  ): Promise<T> {
    const name = `${verb} project run '${runId}' of ${this.target}`;
    const notFound = `Run '${runId}' was not found in project '${this.projectId}'`;
    return this.client.call({ name, notFound, ...operation }, context);
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
    const path = `${this.base}/${encodeURIComponent(runId)}`;
    const run = await this.ofRun(runId, 'get', { path, rule: 'read', schema: projectRunSchema }, context);
    if (!FINAL_RUN_STATUSES.has(run.status as RunStatus)) return { status: run.status };
    const usable = usableDecorations({ ...run, testCases: run.results?.testCases ?? [] });
    const branch = run.branchName ?? undefined;
    return { status: run.status, finished: { serviceStatus: run.status, branch, ...usable } };
  }

  async cancel(runId: string, context: CallContext): Promise<void> {
    const body = { where: { runId } };
    const cancel = { path: `${this.base}/cancel`, body, rule: 'cancel' as const, schema: cancelAnswerSchema };
    await this.ofRun(runId, 'cancel', cancel, context);
  }
}

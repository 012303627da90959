import type * as z from 'zod/mini';
import { debug } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { CallContext, Operation, Schemas, ServiceClient } from './client.js';
import { isInProgress, isPlausibleDuration } from './interface.js';
import type { projectRunSchema, SuiteOptions } from './schemas.js';

export interface TestCaseResult {
  title: string;
  status?: string | null;
  durationMs?: number | null;
  /** Suite results: what the service's pages are named by. */
  testRunId?: string | null;
  testId?: string | null;
}

/** Suite runs also say their project, and the options the service applied. */
export interface StartedRun {
  runId: string;
  projectId?: string;
  testSuiteName?: string;
  appliedOptions?: Record<string, unknown>;
}

export interface FinishedRun {
  /** Suite runs: FINISHED. */
  serviceStatus: string;
  startedAt?: string;
  finishedAt?: string;
  branch?: string;
  projectId?: string;
  testSuiteName?: string;
  testCases: readonly TestCaseResult[];
}

/** What the step does with a run of either kind once it has its id. Each driver also starts one. */
export interface RunDriver {
  /** "project run" or "test suite run"; the target: "project 'p'" or "test suite 's'". */
  readonly kind: string;
  readonly target: string;
  /** The run's status, and the finished run once that status is final. */
  poll(runId: string, context: CallContext): Promise<{ status: string; finished?: FinishedRun }>;
  /** Absent where the interface has no cancel operation (suite runs). */
  cancel?(runId: string, context: CallContext): Promise<void>;
}

function isTimestamp(value: unknown): value is string {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
  return typeof value === 'string' && iso.test(value) && Number.isFinite(Date.parse(value));
}

/**
 * The decorations of a project run's answer, validated loosely so that the outcome the user waited
 * for is never lost over one: an unusable value becomes unknown, with one debug line per field.
 */
function usableDecorations(run: z.infer<ReturnType<typeof projectRunSchema>>) {
  const unusable = new Map<string, unknown>();
  const keep = <V>(field: string, value: unknown, usable: (value: unknown) => value is V) => {
    if (value === undefined || value === null || usable(value)) return value ?? undefined;
    if (!unusable.has(field)) unusable.set(field, value);
    return undefined;
  };
  const usable = {
    startedAt: keep('startedAt', run.startedAt, isTimestamp),
    finishedAt: keep('finishedAt', run.finishedAt, isTimestamp),
    testCases: (run.results?.testCases ?? []).map((each) => ({
      ...each,
      durationMs: keep('durationMs', each.durationMs, isPlausibleDuration),
    })),
  };
  for (const [field, value] of unusable) {
    debug(
      line`The service's ${field} of ${JSON.stringify(value) ?? String(value)} is not usable: shown as unknown.`,
    );
  }
  return usable;
}

/** Project runs: the final answer of a poll carries the results. */
export class ProjectRunDriver implements RunDriver {
  readonly kind = 'project run';
  readonly target: string;
  private readonly runs: string;

  constructor(
    private readonly client: ServiceClient,
    private readonly projectId: string,
  ) {
    this.target = `project '${projectId}'`;
    this.runs = `/v1/projects/${encodeURIComponent(projectId)}/runs`;
  }

  start(
    body: { branch?: string; environment?: string; playwrightProjectName?: string },
    context: CallContext,
  ): Promise<StartedRun> {
    const name = `start a project run for ${this.target}`;
    const notFound = `Project '${this.projectId}' was not found: check the 'project-id' input`;
    const schema = (s: Schemas) => s.projectRunStartSchema();
    return this.client.call({ name, path: this.runs, body, rule: 'start', schema, notFound }, context);
  }

  async poll(runId: string, context: CallContext) {
    const path = `${this.runs}/${encodeURIComponent(runId)}`;
    const operation = { path, rule: 'read' as const, schema: (s: Schemas) => s.projectRunSchema() };
    const run = await this.client.call({ ...this.aboutRun(runId, 'get'), ...operation }, context);
    if (isInProgress(run.status)) return { status: run.status };
    const usable = usableDecorations(run);
    const branch = run.branchName ?? undefined;
    return { status: run.status, finished: { serviceStatus: run.status, branch, ...usable } };
  }

  async cancel(runId: string, context: CallContext): Promise<void> {
    const path = `${this.runs}/cancel`;
    const body = { where: { runId } };
    const operation = { path, body, rule: 'cancel' as const, schema: (s: Schemas) => s.cancelAnswerSchema() };
    await this.client.call({ ...this.aboutRun(runId, 'cancel'), ...operation }, context);
  }

  private aboutRun(runId: string, verb: 'get' | 'cancel') {
    return {
      name: `${verb} project run '${runId}' of ${this.target}`,
      notFound: `Run '${runId}' was not found in project '${this.projectId}'`,
    };
  }
}

/** Test suite runs: the status is polled until FINISHED, then the result read once. */
export class SuiteRunDriver implements RunDriver {
  readonly kind = 'test suite run';
  readonly target: string;

  /** `testSuiteId` names the suite in messages; a run attached by its id alone has none. */
  constructor(
    private readonly client: ServiceClient,
    testSuiteId?: string,
  ) {
    this.target = testSuiteId ? `test suite '${testSuiteId}'` : 'test suite';
  }

  async start(testSuiteId: string, body: SuiteOptions, context: CallContext): Promise<StartedRun> {
    const name = `start a test suite run for ${this.target}`;
    const path = `/v1/testSuite/${encodeURIComponent(testSuiteId)}/run`;
    const notFound = `Test suite '${testSuiteId}' was not found: check the 'test-suite-id' input`;
    const schema = (s: Schemas) => s.suiteRunStartSchema();
    const started = await this.client.call({ name, path, body, rule: 'start', schema, notFound }, context);
    const { testSuiteRunId: runId, projectId, testSuiteName, options: appliedOptions } = started;
    return { runId, projectId, testSuiteName, appliedOptions };
  }

  async poll(runId: string, context: CallContext) {
    const read = <T>(what: 'status' | 'result', schema: Operation<T>['schema']) => {
      const name = `get the ${what} of test suite run '${runId}'`;
      const path = `/v1/testSuiteRun/${encodeURIComponent(runId)}/${what}`;
      const notFound = `Test suite run '${runId}' was not found`;
      return this.client.call({ name, path, rule: 'read', schema, notFound }, context);
    };
    const { status } = await read('status', (s) => s.suiteRunStatusSchema());
    if (status !== 'FINISHED') return { status };
    const { projectId, testSuiteName, results } = await read('result', (s) => s.suiteRunResultSchema());
    const testCases = results.map(({ testName, status, runId, testId }) => ({
      title: testName,
      status,
      testRunId: runId,
      testId,
    }));
    return { status, finished: { serviceStatus: status, projectId, testSuiteName, testCases } };
  }
}

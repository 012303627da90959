import type { z } from 'zod/mini';
import type { CallContext, ServiceClient } from './client.js';
import type { Poll, RunDriver, StartedRun } from './run-driver.js';
import {
  type SuiteOptions,
  suiteRunResultSchema,
  suiteRunStartSchema,
  suiteRunStatusSchema,
} from './schemas.js';

/** Test suite runs: start with options, poll the status until FINISHED, then read the result once. */
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

  async start(testSuiteId: string, options: SuiteOptions, context: CallContext): Promise<StartedRun> {
    const started = await this.client.call(
      {
        name: `start a test suite run for ${this.target}`,
        path: `/v1/testSuite/${encodeURIComponent(testSuiteId)}/run`,
        body: options,
        rule: 'start',
        schema: suiteRunStartSchema,
        notFound: `Test suite '${testSuiteId}' was not found: check the 'test-suite-id' input`,
      },
      context,
    );
    return {
      runId: started.testSuiteRunId,
      projectId: started.projectId,
      testSuiteName: started.testSuiteName,
      appliedOptions: started.options,
    };
  }

  /** A read of one of the run's resources: its status or its result. */
  private read<T>(
    runId: string,
    what: 'status' | 'result',
    schema: () => z.ZodMiniType<T>,
    context: CallContext,
  ): Promise<T> {
    const operation = {
      name: `get the ${what} of test suite run '${runId}'`,
      path: `/v1/testSuiteRun/${encodeURIComponent(runId)}/${what}`,
      rule: 'read' as const,
      schema,
      notFound: `Test suite run '${runId}' was not found`,
    };
    return this.client.call(operation, context);
  }

  async poll(runId: string, context: CallContext): Promise<Poll> {
    const { status } = await this.read(runId, 'status', suiteRunStatusSchema, context);
    if (status !== 'FINISHED') return { status };
    const result = await this.read(runId, 'result', suiteRunResultSchema, context);
    const testCases = result.results.map(({ testName, status, runId, testId }) => ({
      title: testName,
      status,
      testRunId: runId,
      testId,
    }));
    const { projectId, testSuiteName } = result;
    return { status, finished: { serviceStatus: status, projectId, testSuiteName, testCases } };
  }
}

import type { CallContext, ServiceClient } from './client.js';
import type { Poll, RunDriver, StartedRun } from './driver.js';
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

  private notFound(runId: string): string {
    return `Test suite run '${runId}' was not found`;
  }

  async start(testSuiteId: string, options: SuiteOptions, context: CallContext): Promise<StartedRun> {
    const started = await this.client.call(
      {
        name: `start a test suite run for ${this.target}`,
        method: 'POST',
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

  async poll(runId: string, context: CallContext): Promise<Poll> {
    const { status } = await this.client.call(
      {
        name: `get the status of test suite run '${runId}'`,
        method: 'GET',
        path: `/v1/testSuiteRun/${encodeURIComponent(runId)}/status`,
        rule: 'read',
        schema: suiteRunStatusSchema,
        notFound: this.notFound(runId),
      },
      context,
    );
    if (status !== 'FINISHED') return { status };
    const result = await this.client.call(
      {
        name: `get the result of test suite run '${runId}'`,
        method: 'GET',
        path: `/v1/testSuiteRun/${encodeURIComponent(runId)}/result`,
        rule: 'read',
        schema: suiteRunResultSchema,
        notFound: this.notFound(runId),
      },
      context,
    );
    return {
      status,
      finished: {
        serviceStatus: status,
        projectId: result.projectId,
        testSuiteName: result.testSuiteName,
        testCases: result.results.map(({ testName, status, runId, testId }) => ({
          title: testName,
          status,
          testRunId: runId,
          testId,
        })),
      },
    };
  }
}

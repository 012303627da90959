import { z } from 'zod';

/** Responses of the service. Extra fields are tolerated (z.object strips them); missing or mistyped ones are not. */

export const RUN_STATUSES = [
  'QUEUED',
  'RUNNING',
  'PASSED',
  'FAILED',
  'TIMEDOUT',
  'CANCELLED',
  'INTERRUPTED',
] as const;
export const FINAL_RUN_STATUSES: ReadonlySet<string> = new Set([
  'PASSED',
  'FAILED',
  'TIMEDOUT',
  'CANCELLED',
  'INTERRUPTED',
]);

/** The interface's test case statuses, plus ERROR and CANCELLED, which the contract's table also knows. */
const TEST_CASE_STATUSES = [
  'QUEUED',
  'RUNNING',
  'PASSED',
  'FAILED',
  'TIMEDOUT',
  'SKIPPED',
  'INTERRUPTED',
  'FLAKY',
  'ERROR',
  'CANCELLED',
] as const;

const timestamp = z.string().nullish();

export const projectRunStartSchema = z.object({ runId: z.string().min(1) });

export const projectRunSchema = z.object({
  status: z.enum(RUN_STATUSES),
  startedAt: timestamp,
  finishedAt: timestamp,
  branchName: z.string().nullish(),
  results: z
    .object({
      testCases: z.array(
        z.object({
          title: z.string(),
          status: z.enum(TEST_CASE_STATUSES),
          durationMs: z.number().nonnegative().nullish(),
        }),
      ),
    })
    .nullish(),
});
export type ProjectRun = z.infer<typeof projectRunSchema>;

export const suiteRunStartSchema = z.object({
  projectId: z.string(),
  testSuiteRunId: z.string().min(1),
  testSuiteName: z.string(),
  options: z.record(z.string(), z.unknown()),
});

export const suiteRunStatusSchema = z.object({ status: z.enum(['RUNNING', 'FINISHED']) });

export const suiteRunResultSchema = z.object({
  projectId: z.string().optional(),
  testSuiteRunId: z.string().optional(),
  testSuiteName: z.string().optional(),
  results: z.array(
    z.object({
      runId: z.string().nullish(),
      testId: z.string().nullish(),
      testName: z.string(),
      status: z.enum(TEST_CASE_STATUSES).nullish(),
    }),
  ),
});

export const errorBodySchema = z.object({ error: z.string() });

import { z } from 'zod';
import { RUN_STATUSES, TEST_CASE_STATUSES } from './statuses.js';

/**
 * Responses of the service. Extra fields are tolerated (z.object strips them); missing or mistyped
 * ones are not. Loaded with a dynamic import by the client, once a request is under way.
 */

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

/** The interface does not say what a cancel answers: anything, or nothing. */
export const cancelResponseSchema = z.unknown();

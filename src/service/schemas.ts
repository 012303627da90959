import { z } from 'zod';
import { isRecord } from './is-record.js';
import { RUN_STATUSES, TEST_CASE_STATUSES } from './statuses.js';
import { describeType } from './validation.js';

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

const count = z.number().int().min(0);
const milliseconds = z.number().min(0);

/** One entry of `variableOverrides`: plain, wrapped, or structured. */
export type VariableOverride = string | { value: string | Record<string, unknown>; sensitive?: boolean };

const OVERRIDE_KEYS = ['value', 'sensitive'];
export const OVERRIDE_FORMS =
  'a string, {value: string, sensitive?: boolean} or {value: {...}, sensitive?: boolean}';

/**
 * What is wrong with an override, path relative to it. Checked by hand rather than with a zod
 * union, whose errors name no field; and nothing here echoes a value, which may be a secret.
 */
function overrideProblems(override: unknown): { path: string[]; message: string }[] {
  if (typeof override === 'string') return [];
  if (!isRecord(override)) {
    return [{ path: [], message: `must be ${OVERRIDE_FORMS}; got ${describeType(override)}` }];
  }
  const problems: { path: string[]; message: string }[] = [];
  const unknown = Object.keys(override).filter((key) => !OVERRIDE_KEYS.includes(key));
  if (unknown.length > 0) {
    problems.push({
      path: [],
      message: `has unknown key ${unknown.map((key) => `'${key}'`).join(', ')}; allowed keys: ${OVERRIDE_KEYS.join(', ')}`,
    });
  }
  if (!('value' in override)) {
    problems.push({ path: ['value'], message: 'is missing: it must be a string or an object' });
  } else if (typeof override.value !== 'string' && !isRecord(override.value)) {
    problems.push({
      path: ['value'],
      message: `must be a string or an object; got ${describeType(override.value)}`,
    });
  }
  if ('sensitive' in override && typeof override.sensitive !== 'boolean') {
    problems.push({
      path: ['sensitive'],
      message: `must be true or false; got ${describeType(override.sensitive)}`,
    });
  }
  return problems;
}

const variableOverride = z.custom<VariableOverride>().superRefine((override, context) => {
  for (const problem of overrideProblems(override)) {
    context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  }
});

/** The start-suite-run body of the interface. */
export const suiteOptionsSchema = z.strictObject({
  numberOfWorkers: z.number().int().min(0).max(128).optional(),
  retries: count.optional(),
  repeats: count.optional(),
  operationDelayMs: milliseconds.optional(),
  testTimeoutMs: milliseconds.optional(),
  testMatch: z.strictObject({ glob: z.string().optional(), regex: z.string().optional() }).optional(),
  setupTestId: z.string().optional(),
  teardownTestId: z.string().optional(),
  beforeEachTestId: z.string().optional(),
  afterEachTestId: z.string().optional(),
  notificationProfile: z.enum(['PROJECT', 'SUITE', 'DISABLED']).optional(),
  environment: z.enum(['PRODUCTION', 'STAGING', 'DEVELOPMENT']).optional(),
  variableOverrides: z.record(z.string(), variableOverride).optional(),
  metadata: z
    .strictObject({
      git: z.strictObject({ branch: z.string().optional() }).optional(),
      note: z.string().optional(),
    })
    .optional(),
  urlReplacements: z.array(z.strictObject({ original: z.string(), replacement: z.string() })).optional(),
});

export type SuiteOptions = z.infer<typeof suiteOptionsSchema>;

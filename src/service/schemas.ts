import * as z from 'zod/mini';
import { idProblem, RUN_STATUSES, SUITE_ENVIRONMENTS, TEST_CASE_STATUSES } from './interface.js';
import { type ExplainOptions, explainIssues } from './validation.js';

/** Built on first use: all the schemas take about 4 ms to build; a project run needs none of the suite's. */
export function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
}

const id = () =>
  z.string().check(
    z.refine((value) => idProblem(value) === undefined, {
      error: (issue) => `must be an id (${idProblem(issue.input as string)})`,
    }),
  );

const testCaseStatus = () => z.enum(TEST_CASE_STATUSES);

export const projectRunStartSchema = once(() => z.object({ runId: id() }));

export const projectRunSchema = once(() =>
  z.object({
    status: z.enum(RUN_STATUSES),
    startedAt: z.optional(z.unknown()),
    finishedAt: z.optional(z.unknown()),
    branchName: z.nullish(z.string()),
    results: z.nullish(
      z.object({
        testCases: z.array(
          z.object({
            title: z.string(),
            status: testCaseStatus(),
            durationMs: z.optional(z.unknown()),
          }),
        ),
      }),
    ),
  }),
);

/** The interface does not say what a cancel answers. */
export const cancelAnswerSchema = once(() => z.unknown());

export const suiteRunStartSchema = once(() =>
  z.object({
    projectId: id(),
    testSuiteRunId: id(),
    testSuiteName: z.string(),
    options: z.record(z.string(), z.unknown()),
  }),
);

export const suiteRunStatusSchema = once(() => z.object({ status: z.enum(['RUNNING', 'FINISHED']) }));

export const suiteRunResultSchema = once(() =>
  z.object({
    projectId: z.optional(id()),
    testSuiteName: z.optional(z.string()),
    results: z.array(
      z.object({
        runId: z.nullish(id()),
        testId: z.nullish(id()),
        testName: z.string(),
        status: z.nullish(testCaseStatus()),
      }),
    ),
  }),
);

const count = () => z.int().check(z.minimum(0));
const milliseconds = () => z.number().check(z.minimum(0), z.describe('milliseconds'));
const testId = () => z.string().check(z.describe('a test id'));

const variableOverride = () =>
  z.union([
    z.string(),
    z.strictObject({
      value: z.union([z.string(), z.record(z.string(), z.unknown())]),
      sensitive: z.optional(z.boolean()),
    }),
  ]);

/** The start-suite-run body, which the `options` input is validated against. */
export const suiteOptionsSchema = once(() =>
  z.strictObject({
    numberOfWorkers: z.optional(z.int().check(z.minimum(0), z.maximum(128))),
    retries: z.optional(count()),
    repeats: z.optional(count()),
    operationDelayMs: z.optional(milliseconds()),
    testTimeoutMs: z.optional(milliseconds()),
    testMatch: z.optional(z.strictObject({ glob: z.optional(z.string()), regex: z.optional(z.string()) })),
    setupTestId: z.optional(testId()),
    teardownTestId: z.optional(testId()),
    beforeEachTestId: z.optional(testId()),
    afterEachTestId: z.optional(testId()),
    notificationProfile: z.optional(z.enum(['PROJECT', 'SUITE', 'DISABLED'])),
    environment: z.optional(z.enum(SUITE_ENVIRONMENTS)),
    variableOverrides: z.optional(z.record(z.string(), variableOverride())),
    metadata: z.optional(
      z.strictObject({
        git: z.optional(z.strictObject({ branch: z.optional(z.string()) })),
        note: z.optional(z.string()),
      }),
    ),
    urlReplacements: z.optional(z.array(z.strictObject({ original: z.string(), replacement: z.string() }))),
  }),
);

export type SuiteOptions = z.infer<ReturnType<typeof suiteOptionsSchema>>;

/**
 * `value` as `schema` says, or one sentence per problem: where, what it must be, and what was given.
 * The words load only for a value that does not match (their JSON Schema code is most of zod's size).
 */
export async function validate<T>(
  schema: z.ZodMiniType<T>,
  value: unknown,
  options: ExplainOptions,
): Promise<{ data: T } | { problems: string }> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return { data: parsed.data };
  const { expectedIn } = await import('./expectation.js');
  return { problems: explainIssues(parsed.error.issues, expectedIn(schema), options) };
}

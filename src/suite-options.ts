import { z } from 'zod';
import { InputError, shown } from './input-error.js';
import { registerSecret } from './secrets.js';
import { describeIssue, describeValue, issuePath } from './zod-issue.js';

const count = z.number().int().min(0);
const milliseconds = z.number().min(0);

const variableOverride = z.union([
  z.string(),
  z.strictObject({ value: z.string(), sensitive: z.boolean().optional() }),
  z.strictObject({ value: z.record(z.string(), z.unknown()), sensitive: z.boolean().optional() }),
]);

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

export interface SuiteOptionInputs {
  environment?: string;
  branch?: string;
  /** Whether the branch came from the `branch` input rather than from the runner's variables. */
  branchExplicit: boolean;
  env: NodeJS.ProcessEnv;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every string inside a value, for masking a structured sensitive override. */
function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (isRecord(value)) return Object.values(value).flatMap(stringLeaves);
  return [];
}

/** Masks the value of every override marked sensitive, before anything could print it. */
export function maskSensitiveOverrides(options: unknown): void {
  if (!isRecord(options) || !isRecord(options.variableOverrides)) return;
  for (const override of Object.values(options.variableOverrides)) {
    if (isRecord(override) && override.sensitive === true) {
      for (const secret of stringLeaves(override.value)) registerSecret(secret);
    }
  }
}

/** Replaces the values of sensitive overrides, for the summary and the results file. */
export function hideSensitiveValues(options: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(options.variableOverrides)) return options;
  const overrides: Record<string, unknown> = {};
  for (const [name, override] of Object.entries(options.variableOverrides)) {
    overrides[name] =
      isRecord(override) && override.sensitive === true ? { ...override, value: '***' } : override;
  }
  return { ...options, variableOverrides: overrides };
}

/** The keys the schema allows for the object at a path of an issue. */
function allowedKeys(issuePathKeys: readonly PropertyKey[]): string[] {
  let schema: z.ZodType = suiteOptionsSchema;
  for (const key of issuePathKeys) {
    while (schema instanceof z.ZodOptional) schema = schema.unwrap() as z.ZodType;
    if (schema instanceof z.ZodObject) schema = schema.shape[String(key)];
    else if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
  }
  while (schema instanceof z.ZodOptional) schema = schema.unwrap() as z.ZodType;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function formatIssue(issue: z.core.$ZodIssue): string {
  const where = issuePath('options', issue.path);
  if (issue.code === 'unrecognized_keys') {
    return `${describeIssue(issue, where)}; allowed keys: ${allowedKeys(issue.path).join(', ')}.`;
  }
  if (issue.code === 'invalid_union') {
    return `${where} must be a string, {value: string, sensitive?: boolean} or {value: {...}, sensitive?: boolean}.`;
  }
  // Nothing under variableOverrides is echoed: a value there may be a secret.
  return `${describeIssue(issue, where, issue.path[0] === 'variableOverrides')}.`;
}

async function parseText(text: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch {
    // not JSON: YAML is a superset, so parse it as YAML
  }
  const { parse } = await import('yaml');
  try {
    return parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new InputError(`Input 'options' must be a JSON or YAML object; it does not parse: ${reason}`);
  }
}

/** Parses the `options` input and merges in the `environment` and `branch` inputs and the default note. */
export async function buildSuiteOptions(text: string, inputs: SuiteOptionInputs): Promise<SuiteOptions> {
  const raw = text === '' ? {} : await parseText(text);
  maskSensitiveOverrides(raw);
  if (!isRecord(raw)) {
    throw new InputError(`Input 'options' must be a JSON or YAML object; got ${describeValue(raw)}.`);
  }
  const parsed = suiteOptionsSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    throw new InputError(`Input 'options' is invalid: ${parsed.error.issues.map(formatIssue).join(' ')}`);
  }
  const options = parsed.data;

  if (inputs.environment && options.environment && inputs.environment !== options.environment) {
    throw new InputError(
      `Input 'environment' (${inputs.environment}) and options.environment (${options.environment}) disagree; set one of them.`,
    );
  }
  const optionsBranch = options.metadata?.git?.branch;
  if (
    inputs.branchExplicit &&
    inputs.branch &&
    optionsBranch !== undefined &&
    optionsBranch !== inputs.branch
  ) {
    throw new InputError(
      `Input 'branch' (${shown(inputs.branch)}) and options.metadata.git.branch (${shown(optionsBranch)}) disagree; set one of them.`,
    );
  }
  const branch = optionsBranch ?? inputs.branch;
  const note = options.metadata?.note ?? defaultNote(inputs.env);
  const metadata = {
    ...(branch !== undefined ? { git: { ...options.metadata?.git, branch } } : {}),
    ...(note !== undefined ? { note } : {}),
  };
  return {
    ...options,
    ...(inputs.environment || options.environment
      ? { environment: options.environment ?? inputs.environment }
      : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  } as SuiteOptions;
}

/** A note that lets a run be traced back to its workflow run from the service. */
export function defaultNote(env: NodeJS.ProcessEnv): string | undefined {
  const repository = env.GITHUB_REPOSITORY;
  if (!repository) return undefined;
  const sha = env.GITHUB_SHA ? `@${env.GITHUB_SHA.slice(0, 12)}` : '';
  const server = env.GITHUB_SERVER_URL || 'https://github.com';
  const runUrl = env.GITHUB_RUN_ID ? ` ${server}/${repository}/actions/runs/${env.GITHUB_RUN_ID}` : '';
  return `GitHub Actions: ${repository}${sha}${runUrl}`;
}

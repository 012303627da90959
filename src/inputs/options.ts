import { z } from 'zod';
import { isRecord } from '../service/is-record.js';
import { OVERRIDE_FORMS, type SuiteOptions, suiteOptionsSchema } from '../service/schemas.js';
import { describeType, describeValue, issuePath, shown } from '../service/validation.js';
import { InputError } from './input-error.js';
import { maskSensitiveOverrides } from './sensitive-overrides.js';

export interface SuiteOptionInputs {
  environment?: string;
  branch?: string;
  /** Whether the branch came from the `branch` input rather than from the runner's variables. */
  branchExplicit: boolean;
  env: NodeJS.ProcessEnv;
}

/** What each field must be, in words, by path (list indices as `[]`). */
const EXPECTATIONS: Record<string, string> = {
  numberOfWorkers: 'an integer from 0 to 128',
  retries: 'an integer, 0 or more',
  repeats: 'an integer, 0 or more',
  operationDelayMs: 'a number of milliseconds, 0 or more',
  testTimeoutMs: 'a number of milliseconds, 0 or more',
  testMatch: 'an object {glob?: string, regex?: string}',
  'testMatch.glob': 'a string',
  'testMatch.regex': 'a string',
  setupTestId: 'a string (a test id)',
  teardownTestId: 'a string (a test id)',
  beforeEachTestId: 'a string (a test id)',
  afterEachTestId: 'a string (a test id)',
  notificationProfile: 'one of PROJECT, SUITE, DISABLED',
  environment: 'one of PRODUCTION, STAGING, DEVELOPMENT',
  variableOverrides: `an object that maps each variable name to ${OVERRIDE_FORMS}`,
  metadata: 'an object {git?: {branch?: string}, note?: string}',
  'metadata.git': 'an object {branch?: string}',
  'metadata.git.branch': 'a string',
  'metadata.note': 'a string',
  urlReplacements: 'a list of {original: string, replacement: string}',
  'urlReplacements[]': 'an object {original: string, replacement: string}',
  'urlReplacements[].original': 'a string',
  'urlReplacements[].replacement': 'a string',
};

const NUMBER_FIELDS = new Set(['numberOfWorkers', 'retries', 'repeats', 'operationDelayMs', 'testTimeoutMs']);

/** At most this many problems are listed: a pasted blob could have thousands. */
const MAX_ISSUES = 5;

/** `urlReplacements[].original` for the path `['urlReplacements', 0, 'original']`. */
function schemaKey(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? '[]' : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
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

/** `'number_of_workers'` or `'NumberOfWorkers'` -> `'numberOfWorkers'` */
function closeKey(key: string, allowed: readonly string[]): string | undefined {
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return allowed.find((candidate) => squash(candidate) === squash(key));
}

/** One problem as a sentence: the path, what it must be, and (outside variableOverrides) what was given. */
function formatIssue(issue: z.core.$ZodIssue): string {
  const where = issuePath('options', issue.path);
  if (issue.code === 'unrecognized_keys') {
    const allowed = allowedKeys(issue.path);
    const keys = issue.keys
      .map((key) => {
        const close = closeKey(key, allowed);
        return close === undefined ? `'${key}'` : `'${key}' (did you mean '${close}'?)`;
      })
      .join(', ');
    return `${where} has unknown key ${keys}; allowed keys: ${allowed.join(', ')}.`;
  }
  if (issue.code === 'custom') return `${where} ${issue.message}.`;
  const key = schemaKey(issue.path);
  const expected = EXPECTATIONS[key] ?? issue.message;
  // Nothing under variableOverrides is echoed, only its type: a value there may be a secret.
  if (issue.path[0] === 'variableOverrides')
    return `${where} must be ${expected}; got ${describeType(issue.input)}.`;
  if (issue.input === undefined) return `${where} is missing: it must be ${expected}.`;
  const unquote =
    NUMBER_FIELDS.has(key) && typeof issue.input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(issue.input)
      ? ' (write a number without quotes: no string is read as a number)'
      : '';
  return `${where} must be ${expected}; got ${describeValue(issue.input)}${unquote}.`;
}

/** The first line of a YAML error, without the colon that introduces its excerpt. */
function yamlReason(error: unknown): string {
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return first.replace(/[:.\s]+$/, '');
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
    throw new InputError(
      `Input 'options' must be a JSON or YAML object; it does not parse: ${yamlReason(error)}.`,
    );
  }
}

/** Parses the `options` input and merges in the `environment` and `branch` inputs and the default note. */
export async function buildSuiteOptions(text: string, inputs: SuiteOptionInputs): Promise<SuiteOptions> {
  const raw = text === '' ? {} : await parseText(text);
  maskSensitiveOverrides(raw);
  if (!isRecord(raw)) {
    const given = raw === null || raw === undefined ? 'null (an empty document)' : describeValue(raw);
    throw new InputError(`Input 'options' must be a JSON or YAML object; got ${given}.`);
  }
  const parsed = suiteOptionsSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    const { issues } = parsed.error;
    const listed = issues.slice(0, MAX_ISSUES).map(formatIssue);
    if (issues.length > MAX_ISSUES) listed.push(`(and ${issues.length - MAX_ISSUES} more problems)`);
    throw new InputError(`Input 'options' is invalid: ${listed.join(' ')}`);
  }
  const options = parsed.data;

  if (inputs.environment && options.environment && inputs.environment !== options.environment) {
    throw new InputError(
      `Input 'environment' (${inputs.environment}) and options.environment (${options.environment}) disagree; set one of them.`,
    );
  }
  const optionsBranch = options.metadata?.git?.branch;
  // An explicit branch input, 'none' included, must agree with the options; a computed one yields.
  if (inputs.branchExplicit && optionsBranch !== undefined && optionsBranch !== inputs.branch) {
    const input = inputs.branch === undefined ? "'none' (send no branch)" : shown(inputs.branch);
    throw new InputError(
      `Input 'branch' (${input}) and options.metadata.git.branch (${shown(optionsBranch)}) disagree; set one of them.`,
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

import { type SuiteOptions, suiteOptionsSchema } from '../service/schemas.js';
import { describeValue, explainIssues, issuePath, shown } from '../service/validation.js';
import { InputError } from './input-error.js';
import { isRecord } from './is-record.js';
import { maskSensitiveOverrides } from './sensitive-overrides.js';
import { readWorkflowRun, workflowRunUrl } from './workflow-run.js';

export interface SuiteOptionInputs {
  environment?: string;
  branch?: string;
  /** Whether the branch came from the `branch` input rather than from the runner's variables. */
  branchExplicit: boolean;
  env: NodeJS.ProcessEnv;
}

/** At most this many problems are listed: a pasted blob could have thousands. */
const MAX_ISSUES = 5;

async function parseText(text: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch {
    // not JSON: YAML is a superset, so parse it as YAML
  }
  // Loaded only for YAML: JSON options and project runs never pay for it. The core schema reads
  // YAML 1.2's plain types only: no dates or binary, which the options have no place for.
  const yaml = await import(/* webpackMode: "eager" */ 'js-yaml');
  try {
    return yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch (error) {
    const reason =
      error instanceof yaml.YAMLException
        ? `${error.reason} at line ${error.mark.line + 1}, column ${error.mark.column + 1}`
        : String(error);
    throw new InputError(`Input 'options' must be a JSON or YAML object; it does not parse: ${reason}.`);
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
  const schema = suiteOptionsSchema();
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    const problems = explainIssues(schema, parsed.error.issues, {
      where: (path) => issuePath('options', path),
      // Nothing under variableOverrides is shown, only its kind: a value there may be a secret.
      showsInput: (path) => path[0] !== 'variableOverrides',
      max: MAX_ISSUES,
    });
    throw new InputError(`Input 'options' is invalid: ${problems.join(' ')}`);
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
  const workflow = readWorkflowRun(env);
  if (!workflow.repository) return undefined;
  const sha = workflow.sha ? `@${workflow.sha.slice(0, 12)}` : '';
  const url = workflowRunUrl(workflow);
  return `GitHub Actions: ${workflow.repository}${sha}${url ? ` ${url}` : ''}`;
}

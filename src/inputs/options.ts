import type { SuiteOptions } from '../service/schemas.js';
import { issuePath, shown } from '../service/validation.js';
import { InputError } from './input-error.js';
import { parseOptionsText } from './options-text.js';
import { maskSensitiveOverrides } from './sensitive-overrides.js';
import { commitTested, type PullRequestRef, type WorkflowRun, workflowRunUrl } from './workflow-run.js';

export interface SuiteOptionInputs {
  environment?: string;
  branch?: string;
  /** From the `branch` input rather than from the runner's variables. */
  branchExplicit: boolean;
  workflow: WorkflowRun;
}

async function parseSuiteOptions(text: string): Promise<SuiteOptions> {
  if (text === '') return {};
  const raw = await parseOptionsText(text);
  maskSensitiveOverrides(raw);
  const { suiteOptionsSchema, validate } = await import('../service/schemas.js');
  const parsed = await validate(suiteOptionsSchema(), raw, {
    where: (path) => issuePath('options', path),
    // Nothing under variableOverrides is shown, only its kind: a value there may be a secret.
    showsInput: (path) => path[0] !== 'variableOverrides',
    // At most five problems are listed: a pasted blob could have thousands.
    max: 5,
  });
  if (!('data' in parsed)) throw new InputError(`Input 'options' is invalid: ${parsed.problems}`);
  // zod's record builds its output by assignment, which drops a name such as '__proto__': the
  // overrides the user wrote, now validated, are sent as written.
  const { variableOverrides } = raw as Pick<SuiteOptions, 'variableOverrides'>;
  return variableOverrides === undefined ? parsed.data : { ...parsed.data, variableOverrides };
}

export async function buildSuiteOptions(text: string, inputs: SuiteOptionInputs): Promise<SuiteOptions> {
  const options = await parseSuiteOptions(text);
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
  const note = options.metadata?.note ?? defaultNote(inputs.workflow);
  const environment = options.environment ?? inputs.environment;
  const metadata = {
    ...(branch !== undefined ? { git: { branch } } : {}),
    ...(note !== undefined ? { note } : {}),
  };
  return {
    ...options,
    ...(environment ? { environment } : {}),
    ...(branch !== undefined || note !== undefined ? { metadata } : {}),
  } as SuiteOptions;
}

/** The commit tested: on a pull request its head, GITHUB_SHA being a temporary merge commit on no branch. */
export function defaultNote(workflow: WorkflowRun, found?: PullRequestRef): string | undefined {
  if (!workflow.repository) return undefined;
  const pullRequest = found ?? workflow.pullRequest;
  const commit = commitTested(workflow);
  const sha = commit ? `@${commit.slice(0, 12)}` : '';
  const number = pullRequest ? ` (pull request #${pullRequest.number})` : '';
  const url = workflowRunUrl(workflow);
  return `GitHub Actions: ${workflow.repository}${sha}${number}${url ? ` ${url}` : ''}`;
}

import * as path from 'node:path';
import { registerSecret } from '../runner/secrets.js';
import { getInput } from '../runner/step.js';
import { pieces } from '../runner/text.js';
import { idProblem, SUITE_ENVIRONMENTS } from '../service/interface.js';
import { isHttpsOrLocal, isLoopbackHost } from '../service/loopback.js';
import type { SuiteOptions } from '../service/schemas.js';
import { issuePath, shown } from '../service/validation.js';
import { parseTunnelOrigins } from '../tunnel/origin.js';
import { untunnelledLoopbackUrls } from '../tunnel/rewrite.js';
import { InputError } from './input-error.js';
import { buildSuiteOptions, type SuiteOptionInputs } from './options.js';
import { parseQuarantine, type QuarantineEntry } from './quarantine.js';
import { parseUrlTemplate, RUN_PLACEHOLDERS, TEST_PLACEHOLDERS, type UrlTemplate } from './url-template.js';
import { readWorkflowRun, type WorkflowRun } from './workflow-run.js';

export type Mode = 'project' | 'suite';

/** What the step runs, and all that only one kind of run has. */
type Target =
  | { kind: 'project'; projectId: string; runId?: string; playwrightProjectName?: string }
  | { kind: 'suite-start'; testSuiteId: string; options: SuiteOptions; tunnelOrigins: string[] }
  /** The suite's id, if given, only names the run that `runId` attaches to. */
  | { kind: 'suite-attach'; testSuiteId?: string; runId: string };

export function modeOf(target: Pick<Target, 'kind'>): Mode {
  return target.kind === 'project' ? 'project' : 'suite';
}

export type InputReader = (name: string) => string;

/** What every target of the step shares: the inputs, read once, but the targets' own. */
export interface SharedSettings {
  apiKey: string;
  /** Without a trailing slash; may carry a path prefix. */
  baseUrl: string;
  wait: boolean;
  pollIntervalMs: number;
  timeoutMs: number;
  requestTimeoutMs: number;
  cancelOnAbort: boolean;
  failOnFlaky: boolean;
  failOn: 'any' | 'new';
  summary: boolean;
  junitPath?: string;
  resultsDir?: string;
  workflow: WorkflowRun;
  prComment: 'off' | 'always' | 'on-failure';
  githubToken?: string;
  dashboardUrl?: UrlTemplate;
  dashboardTestUrl?: UrlTemplate;
  pullRequestNumber?: number;
  checkRun: 'auto' | 'true' | 'false';
  /** How many of the base branch's results the history keeps; 0: none. */
  history: number;
  /** A title pattern, `*` a wildcard, whose failures never fail the step, and its last day. */
  quarantine: QuarantineEntry[];
  /** When a test case is slower than on the base branch; undefined: `slowdown: off`. */
  slowdown?: Slowdown;
}

/**
 * A test case that ended in d, typically t on the base branch, is slower when d ≥ factor × t and
 * d − t ≥ minMs: the factor alone would flag a 100 ms test that took 200 ms.
 */
export interface Slowdown {
  /** At least 1. */
  factor: number;
  /** At least 0. */
  minMs: number;
}

/** One target's own: what it runs, and the branch and environment it tells the service. */
export interface TargetSettings {
  target: Target;
  branch?: string;
  environment?: string;
  checkName?: string;
}

/** Every input, read once: in the targets' order. */
export interface StepSettings extends SharedSettings {
  targets: TargetSettings[];
}

/** One target's view of the step: what runs one target reads. */
export type Settings = SharedSettings & TargetSettings;

/** Used when an input is empty or, outside a runner, absent; a test holds them equal to action.yml's. */
export const INPUT_DEFAULTS: Readonly<Record<string, string>> = {
  wait: 'true',
  'poll-interval': '5s',
  timeout: '1h',
  'request-timeout': '30s',
  'cancel-on-abort': 'true',
  'fail-on-flaky': 'false',
  'fail-on': 'any',
  summary: 'true',
  'pr-comment': 'off',
  'check-run': 'auto',
  history: '20',
  slowdown: '1.5x 5s',
};

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Node's timers hold at most 2^31 - 1 ms (24.8 days) and fire at once past it. */
const MAX_DURATION_MS = 24 * 24 * UNIT_MS.h;

/** The action's duration syntax: `500ms`, `10s`, `2m`, `1h`, or a plain number of seconds; NaN otherwise. */
function durationMs(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(text);
  return match ? Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 's']) : Number.NaN;
}

function parseDuration(input: InputReader, name: string): number {
  const value = input(name);
  const ms = durationMs(value);
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new InputError(
      `Input '${name}' must be a positive duration such as 500ms, 10s, 2m or 1h (a plain number is seconds); got ${shown(value)}.`,
    );
  }
  if (ms > MAX_DURATION_MS) {
    throw new InputError(
      `Input '${name}' must be at most 24 days (${MAX_DURATION_MS / 3_600_000}h): Node's timers hold at most 2^31 - 1 ms; got ${shown(value)}.`,
    );
  }
  return ms;
}

/** `<factor>x <duration>` (both required) or `off`. The duration is a threshold, not a timer: `0s` is allowed. */
function parseSlowdown(value: string): Slowdown | undefined {
  if (value.toLowerCase() === 'off') return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*x\s+(\S.*)$/i.exec(value);
  const factor = Number(match?.[1]);
  const minMs = durationMs(match?.[2] ?? '');
  if (factor >= 1 && Number.isFinite(factor) && Number.isFinite(minMs)) return { factor, minMs };
  throw new InputError(
    `Input 'slowdown' must be a factor of at least 1 and a duration, such as 1.5x 5s (at least 1.5 times the typical duration and at least 5s longer), or off; got ${shown(value)}.`,
  );
}

function parseChoice<T extends string>(
  input: InputReader,
  name: string,
  choices: readonly T[],
  described = `one of ${choices.join(', ')}`,
): T {
  const value = input(name);
  const choice = choices.find((each) => each.toLowerCase() === value.toLowerCase());
  if (choice !== undefined) return choice;
  throw new InputError(`Input '${name}' must be ${described}; got ${shown(value)}.`);
}

const parseBoolean = (input: InputReader, name: string): boolean =>
  parseChoice(input, name, ['true', 'false'], 'true or false') === 'true';

/** Visible ASCII: what an Authorization header carries as it is. */
const HEADER_SAFE = /^[\x21-\x7e]*$/;

// Masked before anything could print it. A character no header can carry is an input error, never a
// network error, and only its position is shown.
function readSecret(input: InputReader, name: string): string {
  const value = input(name);
  registerSecret(value);
  if (HEADER_SAFE.test(value)) return value;
  const position = [...value].findIndex((char) => !HEADER_SAFE.test(char)) + 1;
  throw new InputError(
    `Input '${name}' holds a character that an HTTP header cannot carry (at position ${position}): a control, space, zero-width or non-ASCII character, most likely pasted with it. Copy it again into the secret.`,
  );
}

function parseBaseUrl(value: string): { baseUrl: string; loopback: boolean } {
  if (value === '') throw new InputError("Input 'base-url' is required, e.g. https://tests.example.com.");
  const url = URL.canParse(value) ? new URL(value) : undefined;
  // Looked for in the text too: a URL that does not parse must not be echoed with its password either.
  if (/^[^/?#]*\/\/[^/?#]*@/.test(value) || url?.username || url?.password) {
    throw new InputError("Input 'base-url' must not carry credentials; pass the key in 'api-key'.");
  }
  if (url === undefined) {
    throw new InputError(
      `Input 'base-url' must be an absolute URL such as https://tests.example.com; got ${shown(value)}.`,
    );
  }
  if (url.search || url.hash) {
    throw new InputError(`Input 'base-url' must not have a query or fragment; got ${shown(value)}.`);
  }
  if (!isHttpsOrLocal(url)) {
    throw new InputError(
      `Input 'base-url' must use https:// (plain http:// is accepted only for localhost, 127.0.0.0/8 and [::1], so the API key never crosses a network in clear text); got ${shown(value)}.`,
    );
  }
  return { baseUrl: url.href.replace(/\/+$/, ''), loopback: isLoopbackHost(url.hostname) };
}

/** A folder for a report: the path ends with a slash (either kind, on every system). */
function reportPath(workspace: string, value: string, fileInFolder: string): string {
  const folder = value.replace(/[/\\]+$/, '');
  return path.resolve(workspace, folder === value ? value : path.join(folder, fileInFolder));
}

function pullRequestInput(input: InputReader): number | undefined {
  const value = input('pull-request');
  if (value === '') return undefined;
  if (/^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2 ** 31 - 1) return Number(value);
  throw new InputError(
    `Input 'pull-request' must be a pull request's number, such as 42; got ${shown(value)}.`,
  );
}

/** How many of a branch's results a history keeps at most. */
export const HISTORY_MAX_RESULTS = 100;

function parseHistory(value: string): number {
  if (/^\d{1,3}$/.test(value) && Number(value) <= HISTORY_MAX_RESULTS) return Number(value);
  throw new InputError(
    `Input 'history' must be a number of results from 0 (off) to ${HISTORY_MAX_RESULTS}; got ${shown(value)}.`,
  );
}

/** GitHub shows a check run's name in one line of the pull request's checks. */
const CHECK_NAME_MAX_CHARS = 100;

/** One name a line, one line a target, in the targets' order. */
function checkNameLines(input: InputReader, targets: number): (string | undefined)[] {
  const value = input('check-name');
  if (value === '') return Array.from({ length: targets }, () => undefined);
  const names = value.split('\n').map((name) => name.trim());
  const tooLong = names.find((name) => name === '' || name.length > CHECK_NAME_MAX_CHARS);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) {
    throw new InputError(
      `Input 'check-name' names ${shown(twice)} twice: the check name is a target's identity, so each target needs its own.`,
    );
  }
  if (names.length === targets && tooLong === undefined) return names;
  const each = targets === 1 ? 'one line' : `${targets} lines, one per target in the targets' order,`;
  throw new InputError(
    `Input 'check-name' must be ${each} of 1 to ${CHECK_NAME_MAX_CHARS} characters; got ${shown(value)}.`,
  );
}

// No loopback URL in the options without a tunnel: the service, in the cloud, could not reach it
// (unless base-url is loopback too: the service then runs on this machine).
function parseTunnels(text: string, options: SuiteOptions, serviceIsLocal: boolean): string[] {
  const checked = parseTunnelOrigins(pieces(text, /[,\n]/));
  if (!checked.ok) throw new InputError(`Input 'tunnel': ${checked.reason}`);
  const [first] = serviceIsLocal ? [] : untunnelledLoopbackUrls(options, checked.origins);
  if (first === undefined) return checked.origins;
  const origin = new URL(first.url).origin;
  throw new InputError(
    `${issuePath('options', first.path)} points at ${origin}, on this runner, which the service cannot reach: it runs in the cloud. To test the app this job started, open a tunnel to it with the input 'tunnel: ${origin.replace(/^ws/, 'http')}'.`,
  );
}

/** A placeholder no target can fill is an input error; with several targets, one that some fill links those. */
function dashboardTemplates(input: InputReader, targets: readonly IdTarget[]) {
  const dashboardUrl = parseUrlTemplate('dashboard-url', input('dashboard-url'), RUN_PLACEHOLDERS);
  const testUrl = parseUrlTemplate('dashboard-test-url', input('dashboard-test-url'), TEST_PLACEHOLDERS);
  const template = [dashboardUrl, testUrl].find((each) => each?.uses.has('testSuiteId'));
  if (template && targets.every((each) => each.testSuiteId === undefined)) {
    throw new InputError(
      targets[0]?.kind === 'project'
        ? `Input '${template.input}' uses {testSuiteId}, which a project run does not have.`
        : `Input '${template.input}' uses {testSuiteId}: give 'test-suite-id' with 'run-id'.`,
    );
  }
  return { dashboardUrl, dashboardTestUrl: testUrl };
}

/** The target as the mode and id inputs tell it, before the inputs that complete it are read. */
type IdTarget =
  | { kind: 'project'; projectId: string; runId?: string; testSuiteId?: undefined }
  | { kind: 'suite-start'; testSuiteId: string; runId?: undefined }
  | { kind: 'suite-attach'; testSuiteId?: string; runId: string };

/** Across both id inputs: GitHub bills the step, and the service runs them at once. */
export const MAX_TARGETS = 20;

function checkedId(name: string, id: string): string {
  const problem = idProblem(id);
  if (problem) throw new InputError(`Input '${name}' must be an id, and ${problem}; got ${shown(id)}.`);
  return id;
}

/** One id a line (blank lines ignored), each an id, none twice. */
function idLines(input: InputReader, name: string): string[] {
  const ids = pieces(input(name), '\n');
  for (const [index, id] of ids.entries()) {
    checkedId(name, id);
    if (ids.indexOf(id) !== index)
      throw new InputError(`Input '${name}' names ${shown(id)} twice; give each id once.`);
  }
  return ids;
}

/** Why no input names a target: what to give instead. */
function noTargetError(mode: string, runId: string | undefined): string {
  if (runId)
    return "Input 'run-id' needs 'project-id' for a project run, or 'mode: suite' for a test suite run.";
  if (mode === 'project') return "Input 'project-id' is required for a project run.";
  if (mode === 'suite') {
    return "Input 'test-suite-id' is required to start a test suite run (or 'run-id' to attach to one).";
  }
  return "Neither 'project-id' nor 'test-suite-id' is set; give 'project-id' for a project run or 'test-suite-id' for a test suite run.";
}

/** Project ids first, then suite ids, each in the order given. */
function resolveTargets(input: InputReader): IdTarget[] {
  const mode = parseChoice(input, 'mode', ['', 'project', 'suite'], "'project' or 'suite'");
  const projectIds = idLines(input, 'project-id');
  const suiteIds = idLines(input, 'test-suite-id');
  const runIdText = input('run-id');
  const runId = runIdText === '' ? undefined : checkedId('run-id', runIdText);
  const count = projectIds.length + suiteIds.length;
  if (count > MAX_TARGETS) {
    throw new InputError(
      `Inputs 'project-id' and 'test-suite-id' name ${count} targets; one step runs at most ${MAX_TARGETS}.`,
    );
  }
  if (mode === 'project' && suiteIds.length > 0) {
    throw new InputError(
      "Input 'test-suite-id' is set but 'mode' is 'project'; a project run needs 'project-id'.",
    );
  }
  if (mode === 'suite' && projectIds.length > 0) {
    throw new InputError(
      "Input 'project-id' is set but 'mode' is 'suite'; a test suite run needs 'test-suite-id'.",
    );
  }
  if (runId && count > 1) {
    throw new InputError(
      "Input 'run-id' attaches to one run: give one 'project-id' or 'test-suite-id' with it, not several.",
    );
  }
  // No id names a target, unless 'run-id' attaches to a suite's run that needs none.
  if (count === 0 && !(runId && mode === 'suite')) throw new InputError(noTargetError(mode, runId));
  const [projectId] = projectIds;
  if (runId && projectId) return [{ kind: 'project', projectId, runId }];
  if (runId) return [{ kind: 'suite-attach', testSuiteId: suiteIds[0], runId }];
  return [
    ...projectIds.map((id) => ({ kind: 'project', projectId: id }) as const),
    ...suiteIds.map((id) => ({ kind: 'suite-start', testSuiteId: id }) as const),
  ];
}

/** Inputs some runs cannot use: an input error rather than silently ignored, in this order. */
const NOT_FOR: Record<string, Partial<Record<Mode | 'attach' | 'no-wait', string>>> = {
  'run-id': {
    'no-wait':
      "is set but 'wait' is false; attaching to an existing run only makes sense when waiting for it",
  },
  'playwright-project-name': { suite: 'applies to project runs only; this is a test suite run' },
  options: {
    project: 'applies to test suite runs only; this is a project run',
    attach: "has no effect when 'run-id' attaches to a run that is already started",
  },
  tunnel: {
    project:
      "applies to test suite runs only: the service's project-run start has no field for a URL to test",
    'no-wait':
      "cannot be used with 'wait: false': the tunnel ends with the step, and the run would test a dead URL",
    attach:
      "applies to a run this step starts: a run attached with 'run-id' was started with its URLs already",
  },
  'dashboard-test-url': {
    project: "applies to test suite runs only: a project run's test cases have no page of their own",
  },
};

/** An input that fits none of the targets is an error; one that fits some applies to those. */
function checkApplicable(input: InputReader, targets: readonly IdTarget[], wait: boolean): void {
  for (const [name, why] of Object.entries(NOT_FOR)) {
    const reasons = targets.map(
      (target) =>
        why[modeOf(target)] || (target.runId !== undefined && why.attach) || (!wait && why['no-wait']),
    );
    if (input(name) !== '' && reasons.every(Boolean)) throw new InputError(`Input '${name}' ${reasons[0]}.`);
  }
}

/** A suite run's environment is one of the service's, upper-cased; a project run's, any text. */
function parseEnvironment(input: InputReader, target: IdTarget): string | undefined {
  if (target.kind === 'project' || input('environment') === '') return input('environment') || undefined;
  const described = `one of ${SUITE_ENVIRONMENTS.join(', ')} for a test suite run`;
  return parseChoice(input, 'environment', SUITE_ENVIRONMENTS, described);
}

/** The options have the last word on a suite run's branch and environment: the run says what it sends. */
async function completeTarget(
  input: InputReader,
  target: IdTarget,
  run: SuiteOptionInputs,
  serviceIsLocal: boolean,
): Promise<Omit<TargetSettings, 'checkName'>> {
  const { branch, environment } = run;
  if (target.kind === 'project') {
    const playwrightProjectName = input('playwright-project-name') || undefined;
    return { target: { ...target, playwrightProjectName }, branch, environment };
  }
  if (target.kind === 'suite-attach') return { target, branch, environment };
  const options = await buildSuiteOptions(input('options'), run);
  const tunnelOrigins = parseTunnels(input('tunnel'), options, serviceIsLocal);
  return {
    target: { ...target, options, tunnelOrigins },
    branch: options.metadata?.git?.branch,
    environment: options.environment,
  };
}

/** The contract's branch rule: explicit input, `none`, else the PR head branch, else the pushed branch. */
function resolveBranch(value: string, env: NodeJS.ProcessEnv): { branch?: string; branchExplicit: boolean } {
  if (value !== '') return { branch: value === 'none' ? undefined : value, branchExplicit: true };
  const pushed = env.GITHUB_REF_TYPE === 'branch' ? env.GITHUB_REF_NAME : undefined;
  return { branch: env.GITHUB_HEAD_REF || pushed || undefined, branchExplicit: false };
}

/** What names a target and its check run: read again, alone, after an error in another input. */
const TARGET_INPUTS = [
  'api-key',
  'base-url',
  'mode',
  'project-id',
  'test-suite-id',
  'run-id',
  'wait',
  'environment',
  'playwright-project-name',
  'github-token',
  'check-run',
  'check-name',
  'pull-request',
];

/** An input error that leaves the targets known, with them: each target's check run can fail with it. */
export class InputErrorWithTargets extends InputError {
  constructor(
    error: InputError,
    readonly targets: Settings[],
  ) {
    super(error.message, { cause: error });
  }
}

/**
 * Every input, checked. An input error that leaves the targets known carries them, read with the
 * other inputs at their defaults (InputErrorWithTargets).
 */
export async function readSettings(
  readRaw: InputReader = getInput,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StepSettings> {
  try {
    return await parseSettings(readRaw, env);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const targetInputs: InputReader = (name) => (TARGET_INPUTS.includes(name) ? readRaw(name) : '');
    const targets = await parseSettings(targetInputs, env).then(eachTarget, () => undefined);
    throw targets ? new InputErrorWithTargets(error, targets) : error;
  }
}

async function parseSettings(readRaw: InputReader, env: NodeJS.ProcessEnv): Promise<StepSettings> {
  // Trimmed as the runner's own reader does, so that a test's reader is read the same way.
  const input: InputReader = (name) => readRaw(name).trim() || INPUT_DEFAULTS[name] || '';
  const apiKey = readSecret(input, 'api-key');
  if (apiKey === '') {
    throw new InputError(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, shown to the user as is
      "Input 'api-key' is empty. Secrets are not passed to workflows triggered from forks or by Dependabot; if this run came from one, that is why. Otherwise set it, e.g. api-key: ${{ secrets.TEST_RUN_API_KEY }}.",
    );
  }
  const githubToken = readSecret(input, 'github-token') || undefined;
  const { baseUrl, loopback } = parseBaseUrl(input('base-url'));
  const idTargets = resolveTargets(input);
  const wait = parseBoolean(input, 'wait');
  checkApplicable(input, idTargets, wait);
  const pollIntervalMs = parseDuration(input, 'poll-interval');
  if (pollIntervalMs < 1000 && !loopback) {
    throw new InputError(
      `Input 'poll-interval' must be at least 1s against a remote service; got ${shown(input('poll-interval'))}.`,
    );
  }
  const junit = input('junit-report');
  // Read once: the event payload is a file.
  const workflow = readWorkflowRun(env);
  const settings: SharedSettings = {
    apiKey,
    baseUrl,
    wait,
    pollIntervalMs,
    timeoutMs: parseDuration(input, 'timeout'),
    requestTimeoutMs: parseDuration(input, 'request-timeout'),
    cancelOnAbort: parseBoolean(input, 'cancel-on-abort'),
    failOnFlaky: parseBoolean(input, 'fail-on-flaky'),
    failOn: parseChoice(input, 'fail-on', ['any', 'new'] as const),
    summary: parseBoolean(input, 'summary'),
    junitPath: junit ? reportPath(env.GITHUB_WORKSPACE || process.cwd(), junit, 'junit.xml') : undefined,
    resultsDir: env.RUNNER_TEMP || undefined,
    workflow,
    prComment: parseChoice(input, 'pr-comment', ['off', 'always', 'on-failure'] as const),
    githubToken,
    ...dashboardTemplates(input, idTargets),
    pullRequestNumber: pullRequestInput(input),
    checkRun: parseChoice(input, 'check-run', ['auto', 'true', 'false'] as const),
    history: parseHistory(input('history')),
    quarantine: parseQuarantine(input('quarantine')),
    slowdown: parseSlowdown(input('slowdown')),
  };
  const checkNames = checkNameLines(input, idTargets.length);
  const branch = resolveBranch(input('branch'), env);
  const targets = idTargets.map(async (idTarget, index) => {
    const run = { environment: parseEnvironment(input, idTarget), ...branch, workflow };
    return { ...(await completeTarget(input, idTarget, run, loopback)), checkName: checkNames[index] };
  });
  return { ...settings, targets: await Promise.all(targets) };
}

export function eachTarget({ targets, ...step }: StepSettings): Settings[] {
  return targets.map((target) => ({ ...step, ...target }));
}

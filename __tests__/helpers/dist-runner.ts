import { type ChildProcess, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ProcessResult, runProcess } from './process.js';
import { makeRunnerFiles, type RunnerFiles, readKeyValueFile, readSummary, stepEnv } from './runner-files.js';

/** The bundle the tests run: a fresh build of src/ (see global-setup.mjs), else the committed dist/. */
export const DIST_ENTRY = process.env.DIST_UNDER_TEST ?? path.resolve('dist/index.js');

/** Node binaries to run dist/ on: this one, and Node 24 (the runner's) when NODE24_BIN names it. */
export function nodeBinaries(): { name: string; bin: string }[] {
  const binaries = [{ name: `node ${process.versions.node}`, bin: process.execPath }];
  const node24 = process.env.NODE24_BIN;
  if (node24 && fs.existsSync(node24) && path.resolve(node24) !== process.execPath) {
    const version = execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
    binaries.push({ name: `node ${version}`, bin: node24 });
  }
  return binaries;
}

export interface DistResult extends ProcessResult {
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
  files: RunnerFiles;
}

export interface DistOptions {
  node?: string;
  files?: RunnerFiles;
  /** Extra environment, e.g. STATE_* variables for the post step. */
  env?: Record<string, string>;
  /** Called once the process is spawned, e.g. to send it a signal later. */
  onSpawn?: (child: ChildProcess) => void;
}

/** Runs dist/index.js the way the GitHub runner does: inputs as INPUT_*, runner files, a clean environment. */
export async function runDist(
  inputs: Record<string, string>,
  options: DistOptions = {},
): Promise<DistResult> {
  const files = options.files ?? makeRunnerFiles();
  const env: Record<string, string> = {
    ...stepEnv(files, inputs),
    ...options.env,
  };
  const run = await runProcess(options.node ?? process.execPath, [DIST_ENTRY], {
    env,
    onSpawn: options.onSpawn,
  });
  return {
    ...run,
    outputs: readKeyValueFile(files.outputFile),
    state: readKeyValueFile(files.stateFile),
    summary: readSummary(files),
    files,
  };
}

/** The environment the runner gives a post step: the main step's saved state as STATE_* variables. */
export function postStepEnv(state: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value;
  return env;
}

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** What the runner gives a step of a workflow run on a push to main of octo/shop. */
export const PUSH_TO_MAIN_ENV = {
  GITHUB_REPOSITORY: 'octo/shop',
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_RUN_ID: '4242',
  GITHUB_REF_TYPE: 'branch',
  GITHUB_REF_NAME: 'main',
};

/** The files the GitHub runner gives a step, in a fresh temp directory. */
export interface RunnerFiles {
  dir: string;
  outputFile: string;
  summaryFile: string;
  stateFile: string;
  runnerTemp: string;
  workspace: string;
}

export function makeRunnerFiles(): RunnerFiles {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-run-action-'));
  const files = {
    dir,
    outputFile: path.join(dir, 'output'),
    summaryFile: path.join(dir, 'summary.md'),
    stateFile: path.join(dir, 'state'),
    runnerTemp: path.join(dir, 'runner-temp'),
    workspace: path.join(dir, 'workspace'),
  };
  for (const file of [files.outputFile, files.summaryFile, files.stateFile]) fs.writeFileSync(file, '');
  fs.mkdirSync(files.runnerTemp);
  fs.mkdirSync(files.workspace);
  return files;
}

/** The environment variables that point @actions/core at those files. */
export function runnerEnv(files: RunnerFiles): Record<string, string> {
  return {
    GITHUB_OUTPUT: files.outputFile,
    GITHUB_STEP_SUMMARY: files.summaryFile,
    GITHUB_STATE: files.stateFile,
    RUNNER_TEMP: files.runnerTemp,
    GITHUB_WORKSPACE: files.workspace,
  };
}

/**
 * The whole environment the runner gives a step of a push to main: PATH, the runner's variables,
 * the files and the inputs. Nothing else is inherited.
 */
export function stepEnv(files: RunnerFiles, inputs: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    GITHUB_ACTIONS: 'true',
    ...PUSH_TO_MAIN_ENV,
    ...runnerEnv(files),
    ...inputEnv(inputs),
  };
}

/**
 * Parses a GITHUB_OUTPUT-style file: `name<<delimiter` blocks, as core.setOutput and core.saveState
 * write them, and `name=value` lines, as a shell step writes them.
 */
export function readKeyValueFile(file: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const block = /^([^<=]+)<<(.+)$/.exec(lines[i]);
    if (block) {
      const [, name, delimiter] = block;
      const valueLines: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) valueLines.push(lines[i]);
      values[name] = valueLines.join('\n');
      continue;
    }
    const plain = /^([^=]+)=(.*)$/.exec(lines[i]);
    if (plain) values[plain[1]] = plain[2];
  }
  return values;
}

export function readSummary(files: RunnerFiles): string {
  return fs.readFileSync(files.summaryFile, 'utf8');
}

/** Inputs as the runner passes them: INPUT_<NAME> with the name upper-cased. */
export function inputEnv(inputs: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inputs))
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  return env;
}

/** Annotation lines (`::error title=...::message`) of a log. */
export function annotations(log: string, kind: 'error' | 'warning' | 'notice'): string[] {
  return log.split('\n').filter((line) => line.startsWith(`::${kind}`));
}

/** The log as the runner shows it: `::add-mask::` commands are consumed by the runner, never shown. */
export function visibleLog(log: string): string {
  return log
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
}

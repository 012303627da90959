import * as fs from 'node:fs';
import { run } from '../../src/main.js';
import { cleanup } from '../../src/post.js';
import { clearSecrets } from '../../src/runner/secrets.js';
import type { Clock } from '../../src/service/clock.js';
import {
  makeRunnerFiles,
  type RunnerFiles,
  readKeyValueFile,
  readSummary,
  runnerEnv,
} from './runner-files.js';
import { virtualClock } from './virtual-clock.js';

export { type VirtualClock, virtualClock } from './virtual-clock.js';

export interface InProcessResult {
  exitCode: number;
  log: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
  files: RunnerFiles;
}

/**
 * core.summary remembers the first summary file it wrote to, for the life of the process: every
 * in-process run shares that one file, emptied before each run.
 */
let sharedSummaryFile: string | undefined;

export interface InProcessOptions {
  env?: Record<string, string>;
  clock?: Clock;
  cancelSignal?: AbortSignal;
}

/**
 * Runs the action's main step in this process, against a real server, with inputs given directly.
 * @actions/core writes outputs, state and summary to the runner files and annotations to stdout,
 * which is captured.
 */
export function runInProcess(inputs: Record<string, string>, options: InProcessOptions = {}) {
  return runStep(inputs, options.env, (input, env) =>
    run({
      input,
      env,
      clock: options.clock,
      cancelSignal: options.cancelSignal ?? new AbortController().signal,
    }),
  );
}

/**
 * Main steps at once in this process, each with its inputs and a virtual clock of its own, as two
 * workflows of one pull request run at once. @actions/core writes to one set of runner files, so
 * they share the result: one log (interleaved), the outputs (the last written wins) and the state.
 */
export function runTogether(runs: Record<string, string>[], options: Omit<InProcessOptions, 'clock'> = {}) {
  const cancelSignal = options.cancelSignal ?? new AbortController().signal;
  return runStep({}, options.env, async (_, env) => {
    const steps = runs.map((inputs) =>
      run({ input: (name) => inputs[name] ?? '', env, clock: virtualClock(), cancelSignal }),
    );
    await Promise.all(steps);
  });
}

/** The post step, given what the main step saved (the `state` of a main step's result). */
export function runPostInProcess(
  inputs: Record<string, string>,
  state: Record<string, string>,
  options: InProcessOptions = {},
) {
  return runStep(inputs, options.env, (input, env) =>
    cleanup({ input, env, clock: options.clock, state: (name) => state[name] ?? '' }),
  );
}

async function runStep(
  inputs: Record<string, string>,
  extraEnv: Record<string, string> = {},
  step: (input: (name: string) => string, env: NodeJS.ProcessEnv) => Promise<void>,
): Promise<InProcessResult> {
  const files = makeRunnerFiles();
  sharedSummaryFile ??= files.summaryFile;
  files.summaryFile = sharedSummaryFile;
  fs.writeFileSync(files.summaryFile, '');
  const fileEnv = runnerEnv(files);
  const saved = Object.fromEntries(Object.keys(fileEnv).map((name) => [name, process.env[name]]));
  Object.assign(process.env, fileEnv);
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stdout.write;
  clearSecrets();
  process.exitCode = undefined;
  try {
    await step((name) => inputs[name] ?? '', { ...fileEnv, ...extraEnv });
  } finally {
    process.stdout.write = write;
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return {
    exitCode,
    log: chunks.join(''),
    outputs: readKeyValueFile(files.outputFile),
    state: readKeyValueFile(files.stateFile),
    summary: readSummary(files),
    files,
  };
}

/**
 * The parent side of report-worker.ts: bundles it with esbuild (src compiled to plain JS, packages
 * left to node_modules, as fast as the code ncc puts in dist/) and runs it once per size in a fresh
 * Node process.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build, stop } from 'esbuild';
import { runProcess } from '../__tests__/helpers/process.js';
import { makeRunnerFiles, runnerEnv } from '../__tests__/helpers/runner-files.js';
import { DEFAULT_API_KEY } from '../__tests__/simulator/simulator.js';
import { projectRunBody } from './cases.js';
import type { WorkerResult } from './report-worker.js';
import { PROJECT_ROOT, removeDir } from './spawn.js';

/** Bundles the worker into `dir`, which must lie inside the project so that its imports resolve. */
export async function bundleWorker(dir: string): Promise<string> {
  const outfile = path.join(dir, 'report-worker.mjs');
  await build({
    entryPoints: [path.join(PROJECT_ROOT, 'bench', 'report-worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  // esbuild keeps a service process for further builds; none will come.
  await stop();
  return outfile;
}

export async function runWorker(
  worker: string,
  bin: string,
  cases: Parameters<typeof projectRunBody>[0],
  warmRuns: number,
): Promise<WorkerResult> {
  const files = makeRunnerFiles();
  try {
    const bodyFile = path.join(files.dir, 'body.json');
    fs.writeFileSync(bodyFile, projectRunBody(cases));
    const resultFile = path.join(files.dir, 'result.json');
    const run = await runProcess(bin, ['--expose-gc', worker], {
      env: {
        PATH: process.env.PATH ?? '',
        ...runnerEnv(files),
        BENCH_BODY_FILE: bodyFile,
        BENCH_RESULT_FILE: resultFile,
        BENCH_API_KEY: DEFAULT_API_KEY,
        BENCH_WARM_RUNS: String(warmRuns),
      },
    });
    if (run.code !== 0 || !fs.existsSync(resultFile)) {
      throw new Error(`the report worker failed (exit ${run.code}):\n${run.stdout}${run.stderr}`);
    }
    return JSON.parse(fs.readFileSync(resultFile, 'utf8')) as WorkerResult;
  } finally {
    removeDir(files.dir);
  }
}

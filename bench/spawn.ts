import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunnerFiles, stepEnv } from '../__tests__/helpers/runner-files.js';
import { DEFAULT_API_KEY } from '../__tests__/simulator/simulator.js';

/** The project's root directory, whatever the current directory. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The bundle measured: dist/index.js, or the entry BENCH_DIST names (to compare two builds). */
export const DIST_ENTRY = process.env.BENCH_DIST
  ? path.resolve(process.env.BENCH_DIST)
  : path.join(PROJECT_ROOT, 'dist', 'index.js');

/** What the runner gives a step of a project run against `baseUrl`. */
export function actionEnv(
  files: RunnerFiles,
  baseUrl: string,
  extraInputs: Record<string, string> = {},
): Record<string, string> {
  return stepEnv(files, {
    'api-key': DEFAULT_API_KEY,
    'base-url': baseUrl,
    'project-id': 'shop-web',
    environment: 'staging',
    'poll-interval': '1s',
    ...extraInputs,
  });
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export { nodeBinaries } from '../__tests__/helpers/dist-runner.js';

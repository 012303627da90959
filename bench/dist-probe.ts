/**
 * dist/index.js run whole, as the runner runs it, against the simulator: wall time and the peak
 * memory of the whole process (read by a preloaded module at exit), and which of dist's files a
 * project run loads (seen by a module loader hook, in a separate run so it costs the others nothing).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runProcess } from '../__tests__/helpers/process.js';
import { makeRunnerFiles, readSummary } from '../__tests__/helpers/runner-files.js';
import type {
  LoggedRequest,
  ProjectScript,
  SimTestCase,
  Simulator,
} from '../__tests__/simulator/simulator.js';
import { actionEnv, DIST_ENTRY, removeDir } from './spawn.js';

const EXIT_PROBE = `import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  writeFileSync(process.env.BENCH_RUSAGE_FILE, JSON.stringify({ maxRSS: process.resourceUsage().maxRSS }));
});
`;

const LOAD_HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:')) appendFileSync(process.env.BENCH_LOADS_FILE, url + '\\n');
  return nextLoad(url, context);
}
`;

// The hooks see every ES module and a CommonJS entry; what a CommonJS bundle require()s passes
// them by on Node 20, so the require cache is read at exit as well.
const LOAD_REGISTER = `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
register('./load-hooks.mjs', import.meta.url);
const { cache } = createRequire(import.meta.url);
process.on('exit', () => {
  for (const file of Object.keys(cache)) appendFileSync(process.env.BENCH_LOADS_FILE, pathToFileURL(file).href + '\\n');
});
`;

export interface DistRun {
  cases: number;
  exitCode: number | null;
  firstRequestMs: number;
  elapsedMs: number;
  peakRssMb: number;
  summaryBytes: number;
}

export function writeProbes(dir: string): { exitProbe: string; loadRegister: string } {
  fs.mkdirSync(dir, { recursive: true });
  const exitProbe = path.join(dir, 'exit-probe.mjs');
  fs.writeFileSync(exitProbe, EXIT_PROBE);
  fs.writeFileSync(path.join(dir, 'load-hooks.mjs'), LOAD_HOOKS);
  const loadRegister = path.join(dir, 'load-register.mjs');
  fs.writeFileSync(loadRegister, LOAD_REGISTER);
  return { exitProbe, loadRegister };
}

/** One project run of dist/index.js whose single poll answers `cases`; a JUnit report is asked for. */
export async function runDistWhole(
  sim: Simulator,
  bin: string,
  cases: SimTestCase[],
  exitProbe: string,
  entry = DIST_ENTRY,
  step: { inputs?: Record<string, string>; project?: ProjectScript } = {},
): Promise<DistRun & { requests: LoggedRequest[] }> {
  sim.setScenario({ project: step.project ?? { statuses: ['FAILED'], testCases: cases } });
  const files = makeRunnerFiles();
  const rusageFile = path.join(files.dir, 'rusage.json');
  try {
    const env = {
      ...actionEnv(files, sim.url, { 'junit-report': 'reports/junit.xml', ...step.inputs }),
      BENCH_RUSAGE_FILE: rusageFile,
    };
    const before = sim.requests.length;
    const run = await runProcess(bin, ['--import', pathToFileURL(exitProbe).href, entry], { env });
    const first = sim.requests[before];
    if (!first || !fs.existsSync(rusageFile)) {
      throw new Error(`dist/index.js did not run through (exit ${run.code}):\n${run.stdout}${run.stderr}`);
    }
    const { maxRSS } = JSON.parse(fs.readFileSync(rusageFile, 'utf8')) as { maxRSS: number };
    return {
      cases: cases.length,
      exitCode: run.code,
      firstRequestMs: first.at - run.spawnedAt,
      elapsedMs: run.elapsedMs,
      peakRssMb: maxRSS / 1024,
      summaryBytes: Buffer.byteLength(readSummary(files)),
      requests: sim.requests.slice(before),
    };
  } finally {
    removeDir(files.dir);
  }
}

/** The files of dist/ that one project run (with a JUnit report) loads, by name. */
export async function distFilesLoaded(sim: Simulator, loadRegister: string): Promise<string[]> {
  sim.setScenario({ project: { statuses: ['FAILED'] } });
  const files = makeRunnerFiles();
  const loadsFile = path.join(files.dir, 'loads.txt');
  try {
    const env = {
      ...actionEnv(files, sim.url, { 'junit-report': 'reports/junit.xml' }),
      BENCH_LOADS_FILE: loadsFile,
    };
    const run = await runProcess(
      process.execPath,
      ['--import', pathToFileURL(loadRegister).href, DIST_ENTRY],
      {
        env,
      },
    );
    if (!fs.existsSync(loadsFile)) throw new Error(`no module was seen loading:\n${run.stdout}${run.stderr}`);
    const distDir = path.dirname(DIST_ENTRY) + path.sep;
    return fs
      .readFileSync(loadsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((url) => new URL(url).pathname)
      .filter((file) => file.startsWith(distDir))
      .map((file) => path.relative(distDir.slice(0, -1), file));
  } finally {
    removeDir(files.dir);
  }
}

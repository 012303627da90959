/**
 * dist/index.js run whole, as the runner runs it, against the simulator: wall time, the time from
 * the last answer to the exit, and the peak memory of the whole process (read by a preloaded module
 * at exit).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runProcess } from '../__tests__/helpers/process.js';
import { makeRunnerFiles, readSummary } from '../__tests__/helpers/runner-files.js';
import type { LoggedRequest, Scenario, Simulator } from '../__tests__/simulator/simulator.js';
import { actionEnv, DIST_ENTRY, removeDir } from './spawn.js';

const EXIT_PROBE = `import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  writeFileSync(process.env.BENCH_RUSAGE_FILE, JSON.stringify({ maxRSS: process.resourceUsage().maxRSS }));
});
`;

export function writeExitProbe(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const exitProbe = path.join(dir, 'exit-probe.mjs');
  fs.writeFileSync(exitProbe, EXIT_PROBE);
  return exitProbe;
}

export interface DistRun {
  exitCode: number | null;
  firstRequestMs: number;
  /** From the last request the simulator received (the poll that answers the test cases) to the exit. */
  lastAnswerToExitMs: number;
  elapsedMs: number;
  peakRssMb: number;
  summaryBytes: number;
  junitBytes: number;
  resultsBytes: number;
  requests: LoggedRequest[];
  stdout: string;
}

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** One step of `entry` (a project run by default) against `scenario`; a JUnit report is asked for. */
export async function runDistWhole(
  sim: Simulator,
  bin: string,
  scenario: Scenario,
  exitProbe: string,
  step: { entry?: string; inputs?: Record<string, string> } = {},
): Promise<DistRun> {
  sim.setScenario(scenario);
  const files = makeRunnerFiles();
  const rusageFile = path.join(files.dir, 'rusage.json');
  try {
    const env = {
      ...actionEnv(files, sim.url, { 'junit-report': 'reports/junit.xml', ...step.inputs }),
      BENCH_RUSAGE_FILE: rusageFile,
    };
    const before = sim.requests.length;
    const entry = step.entry ?? DIST_ENTRY;
    const run = await runProcess(bin, ['--import', pathToFileURL(exitProbe).href, entry], { env });
    const requests = sim.requests.slice(before);
    const [first] = requests;
    const last = requests.at(-1);
    if (!first || !last || !fs.existsSync(rusageFile)) {
      throw new Error(`dist/index.js did not run through (exit ${run.code}):\n${run.stdout}${run.stderr}`);
    }
    const { maxRSS } = JSON.parse(fs.readFileSync(rusageFile, 'utf8')) as { maxRSS: number };
    const resultsDir = files.runnerTemp;
    const resultsFiles = fs.existsSync(resultsDir)
      ? fs.readdirSync(resultsDir).filter((name) => name.endsWith('.json'))
      : [];
    return {
      exitCode: run.code,
      firstRequestMs: first.at - run.spawnedAt,
      lastAnswerToExitMs: run.spawnedAt + run.elapsedMs - last.at,
      elapsedMs: run.elapsedMs,
      peakRssMb: maxRSS / 1024,
      summaryBytes: Buffer.byteLength(readSummary(files)),
      junitBytes: sizeOf(path.join(files.workspace, 'reports', 'junit.xml')),
      resultsBytes: resultsFiles.reduce((sum, name) => sum + sizeOf(path.join(resultsDir, name)), 0),
      requests,
      stdout: run.stdout,
    };
  } finally {
    removeDir(files.dir);
  }
}

/** A project run whose poll answers a 200 that never ends (read up to the cap): how long, how much memory. */
export async function runAgainstEndlessAnswer(
  sim: Simulator,
  bin: string,
  exitProbe: string,
): Promise<DistRun> {
  const fault = { kind: 'endless' } as const;
  const run = await runDistWhole(
    sim,
    bin,
    { faults: [{ operation: 'getProjectRun', requests: 'all', fault }] },
    exitProbe,
  );
  sim.setScenario({});
  if (!run.stdout.includes('reading stopped there')) {
    throw new Error(
      `dist/index.js did not stop reading the endless answer (exit ${run.exitCode}):\n${run.stdout}`,
    );
  }
  return run;
}

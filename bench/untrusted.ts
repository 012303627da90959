/**
 * What untrusted input costs: cleaning a title of megabytes for the log and for the summary,
 * refusing `options` inputs that once hung the step, and the peak memory of dist/index.js against
 * an answer that never ends.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ALIAS_BOMB, deeplyNested } from '../__tests__/helpers/hostile-options.js';
import { runProcess } from '../__tests__/helpers/process.js';
import { makeRunnerFiles } from '../__tests__/helpers/runner-files.js';
import type { Simulator } from '../__tests__/simulator/simulator.js';
import { parseOptionsText } from '../src/inputs/options-text.js';
import { cellText } from '../src/report/escape.js';
import { registerSecret } from '../src/runner/secrets.js';
import { safe } from '../src/runner/text.js';
import { actionEnv, DIST_ENTRY, removeDir } from './spawn.js';
import { median } from './stats.js';

const RUNS = 7;

/** The median time of `RUNS` calls of `work`, after one to warm up. */
async function timed(work: () => unknown): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** The time of a call that must be refused (throw); a call that is not refused is an error. */
function refused(work: () => Promise<unknown>): () => Promise<void> {
  return async () => {
    const accepted = await work().then(
      () => true,
      () => false,
    );
    if (accepted) throw new Error('an input the bounds must refuse was accepted');
  };
}

/** A title of about `megabytes` MB: words, runs of spaces and line breaks, a control character or two. */
function hugeTitle(megabytes: number): string {
  const piece = `Checkout applies the discount ${' '.repeat(40)}\n\t total \u001b[31m red \u2028 `;
  return piece.repeat(Math.ceil((megabytes * 1_000_000) / piece.length));
}

export interface UntrustedFigures {
  /** [what, median ms] */
  times: [string, number][];
}

export async function measureUntrusted(): Promise<UntrustedFigures> {
  // As in a step, where the API key is always registered: masking reads the whole title.
  registerSecret('bench-api-key-that-is-not-in-the-title');
  const title = hugeTitle(5);
  const spaces = `Checkout${' '.repeat(5_000_000)}\n${' '.repeat(5_000_000)}total`;
  return {
    times: [
      ['safe(): a 5 MB title for the log', await timed(() => safe(title, 200))],
      ['cellText(): a 5 MB title for the summary', await timed(() => cellText(title))],
      ['cellText(): 10 M spaces around a line break', await timed(() => cellText(spaces))],
      [
        'options: refuse the YAML alias bomb (459 B, 9^9 values)',
        await timed(refused(() => parseOptionsText(ALIAS_BOMB))),
      ],
      [
        'options: refuse JSON nested 20,000 deep',
        await timed(refused(() => parseOptionsText(deeplyNested(20_000, 'json')))),
      ],
      [
        'options: refuse YAML nested 20,000 deep',
        await timed(refused(() => parseOptionsText(deeplyNested(20_000, 'yaml')))),
      ],
    ],
  };
}

export interface EndlessRun {
  elapsedMs: number;
  peakRssMb: number;
  exitCode: number | null;
}

/** dist/index.js, a project run whose poll answers a body that never ends: how long, and how much memory. */
export async function runAgainstEndlessAnswer(
  sim: Simulator,
  bin: string,
  exitProbe: string,
): Promise<EndlessRun> {
  sim.setScenario({ faults: [{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'endless' } }] });
  const files = makeRunnerFiles();
  const rusageFile = path.join(files.dir, 'rusage.json');
  try {
    const env = { ...actionEnv(files, sim.url), BENCH_RUSAGE_FILE: rusageFile };
    const run = await runProcess(bin, ['--import', pathToFileURL(exitProbe).href, DIST_ENTRY], { env });
    if (!fs.existsSync(rusageFile) || !run.stdout.includes('reading stopped there')) {
      throw new Error(
        `dist/index.js did not stop reading the endless answer (exit ${run.code}):\n${run.stdout}`,
      );
    }
    const { maxRSS } = JSON.parse(fs.readFileSync(rusageFile, 'utf8')) as { maxRSS: number };
    return { elapsedMs: run.elapsedMs, peakRssMb: maxRSS / 1024, exitCode: run.code };
  } finally {
    sim.setScenario({});
    removeDir(files.dir);
  }
}

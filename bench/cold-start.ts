/**
 * Cold start: from spawning a Node process to the first request the simulator receives, for
 * dist/index.js and references that send the same start request: a bare Node script, and the
 * toolkit floor, a minified ncc bundle that reads its inputs with @actions/core and sends the
 * request with @actions/http-client, bundled as an ES module and as CommonJS. Runs are
 * interleaved, one at a time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ProcessResult, runProcess } from '../__tests__/helpers/process.js';
import { makeRunnerFiles } from '../__tests__/helpers/runner-files.js';
import type { Simulator } from '../__tests__/simulator/simulator.js';
import { USER_AGENT } from '../src/service/user-agent.js';
import { actionEnv, nodeBinaries, PROJECT_ROOT, removeDir } from './spawn.js';

export interface Variant {
  name: string;
  /** The script to run. */
  entry: string;
  /** Inputs over those of a project run (an empty value unsets one). */
  inputs?: Record<string, string>;
}

const SUITE_OPTIONS = {
  numberOfWorkers: 4,
  retries: 1,
  testMatch: { glob: 'checkout/**' },
  notificationProfile: 'DISABLED',
  variableOverrides: { BASE_URL: 'https://staging.example.com', PIN: { value: '4711', sensitive: true } },
  urlReplacements: [{ original: 'https://www.example.com', replacement: 'https://staging.example.com' }],
};

const SUITE_OPTIONS_YAML = `numberOfWorkers: 4
retries: 1
testMatch:
  glob: "checkout/**"
notificationProfile: DISABLED
variableOverrides:
  BASE_URL: https://staging.example.com
  PIN:
    value: "4711"
    sensitive: true
urlReplacements:
  - original: https://www.example.com
    replacement: https://staging.example.com
`;

/** dist/index.js in each mode: a project run, and a suite run with its options as JSON and as YAML. */
export function distVariants(entry: string): Variant[] {
  const suite = { 'project-id': '', 'test-suite-id': 'checkout-regression', environment: 'STAGING' };
  return [
    { name: 'dist, project run', entry },
    {
      name: 'dist, suite run, JSON options',
      entry,
      inputs: { ...suite, options: JSON.stringify(SUITE_OPTIONS) },
    },
    { name: 'dist, suite run, YAML options', entry, inputs: { ...suite, options: SUITE_OPTIONS_YAML } },
  ];
}

export interface ColdStartSeries {
  node: string;
  variant: string;
  /** Milliseconds from spawn to the first request, one per run. */
  samples: number[];
  /** With the CPU probe: milliseconds from spawn to exit, one per run. */
  exitMs: number[];
  /** With the CPU probe: CPU time (user + system) of the whole process, in milliseconds. */
  cpuMs: number[];
}

/**
 * A preload (--require, so that it loads no ES module machinery an entry would not) that writes
 * the process's CPU time at exit to BENCH_CPU_FILE. It costs both formats the same file read.
 */
const CPU_PROBE = `'use strict';
process.on('exit', () => {
  const usage = process.resourceUsage();
  require('node:fs').writeFileSync(process.env.BENCH_CPU_FILE, String(usage.userCPUTime + usage.systemCPUTime));
});
`;

export function writeCpuProbe(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const probe = path.join(dir, 'cpu-probe.cjs');
  fs.writeFileSync(probe, CPU_PROBE);
  return probe;
}

/** The start request of a project run, as ServiceClient sends it; `read(name)` gives an input. */
const SEND_START = `
const base = read('base-url');
const body = JSON.stringify({ branch: 'main', environment: read('environment') });
const request = http.request(
  base + '/v1/projects/' + encodeURIComponent(read('project-id')) + '/runs',
  {
    method: 'POST',
    agent: false,
    headers: {
      authorization: 'Bearer ' + read('api-key'),
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': '${USER_AGENT}',
    },
  },
  (response) => response.resume(),
);
request.on('error', (error) => {
  console.error(error.message);
  process.exitCode = 1;
});
request.end(body);
`;

const BARE = `import http from 'node:http';
const read = (name) => process.env['INPUT_' + name.toUpperCase()] ?? '';
${SEND_START}`;

/** The toolkit floor: the inputs read with @actions/core, the request sent with @actions/http-client. */
const TOOLKIT_FLOOR = `import * as core from '@actions/core';
import { HttpClient } from '@actions/http-client';
const read = (name) => core.getInput(name);
const client = new HttpClient('${USER_AGENT}');
client
  .request(
    'POST',
    read('base-url') + '/v1/projects/' + encodeURIComponent(read('project-id')) + '/runs',
    JSON.stringify({ branch: 'main', environment: read('environment') }),
    {
      authorization: 'Bearer ' + read('api-key'),
      accept: 'application/json',
      'content-type': 'application/json',
    },
  )
  .then((response) => response.readBody())
  .catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  })
  .finally(() => client.dispose());
`;

/** The bundle formats compared: ES module (what ncc makes of "type": "module") and CommonJS. */
export const FORMATS = ['esm', 'cjs'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * Bundles an ES module entry with ncc's API and its minifier (ncc -m) into `out`/index.js, in the
 * format asked for; out/package.json says which, since the project's own says "module".
 */
const NCC_BUILD = `const fs = require('node:fs');
const path = require('node:path');
const [entry, out, format] = process.argv.slice(2);
require('@vercel/ncc')(entry, { esm: format === 'esm', filename: 'index.js', minify: true, quiet: true })
  .then(({ code, assets }) => {
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'index.js'), code);
    for (const [name, asset] of Object.entries(assets)) fs.writeFileSync(path.join(out, name), asset.source);
    fs.writeFileSync(path.join(out, 'package.json'), JSON.stringify({ type: format === 'esm' ? 'module' : 'commonjs' }));
  })
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
`;

/**
 * Writes the bare script and bundles the toolkit floor with ncc, as an ES module and as CommonJS,
 * in `dir`, which must lie inside the project so that ncc resolves node_modules.
 */
export async function buildReferences(
  dir: string,
): Promise<{ bare: Variant; floor: Record<Format, Variant> }> {
  fs.mkdirSync(dir, { recursive: true });
  const bare = path.join(dir, 'bare.mjs');
  fs.writeFileSync(bare, BARE);
  const floorEntry = path.join(dir, 'toolkit-floor.mjs');
  fs.writeFileSync(floorEntry, TOOLKIT_FLOOR);
  const builder = path.join(dir, 'ncc-build.cjs');
  fs.writeFileSync(builder, NCC_BUILD);
  const floor = {} as Record<Format, Variant>;
  for (const format of FORMATS) {
    const out = path.join(dir, `toolkit-floor-${format}`);
    const build = await runProcess(process.execPath, [builder, floorEntry, out, format], {
      env: { PATH: process.env.PATH ?? '' },
      cwd: PROJECT_ROOT,
    });
    const bundle = path.join(out, 'index.js');
    if (build.code !== 0 || !fs.existsSync(bundle)) {
      throw new Error(`ncc build of the toolkit floor (${format}) failed:\n${build.stdout}${build.stderr}`);
    }
    floor[format] = { name: `toolkit floor, ${format.toUpperCase()} (ncc -m)`, entry: bundle };
  }
  return { bare: { name: 'bare node script', entry: bare }, floor };
}

/**
 * Bundles src/ as the action ships it (.ci/bundle.mjs: ncc, then terser), once in each format,
 * into `dir`/esm and `dir`/cjs; both builds run at once. Returns each bundle's entry.
 */
export async function buildActionBundles(dir: string): Promise<Record<Format, string>> {
  const builds = FORMATS.map(async (format) => {
    const out = path.join(dir, format);
    const build = await runProcess(
      process.execPath,
      [path.join(PROJECT_ROOT, '.ci', 'bundle.mjs'), out, `--format=${format}`],
      { env: { PATH: process.env.PATH ?? '' }, cwd: PROJECT_ROOT },
    );
    const entry = path.join(out, 'index.js');
    if (build.code !== 0 || !fs.existsSync(entry) || formatOf(entry) !== format) {
      throw new Error(`.ci/bundle.mjs --format=${format} failed:\n${build.stdout}${build.stderr}`);
    }
    return [format, entry] as const;
  });
  return Object.fromEntries(await Promise.all(builds)) as Record<Format, string>;
}

/** The format Node reads a .js entry in: the "type" of the nearest package.json. */
export function formatOf(entry: string): Format {
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const { type } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { type?: string };
      return type === 'module' ? 'esm' : 'cjs';
    }
    if (path.dirname(dir) === dir) return 'cjs';
  }
}

interface Timing {
  firstRequestMs: number;
  exitMs: number;
  cpuMs: number;
}

async function timeFirstRequest(
  sim: Simulator,
  bin: string,
  entry: string,
  env: Record<string, string>,
  cpuProbe: string | undefined,
): Promise<Timing> {
  const before = sim.requests.length;
  const args = cpuProbe ? ['--require', cpuProbe, entry] : [entry];
  const run: ProcessResult = await runProcess(bin, args, { env });
  const first = sim.requests[before];
  if (!first) {
    throw new Error(`${entry} sent no request (exit ${run.code}):\n${run.stdout}${run.stderr}`);
  }
  const cpuFile = env.BENCH_CPU_FILE;
  const cpuMs = cpuProbe && cpuFile ? Number(fs.readFileSync(cpuFile, 'utf8')) / 1000 : Number.NaN;
  return { firstRequestMs: first.at - run.spawnedAt, exitMs: run.elapsedMs, cpuMs };
}

/**
 * `rounds` measured rounds after one warm-up round; in each round every variant runs once on each
 * Node binary, the order rotating from round to round. With `cpuProbe` (see writeCpuProbe), each
 * run also gives its time to exit and its CPU time.
 */
export async function measureColdStart(
  sim: Simulator,
  variants: readonly Variant[],
  rounds: number,
  cpuProbe?: string,
): Promise<ColdStartSeries[]> {
  const files = makeRunnerFiles();
  try {
    const series: ColdStartSeries[] = [];
    const jobs: { series: ColdStartSeries; bin: string; entry: string; env: Record<string, string> }[] = [];
    for (const node of nodeBinaries()) {
      for (const variant of variants) {
        const entry: ColdStartSeries = {
          node: node.name,
          variant: variant.name,
          samples: [],
          exitMs: [],
          cpuMs: [],
        };
        series.push(entry);
        jobs.push({
          series: entry,
          bin: node.bin,
          entry: variant.entry,
          env: {
            ...actionEnv(files, sim.url, variant.inputs),
            BENCH_CPU_FILE: path.join(files.dir, 'cpu.txt'),
          },
        });
      }
    }
    for (let round = 0; round <= rounds; round++) {
      for (let i = 0; i < jobs.length; i++) {
        const job = jobs[(i + round) % jobs.length] as (typeof jobs)[number];
        const timing = await timeFirstRequest(sim, job.bin, job.entry, job.env, cpuProbe);
        if (round > 0) {
          job.series.samples.push(timing.firstRequestMs);
          job.series.exitMs.push(timing.exitMs);
          job.series.cpuMs.push(timing.cpuMs);
        }
      }
    }
    return series;
  } finally {
    removeDir(files.dir);
  }
}

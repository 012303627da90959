/**
 * Cold start: from spawning a Node process to the first request the simulator receives, for
 * dist/index.js and references that send the same start request: a bare Node script, and the
 * toolkit floor, a minified ncc bundle (CommonJS, as dist/ is) that reads its inputs with
 * @actions/core and sends the request with @actions/http-client. Runs are interleaved, one at a time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runProcess } from '../__tests__/helpers/process.js';
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

/** Bundles an entry with ncc's API and its minifier (ncc -m) into `out`/index.js, as CommonJS. */
const NCC_BUILD = `const fs = require('node:fs');
const path = require('node:path');
const [entry, out] = process.argv.slice(2);
require('@vercel/ncc')(entry, { esm: false, filename: 'index.js', minify: true, quiet: true })
  .then(({ code }) => {
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'index.js'), code);
    fs.writeFileSync(path.join(out, 'package.json'), JSON.stringify({ type: 'commonjs' }));
  })
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
`;

/**
 * Writes the bare script and bundles the toolkit floor with ncc in `dir`, which must lie inside the
 * project so that ncc resolves node_modules.
 */
export async function buildFloor(dir: string): Promise<{ bare: Variant; floor: Variant }> {
  fs.mkdirSync(dir, { recursive: true });
  const bare = path.join(dir, 'bare.mjs');
  fs.writeFileSync(bare, BARE);
  const floorEntry = path.join(dir, 'toolkit-floor.mjs');
  fs.writeFileSync(floorEntry, TOOLKIT_FLOOR);
  const builder = path.join(dir, 'ncc-build.cjs');
  fs.writeFileSync(builder, NCC_BUILD);
  const out = path.join(dir, 'toolkit-floor');
  const build = await runProcess(process.execPath, [builder, floorEntry, out], {
    env: { PATH: process.env.PATH ?? '' },
    cwd: PROJECT_ROOT,
  });
  const bundle = path.join(out, 'index.js');
  if (build.code !== 0 || !fs.existsSync(bundle)) {
    throw new Error(`ncc build of the toolkit floor failed:\n${build.stdout}${build.stderr}`);
  }
  return {
    bare: { name: 'bare node script', entry: bare },
    floor: { name: 'toolkit floor (ncc -m)', entry: bundle },
  };
}

async function timeFirstRequest(sim: Simulator, bin: string, entry: string, env: Record<string, string>) {
  const before = sim.requests.length;
  const run = await runProcess(bin, [entry], { env });
  const first = sim.requests[before];
  if (!first)
    throw new Error(
      `${entry} sent no request (exit ${run.code}):\n${`${run.stdout}${run.stderr}`.slice(-2000)}`,
    );
  return first.at - run.spawnedAt;
}

/**
 * `rounds` measured rounds after one warm-up round; in each round every variant runs once on each
 * Node binary, the order rotating from round to round.
 */
export async function measureColdStart(
  sim: Simulator,
  variants: readonly Variant[],
  rounds: number,
): Promise<ColdStartSeries[]> {
  const files = makeRunnerFiles();
  try {
    const series: ColdStartSeries[] = [];
    const jobs: { series: ColdStartSeries; bin: string; entry: string; env: Record<string, string> }[] = [];
    for (const node of nodeBinaries()) {
      for (const variant of variants) {
        const entry: ColdStartSeries = { node: node.name, variant: variant.name, samples: [] };
        series.push(entry);
        jobs.push({
          series: entry,
          bin: node.bin,
          entry: variant.entry,
          env: actionEnv(files, sim.url, variant.inputs),
        });
      }
    }
    for (let round = 0; round <= rounds; round++) {
      for (let i = 0; i < jobs.length; i++) {
        const job = jobs[(i + round) % jobs.length] as (typeof jobs)[number];
        const firstRequestMs = await timeFirstRequest(sim, job.bin, job.entry, job.env);
        if (round > 0) job.series.samples.push(firstRequestMs);
      }
    }
    return series;
  } finally {
    removeDir(files.dir);
  }
}

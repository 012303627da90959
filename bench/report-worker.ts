/**
 * The child process of `npm run bench` for one number of test cases. The benchmark bundles it with
 * esbuild (src compiled to plain JS, packages loaded from node_modules) and runs it in a fresh Node
 * process, so that the peak memory is this size's alone.
 *
 * It reads a get-run response from BENCH_BODY_FILE and times, as the action does on a project run:
 * JSON.parse and zod/mini validation (ProjectRunDriver.poll, through a client doing ServiceClient's parse
 * step, which maps the answer to the finished run), the normalisation (finishedOutcome), then writeReports with
 * the summary, a JUnit report and the results file. The log and annotations go to a counter, not to stdout.
 * It writes its figures as JSON to BENCH_RESULT_FILE.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeReports } from '../src/report/index.js';
import { finishedOutcome, type RunIdentity } from '../src/run/conclude.js';
import { registerSecret } from '../src/runner/secrets.js';
import { type Operation, parseAnswer, type ServiceClient } from '../src/service/client.js';
import { ProjectRunDriver } from '../src/service/run-driver.js';

export interface RunTimes {
  validateMs: number;
  normaliseMs: number;
  reportsMs: number;
  totalMs: number;
}

export interface WorkerResult {
  cases: number;
  bodyBytes: number;
  /** RSS once the modules are loaded, before the response is read. */
  rssStartMb: number;
  /** Peak RSS of the process after the first run: what one action run needs. */
  peakFirstMb: number;
  /** The first run first, then the warm ones. */
  runs: RunTimes[];
  summaryBytes: number;
  summaryRows: number;
  resultsBytes: number;
  junitBytes: number;
  logBytes: number;
}

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const rssStart = process.memoryUsage.rss();
const maxRssMb = () => process.resourceUsage().maxRSS / 1024;
const mb = (bytes: number) => bytes / 1024 / 1024;

const bodyFile = env('BENCH_BODY_FILE');
const resultFile = env('BENCH_RESULT_FILE');
const warmRuns = Number(process.env.BENCH_WARM_RUNS ?? '5');
const summaryFile = env('GITHUB_STEP_SUMMARY');
const outputFile = env('GITHUB_OUTPUT');
const resultsDir = env('RUNNER_TEMP');
const junitPath = path.join(env('GITHUB_WORKSPACE'), 'reports', 'junit.xml');

let logBytes = 0;
const realWrite = process.stdout.write;
function muteStdout(): void {
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof process.stdout.write;
}

// The action registers the API key before anything else, so every text the reports write is redacted.
muteStdout();
registerSecret(env('BENCH_API_KEY'));
process.stdout.write = realWrite;

// The body as http-client's readBody gives it: bytes read, then one string.
const body = fs.readFileSync(bodyFile).toString('utf8');

/**
 * A client that answers the driver's get-run call with the body above, parsed and validated by the
 * client's own parseAnswer (zod/mini).
 */
const client = {
  async call<T>(operation: Operation<T>): Promise<T> {
    if (operation.rule !== 'read') throw new Error(`unexpected call: ${operation.name}`);
    return parseAnswer(operation, { status: 200, body }, await import('../src/service/schemas.js'));
  },
} as unknown as ServiceClient;

const identity: RunIdentity = {
  mode: 'project',
  projectId: 'shop-web',
  runId: 'run-1',
  branch: 'main',
  environment: 'staging',
  failOnFlaky: false,
};

function resetFiles(): void {
  fs.writeFileSync(summaryFile, '');
  fs.writeFileSync(outputFile, '');
  fs.rmSync(resultsDir, { recursive: true, force: true });
  fs.rmSync(path.dirname(junitPath), { recursive: true, force: true });
}

let caseCount = 0;

async function once(): Promise<RunTimes> {
  const driver = new ProjectRunDriver(client, 'shop-web');
  const context = { deadline: Number.MAX_SAFE_INTEGER };
  muteStdout();
  try {
    const t0 = performance.now();
    const poll = await driver.poll('run-1', context);
    const t1 = performance.now();
    if (!poll.finished) throw new Error(`the run is not final: ${poll.status}`);
    const outcome = finishedOutcome(identity, poll.finished);
    const t2 = performance.now();
    caseCount = outcome.counts.total;
    await writeReports([outcome], { summary: true, junitPath, resultsDir });
    const t3 = performance.now();
    return { validateMs: t1 - t0, normaliseMs: t2 - t1, reportsMs: t3 - t2, totalMs: t3 - t0 };
  } finally {
    process.stdout.write = realWrite;
  }
}

const gc = (globalThis as { gc?: () => void }).gc;
const runs: RunTimes[] = [];
resetFiles();
runs.push(await once());
const peakFirstMb = maxRssMb();

const summary = fs.readFileSync(summaryFile, 'utf8');
const sizes = {
  summaryBytes: Buffer.byteLength(summary),
  summaryRows: summary.split('<tr><td>').length - 1,
  resultsBytes: fs
    .readdirSync(resultsDir)
    .reduce((sum, name) => sum + fs.statSync(path.join(resultsDir, name)).size, 0),
  junitBytes: fs.statSync(junitPath).size,
  logBytes,
};

for (let i = 0; i < warmRuns; i++) {
  resetFiles();
  gc?.();
  runs.push(await once());
}

const result: WorkerResult = {
  cases: caseCount,
  bodyBytes: Buffer.byteLength(body),
  rssStartMb: mb(rssStart),
  peakFirstMb,
  runs,
  ...sizes,
};
fs.writeFileSync(resultFile, JSON.stringify(result));

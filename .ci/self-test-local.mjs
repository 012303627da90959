// Hand-written: the maintained emulator (nektos/act) needs Docker and runner images from the internet; this runs the self-test job's steps here, as far as they can run here.
/**
 *   npx tsx .ci/self-test-local.mjs [job]   # a job of .github/workflows/self-test.yml; default: self-test
 *
 * Like the runner: `run:` steps in bash -eo pipefail with the job's and step's env; `uses: ./` as
 * `node dist/index.js` (NODE24_BIN if set) with INPUT_* (action.yml's defaults first), fresh runner
 * files and outputs read back; id, if, continue-on-error, outcome, conclusion. Not: other actions and
 * `npm ci` (this work tree and Node stand in), the matrix (first values), the post step, expressions
 * but the few in evaluate(). *_PORT job variables get free ports; what the steps leave running stops.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load as parse } from 'js-yaml';
import { inputEnv, PUSH_TO_MAIN_ENV, readKeyValueFile } from '../__tests__/helpers/runner-files.ts';
import { StandInCloudflared } from '../__tests__/simulator/cloudflared-stand-in.ts';
import { ConnectProxy } from '../__tests__/simulator/proxy.ts';
import { CA_CERT_PATH } from '../__tests__/simulator/tls-front.ts';

const root = resolve(import.meta.dirname, '..');
const WORKFLOW = '.github/workflows/self-test.yml';
const jobId = process.argv[2] ?? 'self-test';
const STEP_TIMEOUT_MS = 180_000;
const job = parse(readFileSync(join(root, WORKFLOW), 'utf8')).jobs?.[jobId];
if (!job) {
  console.error(`self-test-local: no job '${jobId}' in ${WORKFLOW}`);
  process.exit(2);
}
// The tunnel job, where Cloudflare cannot be reached: the stand-in cloudflared goes first on PATH,
// and a CONNECT proxy on loopback (named by https_proxy, the test CA trusted) stands for the
// internet, resolving the stand-in's trycloudflare.com names. The job must have started it.
const standIn = jobId === 'tunnel' ? await StandInCloudflared.create('ok') : undefined;
const proxy = standIn && (await ConnectProxy.start({ routes: {}, resolve: standIn.resolve }));
const hostEnv = standIn
  ? { ...standIn.env(process.env), NODE_EXTRA_CA_CERTS: CA_CERT_PATH, https_proxy: proxy.url }
  : process.env;
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8'));
const temp = mkdtempSync(join(tmpdir(), 'self-test-local-'));
const [runnerTemp, workspace] = ['runner-temp', 'workspace'].map((d) => join(temp, d));
for (const d of [runnerTemp, workspace]) mkdirSync(d);
const matrix = Object.fromEntries(
  Object.entries(job.strategy?.matrix ?? {})
    .filter(([, v]) => Array.isArray(v))
    .map(([k, v]) => [k, String(v[0])]),
);
const steps = {};
let jobFailed = false;

function evaluate(expr, env) {
  const e = expr.trim();
  const fixed = { '!cancelled()': true, 'always()': true, 'cancelled()': false, 'success()': !jobFailed };
  Object.assign(fixed, {
    'failure()': jobFailed,
    'runner.temp': runnerTemp,
    'runner.os': 'Linux',
    'github.token': '',
  });
  if (Object.hasOwn(fixed, e)) return fixed[e];
  const m = /^(env|matrix|steps)\.([\w-]+)(?:\.(outcome|conclusion|outputs\.([\w-]+)))?$/.exec(e);
  if (m && m[1] !== 'steps' && !m[3]) return { env, matrix }[m[1]][m[2]] ?? '';
  if (m?.[1] === 'steps' && m[3]) return (m[4] ? steps[m[2]]?.outputs[m[4]] : steps[m[2]]?.[m[3]]) ?? '';
  throw new Error(`self-test-local does not know the expression \${{ ${e} }}`);
}
const interpolate = (value, env) =>
  typeof value === 'string'
    ? value.replace(/\$\{\{(.*?)\}\}/g, (_, expr) => String(evaluate(expr, env)))
    : String(value ?? '');

const groups = [];
const kill = (pid, signal) => {
  try {
    process.kill(-pid, signal);
  } catch {}
};
function run(command, args, env) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 1, 2], detached: true });
    groups.push(child.pid);
    const timer = setTimeout(() => {
      console.log(`::error::step still running after ${STEP_TIMEOUT_MS / 1000} s: stopped`);
      kill(child.pid, 'SIGKILL');
    }, STEP_TIMEOUT_MS);
    // 'exit', not 'close': processes a step leaves in the background may keep the streams open.
    child.on('exit', (code) => done(code ?? 1, clearTimeout(timer)));
    child.on('error', () => done(127, clearTimeout(timer)));
  });
}

// What the runner gives a step of a push to main, as the tests of dist/ have it.
const githubEnv = {
  ...PUSH_TO_MAIN_ENV,
  CI: 'true',
  GITHUB_ACTIONS: 'true',
  GITHUB_EVENT_NAME: 'push',
  GITHUB_REF: 'refs/heads/main',
  RUNNER_OS: 'Linux',
  RUNNER_TEMP: runnerTemp,
  GITHUB_WORKSPACE: workspace,
};
const jobEnv = Object.fromEntries(Object.entries(job.env ?? {}).map(([k, v]) => [k, interpolate(v, {})]));
for (const [k, v] of Object.entries(jobEnv).filter(([k, v]) => /_PORT$/.test(k) && /^\d+$/.test(v))) {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((listening) => server.once('listening', listening));
  const port = String(server.address().port);
  await new Promise((closed) => server.close(closed));
  for (const k2 of Object.keys(jobEnv)) {
    jobEnv[k2] = k2 === k ? port : jobEnv[k2].replace(new RegExp(`:${v}(?!\\d)`, 'g'), `:${port}`);
  }
}

try {
  for (const [i, step] of job.steps.entries()) {
    const index = i + 1;
    const label = `\n--- step ${index}: ${step.name ?? step.uses ?? step.run?.split('\n')[0]}`;
    const baseEnv = { ...hostEnv, ...githubEnv, ...jobEnv };
    const env = { ...baseEnv };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = interpolate(v, baseEnv);
    const when =
      typeof step.if === 'string'
        ? evaluate(step.if.trim().replace(/^\$\{\{(.*)\}\}$/s, '$1'), env)
        : step.if;
    if (!(when === undefined ? !jobFailed : when === true || when === 'true')) {
      console.log(`${label}: skipped`);
      if (step.id) steps[step.id] = { outcome: 'skipped', conclusion: 'skipped', outputs: {} };
      continue;
    }
    let code = 0;
    let outputs = {};
    if (step.run !== undefined && /^npm ci\b/.test(step.run.trim())) {
      console.log(`${label}: not run here (this work tree's node_modules stands in)`);
    } else if (step.run !== undefined) {
      console.log(label);
      const script = join(temp, `step-${index}.sh`);
      writeFileSync(script, interpolate(step.run, env));
      code = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], env);
    } else if (step.uses === './') {
      console.log(`${label} (node dist/index.js)`);
      const names = ['GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY'];
      const files = Object.fromEntries(names.map((name) => [name, join(temp, `step-${index}-${name}`)]));
      for (const file of Object.values(files)) writeFileSync(file, '');
      const inputs = {};
      for (const [name, input] of Object.entries(action.inputs ?? {})) {
        if (input?.default !== undefined) inputs[name] = interpolate(String(input.default), env);
      }
      for (const [name, value] of Object.entries(step.with ?? {})) inputs[name] = interpolate(value, env);
      const node = process.env.NODE24_BIN || process.execPath;
      code = await run(node, [join(root, action.runs.main)], { ...env, ...files, ...inputEnv(inputs) });
      outputs = readKeyValueFile(files.GITHUB_OUTPUT);
    } else {
      console.log(`${label}: not run here (this work tree and Node ${process.version} stand in)`);
    }
    const outcome = code === 0 ? 'success' : 'failure';
    const conclusion = outcome === 'failure' && step['continue-on-error'] === true ? 'success' : outcome;
    if (step.id) steps[step.id] = { outcome, conclusion, outputs };
    console.log(
      `--- step ${index}: ${outcome}${conclusion !== outcome ? ` (continue-on-error: ${conclusion})` : ''}`,
    );
    if (conclusion === 'failure') jobFailed = true;
  }
} finally {
  for (const pid of groups) kill(pid, 'SIGTERM');
  rmSync(temp, { recursive: true, force: true });
  if (standIn?.invocations().length === 0) {
    console.log('self-test-local: the stand-in cloudflared was never started');
    jobFailed = true;
  }
  await proxy?.stop();
  await standIn?.cleanup();
}
console.log(`\nself-test-local: job '${jobId}' of ${WORKFLOW} ${jobFailed ? 'failed' : 'passed'}`);
process.exitCode = jobFailed ? 1 : 0;

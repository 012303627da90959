/**
 * Runs the self-test workflow's job on this machine, as far as a runner's work can be done here,
 * so that its scenarios, its simulator start-up and its output checks are tried before a push.
 *
 *   npx tsx .ci/self-test-local.mjs [workflow file] [job id]   # default: .github/workflows/self-test.yml self-test
 *
 * What it does like the runner: `run:` steps in `bash --noprofile --norc -eo pipefail` with the
 * job's and the step's `env:`; `uses: ./` steps as `node dist/index.js` with INPUT_* variables
 * (action.yml's defaults first), fresh GITHUB_OUTPUT, GITHUB_STATE and GITHUB_STEP_SUMMARY files,
 * and the outputs read back; `id`, `if`, `continue-on-error`, `outcome` and `conclusion`; a failed
 * step skips the rest but for `if: ${{ !cancelled() }}` / `always()` steps.
 * What it does not: other actions (checkout, setup-node: this work tree and this Node stand in for
 * them), `npm ci` steps (this work tree's node_modules stands in), the matrix (one Linux run, the
 * first value of each matrix key), expressions beyond `env.*`, `steps.*`, `runner.*`, `matrix.*`,
 * `github.token` (empty here) and the status functions (any other fails loudly), and the post step. Job variables ending in _PORT get free ports here (and every job variable naming
 * the old port follows), so that runs on a shared machine do not collide; GITHUB_WORKSPACE is a
 * temporary directory, so that reports written there stay out of the work tree. Processes the
 * steps leave behind (the simulators) are stopped at the end.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load as parse } from 'js-yaml';
import { inputEnv, readKeyValueFile } from '../__tests__/helpers/runner-files.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workflowFile = resolve(root, process.argv[2] ?? '.github/workflows/self-test.yml');
const jobId = process.argv[3] ?? 'self-test';
const STEP_TIMEOUT_MS = 180_000;

const workflow = parse(readFileSync(workflowFile, 'utf8'));
const job = workflow.jobs?.[jobId];
if (!job) {
  console.error(`self-test-local: no job '${jobId}' in ${workflowFile}`);
  process.exit(2);
}
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8'));

const temp = mkdtempSync(join(tmpdir(), 'self-test-local-'));
const runnerTemp = join(temp, 'runner-temp');
const workspace = join(temp, 'workspace');
mkdirSync(runnerTemp);
mkdirSync(workspace);

const matrix = Object.fromEntries(
  Object.entries(job.strategy?.matrix ?? {})
    .filter(([, v]) => Array.isArray(v))
    .map(([k, v]) => [k, String(v[0])]),
);
const steps = {};
let jobFailed = false;

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Evaluates one expression of the small subset this emulator knows. */
function evaluate(expr, env) {
  const e = expr.trim();
  if (e === '!cancelled()' || e === 'always()') return true;
  if (e === 'success()') return !jobFailed;
  if (e === 'failure()') return jobFailed;
  if (e === 'cancelled()') return false;
  let m = /^env\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(e);
  if (m) return env[m[1]] ?? '';
  m = /^steps\.([A-Za-z_][A-Za-z0-9_-]*)\.(outcome|conclusion)$/.exec(e);
  if (m) return steps[m[1]]?.[m[2]] ?? '';
  m = /^steps\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(e);
  if (m) return steps[m[1]]?.outputs[m[2]] ?? '';
  m = /^matrix\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(e);
  if (m) return matrix[m[1]] ?? '';
  if (e === 'runner.temp') return runnerTemp;
  if (e === 'runner.os') return 'Linux';
  if (e === 'github.token') return '';
  throw new Error(`self-test-local does not know the expression \${{ ${e} }}`);
}

function interpolate(value, env) {
  if (typeof value !== 'string') return value === undefined || value === null ? '' : String(value);
  return value.replace(/\$\{\{(.*?)\}\}/g, (_, expr) => String(evaluate(expr, env)));
}

function condition(step, env) {
  if (step.if === undefined) return !jobFailed;
  if (typeof step.if === 'boolean') return step.if;
  const expr = step.if.trim().replace(/^\$\{\{(.*)\}\}$/s, '$1');
  const value = evaluate(expr, env);
  return value === true || value === 'true';
}

const groups = [];

function run(command, args, env) {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    groups.push(child.pid);
    const timer = setTimeout(() => {
      console.log(`::error::step still running after ${STEP_TIMEOUT_MS / 1000} s: stopped`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, STEP_TIMEOUT_MS);
    // 'exit', not 'close': processes a step leaves in the background may keep the streams open.
    child.on('exit', (code) => {
      clearTimeout(timer);
      done(code ?? 1);
    });
    child.on('error', () => {
      clearTimeout(timer);
      done(127);
    });
  });
}

const githubEnv = {
  CI: 'true',
  GITHUB_ACTIONS: 'true',
  GITHUB_WORKSPACE: workspace,
  GITHUB_REPOSITORY: 'octo/test-run-action',
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_RUN_ID: '1',
  GITHUB_EVENT_NAME: 'push',
  GITHUB_REF: 'refs/heads/main',
  GITHUB_REF_TYPE: 'branch',
  GITHUB_REF_NAME: 'main',
  RUNNER_OS: 'Linux',
  RUNNER_TEMP: runnerTemp,
};

// The job's env, with free ports for its *_PORT variables.
const jobEnv = {};
for (const [k, v] of Object.entries(job.env ?? {})) jobEnv[k] = interpolate(v, {});
for (const [k, v] of Object.entries(jobEnv)) {
  if (!/_PORT$/.test(k) || !/^\d+$/.test(v)) continue;
  const port = String(await freePort());
  for (const [k2, v2] of Object.entries(jobEnv)) {
    jobEnv[k2] = k2 === k ? port : v2.replace(new RegExp(`:${v}(?!\\d)`, 'g'), `:${port}`);
  }
}

let index = 0;
try {
  for (const step of job.steps) {
    index++;
    const label = step.name ?? step.uses ?? step.run?.split('\n')[0];
    const baseEnv = { ...process.env, ...githubEnv, ...jobEnv };
    const env = { ...baseEnv };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = interpolate(v, baseEnv);
    if (!condition(step, env)) {
      console.log(`\n--- step ${index}: ${label}: skipped`);
      if (step.id) steps[step.id] = { outcome: 'skipped', conclusion: 'skipped', outputs: {} };
      continue;
    }
    let code;
    let outputs = {};
    if (step.run !== undefined && /^npm ci\b/.test(step.run.trim())) {
      console.log(`\n--- step ${index}: ${label}: not run here (this work tree's node_modules stands in)`);
      code = 0;
    } else if (step.run !== undefined) {
      console.log(`\n--- step ${index}: ${label}`);
      const script = join(temp, `step-${index}.sh`);
      writeFileSync(script, interpolate(step.run, env));
      code = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], env);
    } else if (step.uses === './') {
      console.log(`\n--- step ${index}: ${label} (node dist/index.js)`);
      const files = { GITHUB_OUTPUT: 'output', GITHUB_STATE: 'state', GITHUB_STEP_SUMMARY: 'summary.md' };
      for (const [k, f] of Object.entries(files)) {
        files[k] = join(temp, `step-${index}-${f}`);
        writeFileSync(files[k], '');
      }
      const inputs = {};
      for (const [name, input] of Object.entries(action.inputs ?? {})) {
        if (input?.default !== undefined) inputs[name] = interpolate(String(input.default), env);
      }
      for (const [name, value] of Object.entries(step.with ?? {})) inputs[name] = interpolate(value, env);
      code = await run(process.env.NODE24_BIN || process.execPath, [join(root, action.runs.main)], {
        ...env,
        ...files,
        ...inputEnv(inputs),
      });
      outputs = readKeyValueFile(files.GITHUB_OUTPUT);
    } else {
      console.log(
        `\n--- step ${index}: ${label}: not run here (this work tree and Node ${process.version} stand in)`,
      );
      code = 0;
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
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {}
  }
  rmSync(temp, { recursive: true, force: true });
}

console.log(
  `\nself-test-local: job '${jobId}' of ${workflowFile.slice(root.length + 1)} ${jobFailed ? 'failed' : 'passed'}`,
);
process.exitCode = jobFailed ? 1 : 0;

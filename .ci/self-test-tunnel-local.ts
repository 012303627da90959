/**
 * Runs the self-test workflow's `tunnel` job on this machine (through .ci/self-test-local.mjs),
 * where Cloudflare cannot be reached: the stand-in cloudflared is first on PATH, and a CONNECT
 * proxy on loopback stands for the internet (it resolves the stand-in's trycloudflare.com names),
 * named by https_proxy for the action's probe and for the simulator's fetches, with the test CA
 * trusted. On a runner the same job runs the real cloudflared over the real internet.
 *
 *   npx tsx .ci/self-test-tunnel-local.ts
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StandInCloudflared } from '../__tests__/simulator/cloudflared-stand-in.js';
import { ConnectProxy } from '../__tests__/simulator/proxy.js';
import { CA_CERT_PATH } from '../__tests__/simulator/tls-front.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const standIn = await StandInCloudflared.create('ok');
const proxy = await ConnectProxy.start({ routes: {}, resolve: standIn.resolve });
try {
  const env = {
    ...standIn.env(process.env),
    PATH: [standIn.binDir, process.env.PATH ?? ''].join(path.delimiter),
    NODE_EXTRA_CA_CERTS: CA_CERT_PATH,
    https_proxy: proxy.url,
  };
  const code = await new Promise<number>((done) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '.ci/self-test-local.mjs', '.github/workflows/self-test.yml', 'tunnel'],
      { cwd: root, env, stdio: 'inherit' },
    );
    child.on('exit', (exitCode) => done(exitCode ?? 1));
  });
  const started = standIn.invocations().length;
  console.log(`self-test-tunnel-local: the stand-in cloudflared was started ${started} time(s)`);
  process.exitCode = code === 0 && started > 0 ? 0 : 1;
} finally {
  await proxy.stop();
  await standIn.cleanup();
}

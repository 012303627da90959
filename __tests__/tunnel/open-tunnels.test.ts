import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { cloudflaredEnv, stopLeftover } from '../../src/tunnel/cloudflared-process.js';

import { type DriverRun, isGone, SHORT_BOUNDS, TunnelWorld } from '../helpers/tunnels.js';
import type { StandInMode } from '../simulator/cloudflared-stand-in.js';
import { listen } from '../simulator/loopback.js';

/**
 * openTunnels end to end: the job's app on loopback, the stand-in cloudflared from PATH, and the
 * public URL probed through the CONNECT proxy, as the runner would through the internet.
 */

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(
  mode: StandInMode = 'ok',
  app?: { https?: boolean; status?: number },
  wrapper = false,
): Promise<TunnelWorld> {
  const started = await TunnelWorld.start(mode, app, wrapper);
  cleanups.push(async () => {
    for (const { pid } of started.standIn.invocations()) if (!isGone(pid)) process.kill(pid, 'SIGKILL');
    await started.stop();
  });
  return started;
}

function track(run: DriverRun): DriverRun {
  cleanups.push(async () => {
    run.child.kill('SIGKILL');
    await run.exited;
    for (const { pid } of run.events.flatMap((e) => (e.event === 'opened' ? e.tunnels : []))) {
      if (!isGone(pid)) process.kill(pid, 'SIGKILL');
    }
  });
  return run;
}

/** The pid of the one tunnel the run opened. */
async function onePid(run: DriverRun): Promise<number> {
  const { tunnels } = await run.next('opened');
  expect(tunnels).toHaveLength(1);
  return tunnels[0]?.pid as number;
}

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await listen(server);
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const UP_AT_ATTEMPT_2 = /^Tunnel to \S+ is up at \S+ \((\d+ ms|\d+\.\d s), attempt 2\)\.$/;

describe('openTunnels', () => {
  it('opens a quick tunnel whose public URL reaches the app, masked before it is printed, and stops it', async () => {
    const w = await world();
    const run = track(
      w.run(
        { origins: [w.app.origin], bounds: SHORT_BOUNDS, hold: true },
        w.env({ TUNNEL_ORIGIN_CERT: '/nowhere/cert.pem', tunnel_url: 'http://elsewhere:1' }),
      ),
    );
    const { tunnels } = await run.next('opened');
    expect(tunnels).toEqual([
      {
        localOrigin: w.app.origin,
        publicOrigin: expect.stringMatching(/^https:\/\/[a-z]+-[a-z]+-[a-z]+-\d+\.trycloudflare\.com$/),
        pid: expect.any(Number),
      },
    ]);
    const [{ publicOrigin, pid }] = tunnels as [(typeof tunnels)[0]];
    const host = new URL(publicOrigin).host;

    // Masked, URL and host name, before any line could print it.
    const firstMask = run.events.findIndex((e) => e.event === 'mask');
    const firstMention = run.events.findIndex((e) => JSON.stringify(e).includes(host) && e.event !== 'mask');
    expect(run.events.filter((e) => e.event === 'mask')).toEqual([
      { event: 'mask', secret: publicOrigin },
      { event: 'mask', secret: host },
    ]);
    expect(firstMask).toBeLessThan(firstMention);
    // cloudflared's own lines, the box with the URL among them, went to debug.
    expect(run.events[firstMention]).toEqual({
      event: 'debug',
      line: expect.stringMatching(/INF \| {2}https:/),
    });
    expect(run.logs).toEqual([
      `Using cloudflared from PATH (not checked: the action checks only the one it downloads): ${path.join(w.standIn.binDir, 'cloudflared')}`,
      expect.stringMatching(
        new RegExp(
          `^Tunnel to ${w.app.origin} is up at ${publicOrigin} \\((\\d+ ms|\\d+\\.\\d s), attempt 1\\)\\.$`,
        ),
      ),
    ]);

    // cloudflared's arguments; its own empty config; no TUNNEL_* variable reaches it.
    const [invocation] = w.standIn.invocations();
    expect(invocation).toEqual({
      pid,
      argv: [
        'tunnel',
        '--no-autoupdate',
        '--config',
        expect.stringMatching(/cloudflared-[^/]+\/config\.yml$/),
        '--metrics',
        expect.stringMatching(/^127\.0\.0\.1:\d+$/),
        '--grace-period',
        '1s',
        '--url',
        w.app.origin,
      ],
      env: expect.any(Array),
      config: '',
    });
    expect(invocation?.env.filter((name) => /^tunnel_/i.test(name))).toEqual([]);
    const configPath = invocation?.argv[3] as string;
    expect(existsSync(configPath)).toBe(true);

    // The action's own probe reached the app through the proxy and the tunnel.
    expect(w.app.seen.map((headers) => headers.host)).toEqual([`localhost:${w.app.port}`, host]);
    expect(w.proxy.connects.map((entry) => [entry.target, entry.status])).toEqual([[`${host}:443`, 200]]);

    expect(isGone(pid)).toBe(false);
    run.release();
    await run.next('stopped');
    expect(isGone(pid)).toBe(true);
    expect(existsSync(path.dirname(configPath))).toBe(false);
    expect(run.events.some((e) => e.event === 'down')).toBe(false);
  });

  it('cloudflared inherits only what a Go program needs: no credential of the step, TUNNEL_* or proxy', async () => {
    const w = await world();
    const env = w.env({
      'INPUT_API-KEY': 'secret',
      INPUT_NOTE: 'note',
      GITHUB_TOKEN: 'ghs_secret',
      ACTIONS_RUNTIME_TOKEN: 'runtime',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc',
      TUNNEL_TOKEN: 'token',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      LC_ALL: 'C.UTF-8',
    });
    const run = track(w.run({ origins: [w.app.origin], bounds: SHORT_BOUNDS }, env));
    await run.next('stopped');
    const expected = ['HOME', 'LANG', 'LC_ALL', 'PATH', 'TMPDIR'].filter((name) => name in env);
    expect(w.standIn.invocations()[0]?.env.sort()).toEqual(expected);
  });

  it('an https origin: --no-tls-verify, and a certificate the probe refuses still counts as listening', async () => {
    const w = await world('ok', { https: true });
    const run = track(w.run({ origins: [w.app.origin], bounds: SHORT_BOUNDS }));
    const { tunnels } = await run.next('opened');
    expect(tunnels).toHaveLength(1);
    expect(w.standIn.invocations()[0]?.argv).toContain('--no-tls-verify');
    // The only request the app saw is the public probe: the local one ended in the TLS handshake.
    expect(w.app.seen.map((headers) => headers.host)).toEqual([new URL(tunnels[0]?.publicOrigin ?? '').host]);
  });

  it("a public URL whose certificate is refused: the message says it is the tunnel's certificate", async () => {
    const w = await world();
    // The test CA, which signs the stand-in's trycloudflare.com names, not trusted.
    const run = track(
      w.run(
        { origins: [w.app.origin], bounds: { ...SHORT_BOUNDS, reachWaitMs: 400 } },
        w.env({ NODE_EXTRA_CA_CERTS: '' }),
      ),
    );
    const failed = await run.next('failed');
    expect(failed.message).toMatch(
      /the last one: its public URL did not reach the app within 400 ms \(last try: TLS error [A-Z_]+: the tunnel's certificate was not accepted\)/,
    );
  });

  it('an app that answers 503 locally counts as reached when the public URL answers 503 too', async () => {
    const w = await world('ok', { status: 503 });
    const run = track(w.run({ origins: [w.app.origin], bounds: SHORT_BOUNDS }));
    expect((await run.next('opened')).tunnels).toHaveLength(1);
  });

  it('nothing listening: fails once the wait for the origin is over, without starting cloudflared', async () => {
    const w = await world();
    const origin = `http://localhost:${await closedPort()}`;
    const run = track(w.run({ origins: [origin], bounds: SHORT_BOUNDS }));
    const failed = await run.next('failed');
    expect(failed).toEqual({
      event: 'failed',
      name: 'TunnelError',
      message: expect.stringMatching(
        new RegExp(
          `^Could not open a tunnel to ${origin}: nothing answered there within \\d+ ms \\(last try: network error ECONNREFUSED\\)\\. Start the app before this step, and check its port; see "Test the app your job starts" in the README\\.$`,
        ),
      ),
    });
    expect(run.logs).toContain(`Waiting for ${origin} to answer (up to 500 ms)…`);
    expect(w.standIn.invocations()).toEqual([]);
  });

  it('cloudflared missing: not on PATH, and the release host has no such asset', async () => {
    const w = await world();
    const releases = createServer((_, res) => {
      res.writeHead(404);
      res.end('Not Found');
    });
    await listen(releases);
    cleanups.push(() => new Promise((resolve) => releases.close(resolve)));
    const base = `http://127.0.0.1:${(releases.address() as { port: number }).port}/download`;
    const runner = await mkdtemp(path.join(os.tmpdir(), 'runner-'));
    cleanups.push(() => rm(runner, { recursive: true, force: true }));
    const env = w.env(
      { RUNNER_TEMP: path.join(runner, 'temp'), RUNNER_TOOL_CACHE: path.join(runner, 'cache') },
      false,
    );
    const run = track(
      w.run({ origins: [w.app.origin], bounds: SHORT_BOUNDS, install: { releaseBaseUrl: base } }, env),
    );
    const failed = await run.next('failed');
    expect(failed.message).toMatch(
      new RegExp(
        `^Could not open a tunnel to ${w.app.origin}: cloudflared is not on PATH, and the download of release \\S+ from ${base}/\\S+/cloudflared-linux-(amd64|arm64) failed: HTTP 404\\. Install cloudflared in an earlier step; see "Test the app your job starts" in the README\\.$`,
      ),
    );
    expect(w.standIn.invocations()).toEqual([]);
  });

  it('a cloudflared planted in the tool cache never runs: its sum is checked, and it is downloaded again', async () => {
    const w = await world();
    const runner = await mkdtemp(path.join(os.tmpdir(), 'runner-'));
    cleanups.push(() => rm(runner, { recursive: true, force: true }));
    // What an earlier job on a self-hosted runner could leave, as @actions/tool-cache lays it out.
    const cached = path.join(runner, 'cache', 'cloudflared', '2099.1.0', process.arch);
    const ran = path.join(runner, 'planted-ran');
    await mkdir(cached, { recursive: true });
    await writeFile(path.join(cached, 'cloudflared'), `#!/bin/sh\ntouch '${ran}'\n`, { mode: 0o755 });
    await writeFile(`${cached}.complete`, '');
    const file = `cloudflared-linux-${process.arch === 'x64' ? 'amd64' : process.arch}`;
    const requests: string[] = [];
    const releases = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.end(w.standIn.script);
    });
    await listen(releases);
    cleanups.push(() => new Promise((resolve) => releases.close(resolve)));
    const base = `http://127.0.0.1:${(releases.address() as { port: number }).port}/download`;
    const sha256 = createHash('sha256').update(w.standIn.script).digest('hex');
    const release = { version: '2099.1.0', assets: { [`linux-${process.arch}`]: { file, sha256 } } };
    const env = w.env(
      { RUNNER_TEMP: path.join(runner, 'temp'), RUNNER_TOOL_CACHE: path.join(runner, 'cache') },
      false,
    );
    const run = track(
      w.run(
        { origins: [w.app.origin], bounds: SHORT_BOUNDS, install: { releaseBaseUrl: base, release } },
        env,
      ),
    );
    await run.exited;
    expect(existsSync(ran)).toBe(false);
    expect(run.events.map((e) => e.event)).toContain('opened');
    expect(await readFile(path.join(cached, 'cloudflared'), 'utf8')).toBe(w.standIn.script);
    expect(requests).toEqual([`/download/2099.1.0/${file}`]);
    expect(run.logs.slice(0, 2)).toEqual([
      expect.stringMatching(
        /^The cloudflared 2099\.1\.0 in the tool cache is not the pinned one \(its SHA-256 is [0-9a-f]{64}\): deleted, and downloaded again\.$/,
      ),
      `Using cloudflared 2099.1.0 from the tool cache, its SHA-256 checked: ${path.join(cached, 'cloudflared')}`,
    ]);
  });

  it.each<[StandInMode, Partial<typeof SHORT_BOUNDS>, RegExp]>([
    [
      'exit-early',
      {},
      /the last one: cloudflared exited before the tunnel was up \(exit code 1\): "failed to request quick Tunnel: Post "https:\/\/api\.trycloudflare\.com\/tunnel": dial tcp: lookup api\.trycloudflare\.com on 127\.0\.0\.53:53: no such host"\. Quick tunnels need outbound UDP 7844 \(or TCP 7844\), HTTPS to api\.trycloudflare\.com and DNS, and cloudflared does not use https_proxy: see "Test the app your job starts" in the README\.$/,
    ],
    [
      'no-url',
      // Long enough for the stand-in, a Node process, to print its first line on a loaded machine.
      { urlWaitMs: 1_000 },
      /the last one: cloudflared printed no tunnel URL within 1\.0 s \(its last line: "[^"]+"\)\. Quick tunnels need /,
    ],
    [
      'unreachable',
      { reachWaitMs: 400 },
      /the last one: its public URL did not reach the app within 400 ms \(last try: the proxy http:\/\/127\.0\.0\.1:\d+ refused the tunnel to [a-z]+-[a-z]+-[a-z]+-\d+\.trycloudflare\.com:443 with HTTP 502 Bad Gateway\)\. Quick tunnels need /,
    ],
    [
      'refuse-429',
      {},
      /the last one: Cloudflare refused to create a quick tunnel with HTTP 429 Too Many Requests \(it limits them per address, and runners share addresses\)\. Re-run the job later; see "Test the app your job starts" in the README\.$/,
    ],
  ])('%s: fails after 3 attempts, each with a fresh cloudflared, and says why', async (mode, bounds, why) => {
    const w = await world(mode);
    const run = track(w.run({ origins: [w.app.origin], bounds: { ...SHORT_BOUNDS, ...bounds } }));
    const failed = await run.next('failed');
    expect(failed.message).toMatch(
      new RegExp(
        `^Could not open a tunnel to ${w.app.origin} \\(3 attempts, each with a fresh cloudflared\\); `,
      ),
    );
    expect(failed.message).toMatch(why);
    const invocations = w.standIn.invocations();
    expect(invocations).toHaveLength(3);
    expect(invocations.every(({ pid }) => isGone(pid))).toBe(true);
    expect(run.logs.filter((line) => line.startsWith(`Tunnel to ${w.app.origin}, attempt `))).toEqual([
      expect.stringMatching(/^Tunnel to \S+, attempt 1 of 3: .*\. Trying again with a fresh cloudflared\.$/),
      expect.stringMatching(/^Tunnel to \S+, attempt 2 of 3: .*\. Trying again with a fresh cloudflared\.$/),
    ]);
  });

  it('reachable only from the 2nd attempt: opens with a fresh cloudflared, the first one stopped', async () => {
    const w = await world('reachable-from-2nd');
    // Long enough that the 2nd attempt reaches the app on a loaded machine; the 1st waits it out.
    const run = track(w.run({ origins: [w.app.origin], bounds: { ...SHORT_BOUNDS, reachWaitMs: 1_500 } }));
    const { tunnels } = await run.next('opened');
    const [first, second] = w.standIn.invocations();
    expect(tunnels).toEqual([expect.objectContaining({ pid: second?.pid })]);
    expect(run.logs).toContainEqual(expect.stringMatching(UP_AT_ATTEMPT_2));
    expect(isGone(first?.pid as number)).toBe(true);
    expect(run.logs).toContainEqual(
      expect.stringMatching(
        /^Tunnel to \S+, attempt 1 of 3: its public URL did not reach the app within 1\.5 s \(last try: .*HTTP 502 Bad Gateway\)\. Trying again with a fresh cloudflared\.$/,
      ),
    );
    // Each attempt masked its own URL.
    expect(run.events.filter((e) => e.event === 'mask')).toHaveLength(4);
  });

  it('a connection that never registers over QUIC: the next attempt uses --protocol http2', async () => {
    const w = await world('quic-blocked');
    const run = track(w.run({ origins: [w.app.origin], bounds: { ...SHORT_BOUNDS, reachWaitMs: 1_500 } }));
    const { tunnels } = await run.next('opened');
    expect(tunnels).toHaveLength(1);
    expect(run.logs).toContainEqual(expect.stringMatching(UP_AT_ATTEMPT_2));
    const [quic, http2] = w.standIn.invocations();
    expect(quic?.argv).not.toContain('--protocol');
    expect(http2?.argv.slice(-4)).toEqual(['--protocol', 'http2', '--url', w.app.origin]);
    expect(run.logs).toContainEqual(
      expect.stringMatching(
        /^Tunnel to \S+, attempt 1 of 3: cloudflared did not connect to Cloudflare within 1\.5 s over QUIC \(UDP 7844\) \("Failed to dial a quic connection error=.*"\)\. Trying again with a fresh cloudflared over HTTP\/2 \(TCP 7844\)\.$/,
      ),
    );
  });

  it('two origins, one with nothing listening: the other tunnel is stopped and the error names the first', async () => {
    const w = await world();
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const run = track(
      w.run({ origins: [w.app.origin, dead], bounds: { ...SHORT_BOUNDS, originWaitMs: 800 } }),
    );
    const failed = await run.next('failed');
    expect(failed.message).toMatch(new RegExp(`^Could not open a tunnel to ${dead}: nothing answered there`));
    await run.exited;
    const invocations = w.standIn.invocations();
    expect(invocations.every(({ pid }) => isGone(pid))).toBe(true);
  });

  it('a cloudflared that exits on its own while the tunnel is up is reported at once', async () => {
    const w = await world();
    const run = track(w.run({ origins: [w.app.origin], bounds: SHORT_BOUNDS, hold: true }));
    const pid = await onePid(run);
    process.kill(pid, 'SIGKILL');
    expect(await run.next('down')).toEqual({
      event: 'down',
      pid,
      message: expect.stringMatching(
        new RegExp(
          `^The tunnel to ${w.app.origin} is down: cloudflared exited \\(signal SIGKILL\\): ".*"\\. The service's tests can no longer reach the app\\.$`,
        ),
      ),
    });
  });

  it('stop() kills a cloudflared that ignores SIGTERM once the bound is over', async () => {
    const w = await world('ignore-sigterm');
    const run = track(w.run({ origins: [w.app.origin], bounds: { ...SHORT_BOUNDS, killAfterMs: 300 } }));
    const pid = await onePid(run);
    const { stopMs } = await run.next('stopped');
    expect(stopMs).toBeGreaterThanOrEqual(290);
    expect(isGone(pid)).toBe(true);
  });

  it('stop() ends the whole process group of a wrapper that runs cloudflared without exec, and nothing holds the driver open', async () => {
    const w = await world('ignore-sigterm', undefined, true);
    const run = track(w.run({ origins: [w.app.origin], bounds: SHORT_BOUNDS }));
    const wrapper = await onePid(run);
    const { stopMs } = await run.next('stopped');
    const [standIn] = w.standIn.invocations();
    expect(standIn?.pid).not.toBe(wrapper);
    expect([wrapper, standIn?.pid].map((pid) => isGone(pid as number))).toEqual([true, true]);
    // SIGTERM, then SIGKILL to the group once the bound is over (how long that takes is a figure of
    // the benchmark); the driver then exits by itself: no pipe or child keeps its Node alive.
    expect(stopMs).toBeGreaterThanOrEqual((SHORT_BOUNDS.killAfterMs as number) - 10);
    await run.exited;
    expect(run.child.exitCode).toBe(0);
  });
});

describe('cloudflaredEnv', () => {
  it('matches names case-insensitively on Windows only', () => {
    const env = {
      Path: 'C:\\bin',
      SYSTEMROOT: 'C:\\Windows',
      windir: 'C:\\Windows',
      Github_Token: 't',
      lc_all: 'C',
    };
    expect(Object.keys(cloudflaredEnv(env, 'win32'))).toEqual(['Path', 'SYSTEMROOT', 'windir', 'lc_all']);
    expect(Object.keys(cloudflaredEnv(env, 'linux'))).toEqual(['windir']);
  });
});

describe('stopLeftover', () => {
  /** A main step killed with its tunnel up: the driver dies, its cloudflared stays. */
  async function leftover(mode: StandInMode, w?: TunnelWorld): Promise<number> {
    w ??= await world(mode);
    const run = track(w.run({ origins: [w.app.origin], bounds: SHORT_BOUNDS, hold: true }));
    const pid = await onePid(run);
    run.child.kill('SIGKILL');
    await run.exited;
    expect(isGone(pid)).toBe(false);
    return pid;
  }

  it('stops the cloudflared a killed main step left running', async () => {
    const pid = await leftover('ok');
    expect(await stopLeftover([pid], { killAfterMs: 1000 })).toEqual([{ pid, outcome: 'stopped' }]);
    expect(isGone(pid)).toBe(true);
    expect(await stopLeftover([pid])).toEqual([{ pid, outcome: 'gone' }]);
  });

  it('kills one that ignores SIGTERM', async () => {
    const pid = await leftover('ignore-sigterm');
    expect(await stopLeftover([pid], { killAfterMs: 300 })).toEqual([{ pid, outcome: 'killed' }]);
    expect(isGone(pid)).toBe(true);
  });

  it('kills the whole group of a wrapper that runs cloudflared without exec', async () => {
    const w = await world('ignore-sigterm', undefined, true);
    const wrapper = await leftover('ignore-sigterm', w);
    const standIn = w.standIn.invocations()[0]?.pid as number;
    expect(isGone(standIn)).toBe(false);
    expect(await stopLeftover([wrapper], { killAfterMs: 300 })).toEqual([
      { pid: wrapper, outcome: 'killed' },
    ]);
    expect([isGone(wrapper), isGone(standIn)]).toEqual([true, true]);
  });

  it('leaves alone a pid that is not a cloudflared, and ids that are not a process', async () => {
    // Detached, it leads a process group of its own, as a cloudflared the action started does.
    const sleeper = spawn('sleep', ['30'], { detached: true });
    cleanups.push(() => sleeper.kill('SIGKILL'));
    const pid = sleeper.pid as number;
    expect(await stopLeftover([pid, 0, -1, process.pid])).toEqual([
      { pid, outcome: 'not cloudflared' },
      { pid: 0, outcome: 'not cloudflared' },
      { pid: -1, outcome: 'not cloudflared' },
      { pid: process.pid, outcome: 'not cloudflared' },
    ]);
    expect(isGone(pid)).toBe(false);
  });
});

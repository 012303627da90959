import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { nodeBinaries, postStepEnv, runDist } from '../helpers/dist-runner.js';
import { suiteInputs } from '../helpers/inputs.js';
import { annotations, visibleLog } from '../helpers/runner-files.js';
import { isGone, TunnelWorld } from '../helpers/tunnels.js';
import type { StandInMode } from '../simulator/cloudflared-stand-in.js';
import { Simulator } from '../simulator/simulator.js';
import { CA_CERT_PATH } from '../simulator/tls-front.js';

/**
 * `tunnel`, dist/index.js run as the runner runs it: the job's app on loopback, the stand-in
 * cloudflared first on PATH, the CONNECT proxy standing for the internet (it resolves the stand-in's
 * trycloudflare.com names), and the simulator, which "runs the tests" by fetching each URL of the
 * options through that proxy, as the service would from the cloud.
 */
describe.each(nodeBinaries())('tunnel, dist/index.js on $name', ({ bin }) => {
  let world: TunnelWorld;
  let sim: Simulator;
  afterEach(async () => {
    await sim?.stop();
    await world?.stop();
  });

  async function start(mode: StandInMode = 'ok', statuses?: string[]): Promise<void> {
    world = await TunnelWorld.start(mode);
    sim = await Simulator.start({
      app: { proxy: world.proxy.url, ca: readFileSync(CA_CERT_PATH), timeoutMs: 2000 },
      suite: statuses ? { statuses } : {},
    });
  }

  const env = () => ({
    ...world.standIn.env({}),
    PATH: [world.standIn.binDir, process.env.PATH ?? ''].join(path.delimiter),
    NODE_EXTRA_CA_CERTS: CA_CERT_PATH,
    https_proxy: world.proxy.url,
  });

  const inputs = (extra: Record<string, string> = {}) =>
    suiteInputs(sim, {
      tunnel: world.app.origin,
      options: JSON.stringify({
        urlReplacements: [
          { original: 'https://www.example.com', replacement: `${world.app.origin}/checkout?step=2` },
        ],
      }),
      ...extra,
    });

  const pids = () => world.standIn.invocations().map((invocation) => invocation.pid);

  test('the service reaches the job’s app through the tunnel; the URL is masked; cloudflared is gone after', async () => {
    await start();
    const result = await runDist(inputs(), { node: bin, env: env() });

    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true', total: '1', passed: '1' });
    const started = sim.requests.find((request) => request.operation === 'startSuiteRun');
    const body = started?.body as { urlReplacements?: { replacement: string }[] } | undefined;
    const replacement = body?.urlReplacements?.[0];
    expect(replacement?.replacement).toMatch(
      /^https:\/\/[a-z]+-[a-z]+-[a-z]+-\d+\.trycloudflare\.com\/checkout\?step=2$/,
    );
    // the simulator fetched it through the proxy, and the app answered
    expect(world.app.seen.some((headers) => /trycloudflare\.com$/.test(String(headers.host)))).toBe(true);
    const publicHost = new URL(replacement?.replacement ?? '').host;
    for (const text of [visibleLog(result.stdout), result.summary, JSON.stringify(result.outputs)]) {
      expect(text).not.toContain(publicHost);
    }
    expect(result.stdout).toMatch(/Tunnel to http:\/\/localhost:\d+ is up at \*\*\*/);
    // The tunnel's start-up, cloudflared's own lines among them, is folded; the line saying it is up
    // and the run's lines come after.
    const log = visibleLog(result.stdout);
    const fold = /^::group::Opening a Cloudflare quick tunnel to (\S+)\n([\s\S]*?)^::endgroup::\n(.*)$/m.exec(
      log,
    );
    expect(fold?.[1]).toBe(world.app.origin);
    expect(fold?.[3]).toMatch(/^Tunnel to \S+ is up at \*\*\*/);
    expect(fold?.[2]).toMatch(/^[^:]\S* INF \|\s+\*\*\*\s+\|/m);
    expect(log.match(/^::(end)?group::/gm)).toHaveLength(2);
    expect(log.indexOf('::endgroup::')).toBeLessThan(log.indexOf('Starting a test suite run'));
    expect(result.summary).toContain('through a Cloudflare quick tunnel to http://localhost:');
    expect(pids()).toHaveLength(1);
    expect(pids().every(isGone)).toBe(true);
    expect(result.state.tunnelPids).toBe('');
  });

  test('two suites in one step share one tunnel, and no cloudflared is left running', async () => {
    await start();
    const result = await runDist(inputs({ 'test-suite-id': 'suite-1\nsuite-2' }), { node: bin, env: env() });
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true', total: '2', passed: '2' });
    const replacements = sim.requests
      .filter((request) => request.operation === 'startSuiteRun')
      .map(
        (request) =>
          (request.body as { urlReplacements: { replacement: string }[] }).urlReplacements[0]?.replacement,
      );
    expect(replacements).toHaveLength(2);
    expect(new Set(replacements).size).toBe(1);
    expect(pids()).toHaveLength(1);
    expect(pids().every(isGone)).toBe(true);
  });

  test('nothing listening at the origin: a message naming it, and no run started', async () => {
    await start();
    const stopped = inputs({ timeout: '2s' });
    const origin = world.app.origin;
    await world.app.stop();
    const result = await runDist(stopped, { node: bin, env: env() });

    expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
    const [message] = annotations(result.stdout, 'error');
    expect(message).toContain(`Could not open a tunnel to ${origin}: nothing answered there within 2.0 s`);
    expect(message).toContain('No run was started.');
    // The failure is not folded away with the tunnel's start-up.
    expect(result.stdout).toMatch(/^::endgroup::$[\s\S]*^::error/m);
    expect(sim.count('startSuiteRun')).toBe(0);
    expect(world.standIn.invocations()).toEqual([]);
  });

  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s while the tunnel is up: the step ends, and so does cloudflared',
    async (signal) => {
      await start('ok', ['RUNNING']);
      const result = await runDist(inputs(), {
        node: bin,
        env: env(),
        onSpawn: (child: ChildProcess) => {
          void sim.waitForRequests('getSuiteRunStatus', 2).then(() => child.kill(signal));
        },
      });

      expect(result.outputs).toMatchObject({ status: 'CANCELLED' });
      expect(result.signal).toBeNull();
      expect(pids()).toHaveLength(1);
      expect(pids().every(isGone)).toBe(true);
    },
  );

  test('cloudflared dying mid-run: one warning at once, and the run is still waited for and reported', async () => {
    await start('ok', ['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'FINISHED']);
    // once the service has tested the app through the tunnel
    void sim.waitForRequests('getSuiteRunStatus', 2).then(() => {
      for (const pid of pids()) process.kill(pid, 'SIGKILL');
    });
    const result = await runDist(inputs({ 'poll-interval': '200ms' }), { node: bin, env: env() });

    const warnings = annotations(result.stdout, 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(world.app.origin);
    expect(result.outputs).toMatchObject({ status: 'PASSED', total: '1' });
    expect(sim.count('getSuiteRunResult')).toBe(1);
  });

  test('a killed main step: the post step stops the cloudflared it left running', async () => {
    await start('ok', ['RUNNING']);
    const main = await runDist(inputs(), {
      node: bin,
      env: env(),
      onSpawn: (child: ChildProcess) => {
        void sim.waitForRequests('getSuiteRunStatus', 1).then(() => child.kill('SIGKILL'));
      },
    });
    expect(main.signal).toBe('SIGKILL');
    const [pid] = pids();
    expect(main.state.tunnelPids).toBe(String(pid));
    expect(isGone(pid as number)).toBe(false);

    const post = await runDist(inputs(), { node: bin, env: { ...env(), ...postStepEnv(main.state) } });
    expect(post.code).toBe(0);
    expect(post.stdout).toContain(`Stopped cloudflared (process ${pid}), which the main step left running.`);
    expect(isGone(pid as number)).toBe(true);
  });
});

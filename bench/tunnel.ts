/**
 * The tunnel's cost, with the stand-in cloudflared (which prints its URL and registers as soon as
 * it runs, so what is left is the action's own work):
 *
 * - open: openTunnels called to resolved, for one local origin: the wait for the origin, finding
 *   cloudflared, its start, its URL, its registration and the public URL's probe through the proxy;
 * - the stand-in alone: spawn to its URL on stderr, the part a real cloudflared would take anyway;
 * - stop: stop() called to cloudflared gone (pid checked) and its config removed.
 *
 * Each round runs openTunnels in a fresh driver process (see __tests__/helpers/tunnels.ts).
 * `npx tsx bench/tunnel.ts [rounds]` prints the figures; bench.ts can call measureTunnel.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runDist } from '../__tests__/helpers/dist-runner.js';
import { isGone, SHORT_BOUNDS, TunnelWorld } from '../__tests__/helpers/tunnels.js';
import { DEFAULT_API_KEY, Simulator } from '../__tests__/simulator/simulator.js';
import { CA_CERT_PATH } from '../__tests__/simulator/tls-front.js';
import { median, ms, percentile, table } from './stats.js';

export interface TunnelFigures {
  rounds: number;
  openMs: number[];
  standInUrlMs: number[];
  stopMs: number[];
}

export async function measureTunnel(rounds = 11): Promise<TunnelFigures> {
  const figures: TunnelFigures = { rounds, openMs: [], standInUrlMs: [], stopMs: [] };
  const world = await TunnelWorld.start('ok');
  try {
    for (let round = 0; round < rounds; round++) {
      const run = world.run({ origins: [world.app.origin], bounds: SHORT_BOUNDS });
      const opened = await run.next('opened');
      const { stopMs } = await run.next('stopped');
      await run.exited;
      const pid = opened.tunnels[0]?.pid as number;
      if (!isGone(pid)) throw new Error(`cloudflared ${pid} outlived stop()`);
      figures.openMs.push(opened.openMs);
      figures.stopMs.push(stopMs);

      const started = performance.now();
      const alone = await world.standIn.start(world.app.origin);
      figures.standInUrlMs.push(performance.now() - started);
      alone.child.kill('SIGKILL');
    }
  } finally {
    await world.stop();
  }
  return figures;
}

export function tunnelTable(figures: TunnelFigures): string {
  const row = (name: string, values: number[]) => [name, ms(median(values)), ms(percentile(values, 90))];
  const added = figures.openMs.map((open, i) => open - (figures.standInUrlMs[i] ?? 0));
  return table(
    ['one tunnel, stand-in cloudflared', 'median', 'p90'],
    [
      row('openTunnels called to ready', figures.openMs),
      row('the stand-in alone: spawn to its URL printed', figures.standInUrlMs),
      row('what the action adds (the difference)', added),
      row('stop() called to cloudflared gone', figures.stopMs),
    ],
  );
}

export interface TunnelStepFigures {
  /** Spawn to the start request, without a tunnel and with one. */
  startPlainMs: number[];
  startTunnelMs: number[];
  /** From the request for the run's result (the run is over) to cloudflared gone. */
  goneMs: number[];
}

/**
 * dist/index.js, a suite run of the job's app: spawn to the start request at the simulator, with
 * one tunnel (the stand-in) and without, and from the run's end to cloudflared gone.
 */
export async function measureTunnelStep(bin: string, rounds = 7): Promise<TunnelStepFigures> {
  const figures: TunnelStepFigures = { startPlainMs: [], startTunnelMs: [], goneMs: [] };
  const world = await TunnelWorld.start('ok');
  const sim = await Simulator.start({ app: { proxy: world.proxy.url, ca: readFileSync(CA_CERT_PATH) } });
  const env = {
    ...world.standIn.env({}),
    PATH: [world.standIn.binDir, process.env.PATH ?? ''].join(path.delimiter),
    NODE_EXTRA_CA_CERTS: CA_CERT_PATH,
    https_proxy: world.proxy.url,
  };
  const inputs = (tunnel: boolean) => ({
    'api-key': DEFAULT_API_KEY,
    'base-url': sim.url,
    'test-suite-id': 'bench',
    'poll-interval': '50ms',
    ...(tunnel ? { tunnel: world.app.origin } : {}),
    options: JSON.stringify({
      urlReplacements: [{ original: 'https://www.example.com', replacement: `${world.app.origin}/` }],
    }),
  });
  /** Spawn to the start request of the one run this step starts. */
  const startOf = async (tunnel: boolean): Promise<number> => {
    const before = sim.requests.length;
    let gone: Promise<number> | undefined;
    const result = await runDist(inputs(tunnel), {
      node: bin,
      env,
      onSpawn: () => {
        if (!tunnel) return;
        const invocations = world.standIn.invocations().length;
        gone = sim.waitForRequests('getSuiteRunResult', sim.count('getSuiteRunResult') + 1).then(async () => {
          const over = performance.now();
          const pid = world.standIn.invocations()[invocations]?.pid as number;
          while (!isGone(pid)) await new Promise((resolve) => setImmediate(resolve));
          return performance.now() - over;
        });
      },
    });
    // Without a tunnel the service cannot reach the app: only the start's timing counts then.
    if (tunnel && result.outputs.status !== 'PASSED')
      throw new Error(`the run did not pass:\n${result.stdout}`);
    if (gone) figures.goneMs.push(await gone);
    const start = sim.requests.slice(before).find((request) => request.operation === 'startSuiteRun');
    return (start?.at ?? Number.NaN) - result.spawnedAt;
  };
  try {
    for (let round = 0; round < rounds; round++) {
      figures.startPlainMs.push(await startOf(false));
      figures.startTunnelMs.push(await startOf(true));
    }
  } finally {
    await sim.stop();
    await world.stop();
  }
  return figures;
}

export function tunnelStepTable(figures: TunnelStepFigures): string {
  const row = (name: string, values: number[]) => [
    name,
    ms(median(values), 0),
    ms(percentile(values, 90), 0),
  ];
  return table(
    ["dist/index.js, a suite run of the job's app", 'median', 'p90'],
    [
      row('spawn to the start request, no tunnel', figures.startPlainMs),
      row('spawn to the start request, one tunnel', figures.startTunnelMs),
      row(
        'what the tunnel adds to the start',
        figures.startTunnelMs.map((tunnel, i) => tunnel - (figures.startPlainMs[i] ?? 0)),
      ),
      row("the run's end (its result asked for) to cloudflared gone", figures.goneMs),
    ],
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await measureTunnel(Number(process.argv[2] ?? '11'));
  console.log(`${figures.rounds} rounds, Node ${process.version}, ${process.platform} ${process.arch}`);
  console.log(tunnelTable(figures));
}

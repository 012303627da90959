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
import { pathToFileURL } from 'node:url';
import { isGone, SHORT_BOUNDS, TunnelWorld } from '../__tests__/helpers/tunnels.js';
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await measureTunnel(Number(process.argv[2] ?? '11'));
  console.log(`${figures.rounds} rounds, Node ${process.version}, ${process.platform} ${process.arch}`);
  console.log(tunnelTable(figures));
}

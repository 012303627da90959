import { createServer } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { pollUntil } from '../../src/service/poll.js';
import { openTunnels, reachedApp, TUNNEL_BOUNDS } from '../../src/tunnel/open.js';
import { virtualClock as sharedVirtualClock } from '../helpers/virtual-clock.js';
import { StandInCloudflared } from '../simulator/cloudflared-stand-in.js';
import { listen } from '../simulator/loopback.js';

/** Time that moves only when something sleeps. */
const virtualClock = () => sharedVirtualClock(() => 0.5, 1_000_000);

describe('pollUntil', () => {
  it('tries every interval until the deadline, the last try at the deadline', async () => {
    const clock = virtualClock();
    const tries: number[] = [];
    const start = clock.now();
    const result = await pollUntil(
      async () => {
        tries.push(clock.now() - start);
        return undefined;
      },
      { clock, waitMs: 2_500, intervalMs: 1_000 },
    );
    expect(result).toBeUndefined();
    expect(clock.slept).toEqual([1_000, 1_000, 500]);
    expect(tries.length).toBe(4);
  });

  it('returns the first value given', async () => {
    const clock = virtualClock();
    let n = 0;
    const result = await pollUntil(async () => (++n === 3 ? 'up' : undefined), {
      clock,
      waitMs: 60_000,
      intervalMs: 1_000,
    });
    expect(result).toBe('up');
    expect(clock.slept).toEqual([1_000, 1_000]);
  });

  it('stops when the signal aborts', async () => {
    const clock = virtualClock();
    const abort = new AbortController();
    let n = 0;
    const result = await pollUntil(
      async () => {
        if (++n === 2) abort.abort();
        return undefined;
      },
      { clock, waitMs: 60_000, intervalMs: 1_000, signal: abort.signal },
    );
    expect(result).toBeUndefined();
    expect(n).toBe(2);
  });
});

describe('reachedApp', () => {
  it.each([
    [200, undefined, true],
    [404, 200, true],
    [403, 200, true],
    [530, 200, false],
    [502, undefined, false],
    [502, 502, true],
    [503, 200, false],
  ])('public %i, local %s: %s', (status, local, reached) => {
    expect(reachedApp(status, local)).toBe(reached);
  });
});

describe('the documented wait for a local origin', () => {
  it('is 60 s by default, on the injected clock, and starts no cloudflared', async () => {
    const server = createServer();
    await listen(server);
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const standIn = await StandInCloudflared.create();
    const clock = virtualClock();
    const lines: string[] = [];
    // cloudflared is looked for on this process's PATH: the stand-in's, so that nothing is downloaded.
    const saved = process.env.PATH;
    process.env.PATH = standIn.env().PATH;
    try {
      await expect(
        openTunnels([`http://127.0.0.1:${port}`], {
          log: (line) => lines.push(line),
          logUp: (line) => lines.push(line),
          mask: () => undefined,
          clock,
        }),
      ).rejects.toThrow(
        `Could not open a tunnel to http://127.0.0.1:${port}: nothing answered there within 1 min (last try: network error ECONNREFUSED).`,
      );
      expect(TUNNEL_BOUNDS.originWaitMs).toBe(60_000);
      expect(clock.slept.reduce((sum, ms) => sum + ms, 0)).toBe(60_000);
      expect(clock.slept.every((ms) => ms === TUNNEL_BOUNDS.pollIntervalMs)).toBe(true);
      expect(lines).toContain(`Waiting for http://127.0.0.1:${port} to answer (up to 1 min)…`);
      expect(standIn.invocations()).toEqual([]);
    } finally {
      process.env.PATH = saved;
      await standIn.cleanup();
    }
  });
});

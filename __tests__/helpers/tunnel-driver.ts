/**
 * Opens tunnels with src/tunnel in a process of its own, for the tests and the benchmark: the
 * public URL is probed over TLS with the test CA, which Node trusts only through
 * NODE_EXTRA_CA_CERTS, read at start-up. Run it with `node --import tsx` (see tunnels.ts).
 *
 * Argument: JSON `{origins, bounds?, install?, hold?}`. Writes one JSON event per line to stdout:
 * log, mask, debug (cloudflared's lines), down (a tunnel's cloudflared exited on its own), opened (the tunnels), failed (the
 * error), stopped (once every tunnel is stopped, with the time it took). With `hold`, it waits for
 * a line on stdin before stopping the tunnels; without, it stops them at once.
 */

import { createInterface } from 'node:readline';
import type { InstallOptions } from '../../src/tunnel/cloudflared-binary.js';
import { openTunnels, type TunnelBounds } from '../../src/tunnel/open.js';

interface DriverInput {
  origins: string[];
  bounds?: Partial<TunnelBounds>;
  install?: InstallOptions;
  hold?: boolean;
}

const emit = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);
const input = JSON.parse(process.argv[2] ?? '{}') as DriverInput;

const started = performance.now();
try {
  const tunnels = await openTunnels(input.origins, {
    log: (line) => emit({ event: 'log', line }),
    logUp: (line) => emit({ event: 'log', line }),
    mask: (secret) => emit({ event: 'mask', secret }),
    debug: (line) => emit({ event: 'debug', line }),
    onUnexpectedExit: (tunnel, message) => emit({ event: 'down', pid: tunnel.pid, message }),
    bounds: input.bounds,
    install: input.install,
  });
  emit({
    event: 'opened',
    openMs: performance.now() - started,
    tunnels: tunnels.map(({ stop: _, ...tunnel }) => tunnel),
  });
  if (input.hold) {
    const lines = createInterface({ input: process.stdin });
    await new Promise((resolve) => lines.once('line', resolve));
    lines.close();
  }
  const stopping = performance.now();
  await Promise.all(tunnels.map((tunnel) => tunnel.stop()));
  emit({ event: 'stopped', stopMs: performance.now() - stopping });
} catch (error) {
  emit({ event: 'failed', name: (error as Error).name, message: (error as Error).message });
}

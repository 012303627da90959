import type { Settings } from '../inputs/settings.js';
import { debug, group, info, warning } from '../runner/log.js';
import { registerSecret } from '../runner/secrets.js';
import { saveState } from '../runner/step.js';
import { line, safe } from '../runner/text.js';
import type { TunnelError } from '../tunnel/open.js';
import { rewriteTunnelUrls } from '../tunnel/rewrite.js';
import type { RunContext } from './signals.js';
import { STATE } from './state.js';

/** The targets as the runs see them (their local URLs rewritten), or why the tunnels did not open. */
export type RunTunnels =
  | { kind: 'open'; targets: Settings[]; note: string; close(): Promise<void> }
  | { kind: 'failed'; error: TunnelError };

/**
 * One tunnel per origin for the whole step, open before the first suite run starts, whatever the
 * number of suites. Their pids are left for the post step, in case the main step is killed before
 * `close()`.
 */
export async function openRunTunnels(targets: Settings[], { clock, job }: RunContext): Promise<RunTunnels> {
  const origins = [
    ...new Set(targets.flatMap(({ target }) => (target.kind === 'suite-start' ? target.tunnelOrigins : []))),
  ];
  const [settings] = targets as [Settings];
  if (origins.length === 0) return { kind: 'open', targets, note: '', close: async () => {} };
  // Loaded only for a tunnel: @actions/tool-cache and the process handling cost every other run nothing.
  const open = await import('../tunnel/open.js');
  const { originWaitMs, urlWaitMs, reachWaitMs } = open.TUNNEL_BOUNDS;
  // Folded: read when it fails, and its failure is reported after the fold. cloudflared's lines go in it, then to
  // debug; each tunnel's line once it is up comes after it, where a reader sees it.
  let opening = true;
  const up: string[] = [];
  const tunnels = await group(line`Opening a Cloudflare quick tunnel to ${origins.join(', ')}`, () =>
    open
      .openTunnels(origins, {
        log: (text) => info(line`${text}`),
        logUp: (text) => up.push(text),
        mask: registerSecret,
        debug: (text) => (opening ? info : debug)(line`${text}`),
        onUnexpectedExit: (_, message) => warning(line`${message}`),
        signal: job.signal,
        clock,
        // The waits never outlast the step's own time-out.
        bounds: {
          originWaitMs: Math.min(originWaitMs, settings.timeoutMs),
          urlWaitMs: Math.min(urlWaitMs, settings.timeoutMs),
          reachWaitMs: Math.min(reachWaitMs, settings.timeoutMs),
        },
      })
      .catch((error: unknown) => (error instanceof open.TunnelError ? error : Promise.reject(error)))
      .finally(() => {
        opening = false;
      }),
  );
  if (tunnels instanceof open.TunnelError) return { kind: 'failed', error: tunnels };
  for (const text of up) info(line`${text}`);
  saveState(STATE.tunnelPids, tunnels.map((tunnel) => tunnel.pid).join(' '));
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= Promise.all(tunnels.map((tunnel) => tunnel.stop())).then(() =>
      saveState(STATE.tunnelPids, ''),
    );
    return closing;
  };
  // A cancelled job has seconds left: the tunnels go at once, beside the run's cancel.
  job.signal.addEventListener('abort', () => void close(), { once: true });
  const publicOrigins = new Map(tunnels.map((tunnel) => [tunnel.localOrigin, tunnel.publicOrigin]));
  const tunnelled = targets.map((each) => {
    const { target } = each;
    if (target.kind !== 'suite-start') return each;
    return { ...each, target: { ...target, options: rewriteTunnelUrls(target.options, publicOrigins) } };
  });
  const local = tunnels.map((tunnel) => safe(tunnel.localOrigin)).join(', ');
  return {
    kind: 'open',
    targets: tunnelled,
    note: `The run tested this job's own app through a Cloudflare quick tunnel to ${local}.`,
    close,
  };
}

/** Only warns: the job's outcome is the main step's. */
export async function stopLeftoverTunnels(state: (name: string) => string): Promise<void> {
  const pids = state(STATE.tunnelPids).split(' ').filter(Boolean).map(Number);
  if (pids.length === 0) return;
  const { stopLeftover } = await import('../tunnel/cloudflared-process.js');
  for (const { pid, outcome } of await stopLeftover(pids)) {
    if (outcome === 'still running')
      warning(line`Could not stop cloudflared (process ${pid}): it is still running.`);
    else if (outcome !== 'gone' && outcome !== 'not cloudflared')
      info(line`Stopped cloudflared (process ${pid}), which the main step left running.`);
  }
}

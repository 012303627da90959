import { formatDuration } from '../runner/duration.js';
import { type Clock, systemClock } from '../service/clock.js';
import { pollUntil } from '../service/poll.js';
import { send, type TimeLimit, TransportError } from '../service/transport.js';
import { type InstallOptions, locateCloudflared } from './cloudflared-binary.js';
import type { QuickTunnelLog } from './cloudflared-log.js';
import { CloudflaredProcess, KILL_AFTER_MS, type LogSink } from './cloudflared-process.js';

/** Each with a fresh cloudflared: quick tunnels sometimes fail to register or never route. */
const ATTEMPTS = 3;

/** Worst case per origin: 60 s, then 3 × (30 + 60 s) and two pauses of 2 s. */
export const TUNNEL_BOUNDS = {
  /** Apps take a while to boot. */
  originWaitMs: 60_000,
  /** Per attempt, for the URL: cloudflared gives Cloudflare's API 15 s. */
  urlWaitMs: 30_000,
  /** Per attempt, once the URL is known: registering and routing both take this long at worst. */
  reachWaitMs: 60_000,
  pollIntervalMs: 1_000,
  requestTimeoutMs: 5_000,
  retryPauseMs: 2_000,
  killAfterMs: KILL_AFTER_MS,
};
export type TunnelBounds = typeof TUNNEL_BOUNDS;

/** cloudflared's log is read into memory: looked at this often, a line counts the moment it is printed. */
const LOG_CHECK_MS = 50;

interface OpenTunnelsOptions extends LogSink {
  log: (line: string) => void;
  /** Where the line saying a tunnel is up goes. */
  logUp: (line: string) => void;
  onUnexpectedExit?: (tunnel: Tunnel, message: string) => void;
  signal?: AbortSignal;
  clock?: Clock;
  bounds?: Partial<TunnelBounds>;
  install?: InstallOptions;
}

export interface Tunnel {
  localOrigin: string;
  /** Masked: it opens the app to anyone who has it. */
  publicOrigin: string;
  /** cloudflared's, for the post step to stop it if the main step could not. */
  pid: number;
  stop(): Promise<void>;
}

/** `cancelled`: the job's cancellation or another origin's failure stopped it. */
export class TunnelError extends Error {
  override name = 'TunnelError';
  cancelled = false;
}

const README = 'see "Test the app your job starts" in the README';

/** Why one attempt gave no working tunnel: the next attempt goes over TCP after `notRegistered`. */
type AttemptFailure = { clause: string; rateLimited?: boolean; notRegistered?: boolean };

const quoted = (line: string) => `"${line.length > 300 ? `${line.slice(0, 297)}...` : line}"`;

function exited(how: string, { lastError, lastLine }: QuickTunnelLog): string {
  const last = lastError ?? lastLine;
  return `(${how})${last ? `: ${quoted(last)}` : ''}`;
}

function cancelled(origin: string): TunnelError {
  const message = `Stopped opening the tunnel to ${origin}: the job is being cancelled.`;
  return Object.assign(new TunnelError(message), { cancelled: true });
}

type ProbeResult = { status: number } | { failure: string; tls: boolean };

/** Through `https_proxy` when one is set (never for loopback); `peer` names the server in a message about its certificate. */
async function probe(url: string, limit: TimeLimit, signal: AbortSignal, peer: string): Promise<ProbeResult> {
  try {
    return { status: (await send(url, 'GET', {}, undefined, limit, signal, peer)).status };
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return { failure: error.describe(`no answer within ${limit.ms} ms`), tls: error.kind === 'tls' };
  }
}

/** Cloudflare's edge and cloudflared answer 5xx for a name that does not route yet: such a status counts only when the app answered it locally. */
export function reachedApp(status: number, localStatus: number | undefined): boolean {
  return status < 500 || status === localStatus;
}

/** All at once: resolves once every public URL reaches its app, or stops whatever it started and throws. */
export async function openTunnels(origins: readonly string[], options: OpenTunnelsOptions) {
  const opening = new Opening(options);
  const settled = await Promise.allSettled(
    origins.map((origin) =>
      opening.open(origin).catch((error: unknown) => {
        opening.callOff.abort();
        throw error;
      }),
    ),
  );
  const opened = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (opened.length === origins.length) return opened;
  await Promise.all(opened.map((tunnel) => tunnel.stop()));
  const failures = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  // The first failure that is not the others being called off.
  throw failures.find((error) => !(error instanceof TunnelError && error.cancelled)) ?? failures[0];
}

class Opening {
  readonly clock: Clock;
  readonly bounds: TunnelBounds;
  readonly startedAt: number;
  /** Aborted once an origin has failed, so that the others are called off. */
  readonly callOff = new AbortController();
  readonly signal: AbortSignal;
  /** Looked for while the apps boot. */
  readonly binary: Promise<string | { missing: string }>;

  constructor(readonly options: OpenTunnelsOptions) {
    this.clock = options.clock ?? systemClock;
    this.bounds = { ...TUNNEL_BOUNDS, ...options.bounds };
    this.startedAt = this.clock.now();
    this.signal = AbortSignal.any([this.callOff.signal, ...(options.signal ? [options.signal] : [])]);
    this.binary = locateCloudflared(options.install, options.log);
  }

  poll<T>(attempt: () => Promise<T | undefined>, waitMs: number, intervalMs = this.bounds.pollIntervalMs) {
    return pollUntil(attempt, { clock: this.clock, waitMs, intervalMs, signal: this.signal });
  }

  async open(origin: string): Promise<Tunnel> {
    const { options, bounds, signal } = this;
    const localStatus = await this.waitForOrigin(origin);
    const binary = await this.binary;
    if (typeof binary !== 'string') {
      const message = `Could not open a tunnel to ${origin}: cloudflared is not on PATH, and ${binary.missing}. Install cloudflared in an earlier step; ${README}.`;
      throw new TunnelError(message);
    }
    let http2 = false;
    for (let number = 1; ; number++) {
      if (signal.aborted) throw cancelled(origin);
      const cloudflared = await CloudflaredProcess.start(binary, origin, http2, this.clock, options);
      const outcome = await this.reach(cloudflared, localStatus, http2);
      if (typeof outcome === 'string') return this.tunnelOf(cloudflared, origin, outcome, number);
      await cloudflared.stop(bounds.killAfterMs);
      if (signal.aborted) throw cancelled(origin);
      if (number === ATTEMPTS) {
        const hint = outcome.rateLimited
          ? `Re-run the job later; ${README}.`
          : `Quick tunnels need outbound UDP 7844 (or TCP 7844), HTTPS to api.trycloudflare.com and DNS, and cloudflared does not use https_proxy: ${README}.`;
        const message = `Could not open a tunnel to ${origin} (${ATTEMPTS} attempts, each with a fresh cloudflared); the last one: ${outcome.clause}. ${hint}`;
        throw new TunnelError(message);
      }
      // QUIC has no fallback of its own: after a connection that never registered, try TCP.
      http2 ||= outcome.notRegistered === true;
      options.log(
        `Tunnel to ${origin}, attempt ${number} of ${ATTEMPTS}: ${outcome.clause}. Trying again with a fresh cloudflared${http2 ? ' over HTTP/2 (TCP 7844)' : ''}.`,
      );
      await this.clock.sleep(bounds.retryPauseMs, signal);
    }
  }

  /** Any answer counts, a refused certificate too: the app is listening. */
  private async waitForOrigin(origin: string): Promise<number | undefined> {
    const { bounds, signal, options } = this;
    let lastTry = '';
    const answer = await this.poll(async () => {
      const limit = { ms: bounds.requestTimeoutMs, clock: this.clock };
      const result = await probe(`${origin}/`, limit, signal, "the app's");
      if ('status' in result || result.tls) return { status: 'status' in result ? result.status : undefined };
      if (lastTry === '')
        options.log(`Waiting for ${origin} to answer (up to ${formatDuration(bounds.originWaitMs)})…`);
      lastTry = result.failure;
      return undefined;
    }, bounds.originWaitMs);
    if (signal.aborted) throw cancelled(origin);
    if (answer) return answer.status;
    const message = `Could not open a tunnel to ${origin}: nothing answered there within ${formatDuration(bounds.originWaitMs)} (last try: ${lastTry}). Start the app before this step, and check its port; ${README}.`;
    throw new TunnelError(message);
  }

  private tunnelOf(cloudflared: CloudflaredProcess, origin: string, publicOrigin: string, attempt: number) {
    const stop = () => cloudflared.stop(this.bounds.killAfterMs);
    const tunnel = { localOrigin: origin, publicOrigin, pid: cloudflared.pid as number, stop };
    const took = formatDuration(this.clock.now() - this.startedAt);
    this.options.logUp(`Tunnel to ${origin} is up at ${publicOrigin} (${took}, attempt ${attempt}).`);
    void cloudflared.exited.then((exit) => {
      if (cloudflared.stopping) return;
      const message = `The tunnel to ${origin} is down: cloudflared exited ${exited(exit, cloudflared.log)}. The service's tests can no longer reach the app.`;
      this.options.onUnexpectedExit?.(tunnel, message);
    });
    return tunnel;
  }

  private async reach(
    cloudflared: CloudflaredProcess,
    localStatus: number | undefined,
    http2: boolean,
  ): Promise<string | AttemptFailure> {
    const { bounds, signal, clock, options } = this;
    const watch = <T>(look: () => Promise<T | undefined>, waitMs: number, intervalMs = LOG_CHECK_MS) =>
      this.poll(async () => endedEarly(cloudflared) ?? look(), waitMs, intervalMs);
    const publicOrigin = await watch(async () => cloudflared.log.publicOrigin, bounds.urlWaitMs);
    if (typeof publicOrigin !== 'string') {
      const { lastLine } = cloudflared.log;
      const last = lastLine ? ` (its last line: ${quoted(lastLine)})` : '';
      const clause = `cloudflared printed no tunnel URL within ${formatDuration(bounds.urlWaitMs)}${last}`;
      return publicOrigin ?? { clause };
    }
    const reachBy = clock.now() + bounds.reachWaitMs;
    const within = formatDuration(bounds.reachWaitMs);
    // Not asked for before its connection registers: a name that does not resolve yet can be cached as such.
    const registered = await watch(async () => cloudflared.log.registered || undefined, bounds.reachWaitMs);
    if (registered !== true) {
      const { lastError } = cloudflared.log;
      const over = http2 ? 'HTTP/2 (TCP 7844)' : 'QUIC (UDP 7844)';
      const clause = `cloudflared did not connect to Cloudflare within ${within} over ${over}${lastError ? ` (${quoted(lastError)})` : ''}`;
      return registered ?? endedEarly(cloudflared) ?? { clause, notRegistered: true };
    }
    let lastProbe = 'none';
    const tryPublicUrl = async () => {
      const limit = { ms: bounds.requestTimeoutMs, clock };
      const result = await probe(`${publicOrigin}/`, limit, signal, "the tunnel's");
      if ('status' in result && reachedApp(result.status, localStatus)) return publicOrigin;
      lastProbe = 'status' in result ? `HTTP ${result.status}` : result.failure;
      options.debug?.(`The public URL did not reach the app yet: ${lastProbe}`);
      return undefined;
    };
    const reached = await watch(tryPublicUrl, Math.max(0, reachBy - clock.now()), bounds.pollIntervalMs);
    const clause = `its public URL did not reach the app within ${within} (last try: ${lastProbe})`;
    return reached ?? endedEarly(cloudflared) ?? { clause };
  }
}

function endedEarly({ log, exit }: CloudflaredProcess): AttemptFailure | undefined {
  if (log.rateLimited) {
    const clause =
      'Cloudflare refused to create a quick tunnel with HTTP 429 Too Many Requests (it limits them per address, and runners share addresses)';
    return { clause, rateLimited: true };
  }
  if (exit) return { clause: `cloudflared exited before the tunnel was up ${exited(exit, log)}` };
  return undefined;
}

import os from 'node:os';
import { type Clock, systemClock } from '../service/clock.js';
import { type InstallOptions, locateCloudflared } from './cloudflared-binary.js';
import { CloudflaredProcess, type Exit } from './cloudflared-process.js';
import { pollUntil, probe, reachedApp } from './probe.js';
import { KILL_AFTER_MS } from './process-group.js';

/** Attempts per origin, each with a fresh cloudflared: quick tunnels sometimes fail to register or never route. */
export const TUNNEL_ATTEMPTS = 3;

/** Worst case per origin: 60 s, then 3 × (30 + 60 s) and two pauses of 2 s. */
export const TUNNEL_BOUNDS = {
  /** For each local origin to answer, before cloudflared starts: apps take a while to boot. */
  originWaitMs: 60_000,
  /** Per attempt: for cloudflared to print its public URL (it gives Cloudflare's API 15 s). */
  urlWaitMs: 30_000,
  /** Per attempt, once the URL is known: for the connection to register and the URL to reach the app. */
  reachWaitMs: 60_000,
  pollIntervalMs: 1_000,
  requestTimeoutMs: 5_000,
  retryPauseMs: 2_000,
  killAfterMs: KILL_AFTER_MS,
};
export type TunnelBounds = typeof TUNNEL_BOUNDS;

export interface OpenTunnelsOptions {
  /** Progress, one line at a time (core.info). */
  log: (line: string) => void;
  /** Called with each public URL, and its host name, as soon as it is known and before anything could print it. */
  mask: (secret: string) => void;
  /** cloudflared's own lines (core.debug); a line holding a URL comes after the URL's mask. */
  debug?: (line: string) => void;
  /** Called once, at once, when the cloudflared of a tunnel that was up exits without stop(). */
  onUnexpectedExit?: (tunnel: Tunnel, message: string) => void;
  /** What cloudflared may inherit (see cloudflaredEnv); process.env by default. PATH is searched in process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where cloudflared's empty config goes: RUNNER_TEMP on a runner; the system's temporary folder by default. */
  workDir?: string;
  signal?: AbortSignal;
  clock?: Clock;
  bounds?: Partial<TunnelBounds>;
  install?: InstallOptions;
}

export interface Tunnel {
  localOrigin: string;
  /** `https://<name>.trycloudflare.com`: masked, since it opens the app to anyone who has it. */
  publicOrigin: string;
  /** cloudflared's, for the post step to stop it if the main step could not. */
  pid: number;
  /** From the call of openTunnels to this tunnel reaching the app. */
  elapsedMs: number;
  attempts: number;
  /** Stops cloudflared (SIGTERM, a kill if it lingers) and removes its config; resolves once it is gone. */
  stop(): Promise<void>;
}

/** Its message names the origin; `cancelled` when the job's cancellation stopped it. */
export class TunnelError extends Error {
  override name = 'TunnelError';
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
  }
}

const README = 'see "Test the app your job starts" in the README';

/** Why one attempt gave no working tunnel: the next attempt goes over TCP after `notRegistered`. */
type AttemptFailure = { clause: string; rateLimited?: boolean; notRegistered?: boolean };

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** A line of cloudflared's log in a message: quoted, and cut when long. */
const quoted = (line: string) => `"${line.length > 300 ? `${line.slice(0, 297)}...` : line}"`;

function exited(exit: Exit, lastLine: string | undefined): string {
  const how =
    exit.error !== undefined
      ? `it could not be started: ${exit.error}`
      : exit.code !== null
        ? `exit code ${exit.code}`
        : `signal ${exit.signal}`;
  return `(${how})${lastLine ? `: ${quoted(lastLine)}` : ''}`;
}

function cancelled(origin: string): TunnelError {
  return new TunnelError(`Stopped opening the tunnel to ${origin}: the job is being cancelled.`, true);
}

interface Context {
  options: OpenTunnelsOptions;
  bounds: TunnelBounds;
  clock: Clock;
  signal: AbortSignal;
  startedAt: number;
  binary: Promise<string | { missing: string }>;
  poll<T>(attempt: () => Promise<T | undefined>, waitMs: number, intervalMs?: number): Promise<T | undefined>;
}

/** cloudflared's log is read into memory: looked at this often, a line counts the moment it is printed. */
const LOG_CHECK_MS = 50;

/**
 * Opens a quick tunnel to each of `origins` (checked local origins, e.g. `http://localhost:3000`),
 * all at once. Resolves once every public URL reaches its app; otherwise stops whatever it started
 * and throws a TunnelError whose message names the origin and what happened.
 */
export async function openTunnels(
  origins: readonly string[],
  options: OpenTunnelsOptions,
): Promise<Tunnel[]> {
  const clock = options.clock ?? systemClock;
  const bounds = { ...TUNNEL_BOUNDS, ...options.bounds };
  const firstFailure = new AbortController();
  const signal = AbortSignal.any([firstFailure.signal, ...(options.signal ? [options.signal] : [])]);
  const context: Context = {
    options,
    bounds,
    clock,
    signal,
    startedAt: clock.now(),
    // While the apps boot.
    binary: locateCloudflared(options.install, options.log),
    poll: (attempt, waitMs, intervalMs = bounds.pollIntervalMs) =>
      pollUntil(attempt, { clock, waitMs, intervalMs, signal }),
  };
  const settled = await Promise.allSettled(
    origins.map((origin) =>
      openTunnel(origin, context).catch((error: unknown) => {
        firstFailure.abort();
        throw error;
      }),
    ),
  );
  const failures = settled.flatMap((result) =>
    result.status === 'rejected' ? [result.reason as unknown] : [],
  );
  const opened = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failures.length === 0) return opened;
  await Promise.all(opened.map((tunnel) => tunnel.stop()));
  // The first failure that is not the others being called off.
  throw failures.find((error) => !(error instanceof TunnelError && error.cancelled)) ?? failures[0];
}

/** Waits for the origin, then starts a fresh cloudflared until one reaches the app, TUNNEL_ATTEMPTS times at most. */
async function openTunnel(origin: string, context: Context): Promise<Tunnel> {
  const { options, bounds, clock, signal } = context;
  const localStatus = await waitForOrigin(origin, context);
  const binary = await context.binary;
  if (typeof binary !== 'string') {
    const message = `Could not open a tunnel to ${origin}: cloudflared is not on PATH, and ${binary.missing}. Install cloudflared in an earlier step; ${README}.`;
    throw new TunnelError(message);
  }
  if (signal.aborted) throw cancelled(origin);
  let http2 = false;
  for (let number = 1; ; number++) {
    const cloudflared = await startCloudflared({ binary, origin, http2 }, context);
    const outcome = await reach(cloudflared, { localStatus, http2 }, context);
    if (typeof outcome === 'string') {
      const tunnel = tunnelOf(cloudflared, origin, outcome, number, context);
      options.log(
        `Tunnel to ${origin} is up at ${tunnel.publicOrigin} (${seconds(tunnel.elapsedMs)}, attempt ${number}).`,
      );
      return tunnel;
    }
    await cloudflared.stop(bounds.killAfterMs);
    if (signal.aborted) throw cancelled(origin);
    if (number === TUNNEL_ATTEMPTS) {
      const hint = outcome.rateLimited
        ? `Re-run the job later; ${README}.`
        : `Quick tunnels need outbound UDP 7844 (or TCP 7844), HTTPS to api.trycloudflare.com and DNS, and cloudflared does not use https_proxy: ${README}.`;
      const message = `Could not open a tunnel to ${origin} (${TUNNEL_ATTEMPTS} attempts, each with a fresh cloudflared); the last one: ${outcome.clause}. ${hint}`;
      throw new TunnelError(message);
    }
    // QUIC has no fallback of its own: after a connection that never registered, try TCP.
    http2 ||= outcome.notRegistered === true;
    options.log(
      `Tunnel to ${origin}, attempt ${number} of ${TUNNEL_ATTEMPTS}: ${outcome.clause}. Trying again with a fresh cloudflared${http2 ? ' over HTTP/2 (TCP 7844)' : ''}.`,
    );
    await clock.sleep(bounds.retryPauseMs, signal);
    if (signal.aborted) throw cancelled(origin);
  }
}

/** Waits for `origin` to answer any HTTP request (a refused certificate counts); the status it answered. */
async function waitForOrigin(
  origin: string,
  { bounds, signal, options, poll }: Context,
): Promise<number | undefined> {
  let lastTry = '';
  const answer = await poll(async () => {
    const result = await probe(`${origin}/`, bounds.requestTimeoutMs, signal);
    if ('status' in result || result.tls) return { status: 'status' in result ? result.status : undefined };
    if (lastTry === '')
      options.log(`Waiting for ${origin} to answer (up to ${seconds(bounds.originWaitMs)})…`);
    lastTry = result.failure;
    return undefined;
  }, bounds.originWaitMs);
  if (signal.aborted) throw cancelled(origin);
  if (answer) return answer.status;
  const message = `Could not open a tunnel to ${origin}: nothing answered there within ${seconds(bounds.originWaitMs)} (last try: ${lastTry}). Start the app before this step, and check its port; ${README}.`;
  throw new TunnelError(message);
}

/** The tunnel of a cloudflared that reached the app; an exit without stop() is reported. */
function tunnelOf(
  cloudflared: CloudflaredProcess,
  origin: string,
  publicOrigin: string,
  attempts: number,
  context: Context,
): Tunnel {
  const tunnel: Tunnel = {
    localOrigin: origin,
    publicOrigin,
    pid: cloudflared.pid as number,
    elapsedMs: context.clock.now() - context.startedAt,
    attempts,
    stop: () => cloudflared.stop(context.bounds.killAfterMs),
  };
  void cloudflared.exited.then((exit) => {
    if (cloudflared.stopping) return;
    const { lastError, lastLine } = cloudflared.log;
    const message = `The tunnel to ${origin} is down: cloudflared exited ${exited(exit, lastError ?? lastLine)}. The service's tests can no longer reach the app.`;
    context.options.onUnexpectedExit?.(tunnel, message);
  });
  return tunnel;
}

/** A cloudflared whose public URL is masked as soon as a line names it, before that line is passed on. */
function startCloudflared(
  command: { binary: string; origin: string; http2: boolean },
  { options, clock }: Context,
): Promise<CloudflaredProcess> {
  let masked = false;
  const { workDir = os.tmpdir(), env = process.env } = options;
  return CloudflaredProcess.start({ ...command, workDir, env }, clock, (line, log) => {
    if (log.publicOrigin && !masked) {
      masked = true;
      options.mask(log.publicOrigin);
      options.mask(new URL(log.publicOrigin).host);
    }
    options.debug?.(line);
  });
}

/** Why cloudflared can give no tunnel any more, if so: Cloudflare refused one, or it exited. */
function endedEarly({ log, exit }: CloudflaredProcess): AttemptFailure | undefined {
  if (log.rateLimited) {
    const clause =
      'Cloudflare refused to create a quick tunnel with HTTP 429 Too Many Requests (it limits them per address, and runners share addresses)';
    return { clause, rateLimited: true };
  }
  if (exit)
    return {
      clause: `cloudflared exited before the tunnel was up ${exited(exit, log.lastError ?? log.lastLine)}`,
    };
  return undefined;
}

/**
 * The public origin once it reaches the app, or why not. The log is the one source of the URL: the
 * line that names it is the line to mask.
 */
async function reach(
  cloudflared: CloudflaredProcess,
  { localStatus, http2 }: { localStatus: number | undefined; http2: boolean },
  { bounds, signal, poll, clock, options }: Context,
): Promise<string | AttemptFailure> {
  const publicOrigin = await poll(
    async () => endedEarly(cloudflared) ?? cloudflared.log.publicOrigin,
    bounds.urlWaitMs,
    LOG_CHECK_MS,
  );
  if (typeof publicOrigin !== 'string') {
    const { lastLine } = cloudflared.log;
    const last = lastLine ? ` (its last line: ${quoted(lastLine)})` : '';
    return (
      publicOrigin ?? {
        clause: `cloudflared printed no tunnel URL within ${seconds(bounds.urlWaitMs)}${last}`,
      }
    );
  }
  let lastProbe = 'none';
  const reachBy = clock.now() + bounds.reachWaitMs;
  // Not asked for before its connection registers: a name that does not resolve yet can be cached as such.
  const registering = await poll(
    async () => endedEarly(cloudflared) ?? (cloudflared.log.registered || undefined),
    bounds.reachWaitMs,
    LOG_CHECK_MS,
  );
  const reachedOnce = async () => {
    const early = endedEarly(cloudflared);
    if (early) return early;
    const result = await probe(`${publicOrigin}/`, bounds.requestTimeoutMs, signal);
    if ('status' in result && reachedApp(result.status, localStatus)) return publicOrigin;
    lastProbe = 'status' in result ? `HTTP ${result.status}` : result.failure;
    options.debug?.(`The public URL did not reach the app yet: ${lastProbe}`);
    return undefined;
  };
  const outcome =
    registering === true ? await poll(reachedOnce, Math.max(0, reachBy - clock.now())) : registering;
  const { registered, lastError } = cloudflared.log;
  const within = seconds(bounds.reachWaitMs);
  const early = outcome ?? endedEarly(cloudflared);
  if (early) return early;
  if (registered)
    return { clause: `its public URL did not reach the app within ${within} (last try: ${lastProbe})` };
  const over = http2 ? 'HTTP/2 (TCP 7844)' : 'QUIC (UDP 7844)';
  const clause = `cloudflared did not connect to Cloudflare within ${within} over ${over}${lastError ? ` (${quoted(lastError)})` : ''}`;
  return { clause, notRegistered: true };
}

import { rm } from 'node:fs/promises';
import os from 'node:os';
import { type Clock, systemClock } from '../service/clock.js';
import {
  CLOUDFLARED_RELEASE,
  findOnPath,
  type InstallOptions,
  installCloudflared,
} from './cloudflared-binary.js';
import { publicOriginFromMetrics, type QuickTunnelLog } from './cloudflared-log.js';
import {
  CloudflaredProcess,
  cloudflaredArgs,
  cloudflaredEnv,
  emptyConfig,
  freePort,
} from './cloudflared-process.js';
import {
  type AttemptFailure,
  attemptClause,
  attemptsFailedMessage,
  cancelledMessage,
  cloudflaredMissingMessage,
  nothingListeningMessage,
  seconds,
  tunnelDownMessage,
} from './failures.js';
import { describeProbe, fetchBody, pollUntil, probe, reachedApp } from './probe.js';
import { KILL_AFTER_MS } from './process-group.js';

/** Attempts per origin, each with a fresh cloudflared: quick tunnels sometimes fail to register or never route. */
export const TUNNEL_ATTEMPTS = 3;

export interface TunnelBounds {
  /** For each local origin to answer an HTTP request, before cloudflared starts: apps take a while to boot. */
  originWaitMs: number;
  /** Per attempt: for cloudflared to print its public URL (it gives Cloudflare's API 15 s). */
  urlWaitMs: number;
  /** Per attempt, once the URL is known: for the connection to register and the URL to reach the app. */
  reachWaitMs: number;
  /** Between two tries of a local origin, a metrics server or the public URL. */
  pollIntervalMs: number;
  /** Of each of those requests. */
  requestTimeoutMs: number;
  /** Between two attempts. */
  retryPauseMs: number;
  /** From SIGTERM to a kill, and from the kill to giving up. */
  killAfterMs: number;
}

/** Worst case per origin: 60 s, then 3 × (30 + 60 s) and two pauses of 2 s. */
export const TUNNEL_BOUNDS: Readonly<TunnelBounds> = {
  originWaitMs: 60_000,
  urlWaitMs: 30_000,
  reachWaitMs: 60_000,
  pollIntervalMs: 1_000,
  requestTimeoutMs: 5_000,
  retryPauseMs: 2_000,
  killAfterMs: KILL_AFTER_MS,
};

export interface OpenTunnelsOptions {
  /** Progress, one line at a time (core.info). */
  log: (line: string) => void;
  /** Called with each public URL, and its host name, as soon as it is known and before anything could print it. */
  mask: (secret: string) => void;
  /** cloudflared's own lines (core.debug); a line holding a URL comes after the URL's mask. */
  debug?: (line: string) => void;
  /** Called once, at once, when the cloudflared of a tunnel that was up exits without stop(). */
  onUnexpectedExit?: (tunnel: Tunnel, message: string) => void;
  /** Where to look for cloudflared (PATH) and what it may inherit (see cloudflaredEnv); process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** Where cloudflared's empty config goes: RUNNER_TEMP on a runner; the system's temporary folder by default. */
  workDir?: string;
  signal?: AbortSignal;
  clock?: Clock;
  bounds?: Partial<TunnelBounds>;
  install?: InstallOptions;
}

export interface Tunnel {
  /** The origin as given, e.g. `http://localhost:3000`. */
  localOrigin: string;
  /** `https://<name>.trycloudflare.com`: masked, since it opens the app to anyone who has it. */
  publicOrigin: string;
  /** cloudflared's process id, for the post step to stop it if the main step could not. */
  pid: number;
  /** From the call of openTunnels to this tunnel reaching the app. */
  elapsedMs: number;
  /** The attempts it took (1 to TUNNEL_ATTEMPTS). */
  attempts: number;
  /** Stops cloudflared (SIGTERM, a kill if it lingers) and removes its config; resolves once it is gone. */
  stop(): Promise<void>;
}

export class TunnelError extends Error {
  override name = 'TunnelError';
  constructor(
    message: string,
    readonly origin: string,
    /** True when the job's cancellation stopped it. */
    readonly cancelled = false,
  ) {
    super(message);
  }
}

interface Context {
  options: OpenTunnelsOptions;
  bounds: TunnelBounds;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  startedAt: number;
  binary: Promise<string | { missing: string }>;
}

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
  const env = options.env ?? process.env;
  const firstFailure = new AbortController();
  const context: Context = {
    options,
    bounds: { ...TUNNEL_BOUNDS, ...options.bounds },
    clock,
    env,
    signal: AbortSignal.any([firstFailure.signal, ...(options.signal ? [options.signal] : [])]),
    startedAt: clock.now(),
    binary: locateCloudflared(env, options),
  };
  const settled = await Promise.allSettled(
    origins.map((origin) =>
      openTunnel(origin, context).catch((error: unknown) => {
        firstFailure.abort();
        throw error;
      }),
    ),
  );
  const opened = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failures = settled.flatMap((result) =>
    result.status === 'rejected' ? [result.reason as unknown] : [],
  );
  if (failures.length === 0) return opened;
  await Promise.all(opened.map((tunnel) => tunnel.stop()));
  // The first failure that is not the others being called off.
  throw failures.find((error) => !(error instanceof TunnelError && error.cancelled)) ?? failures[0];
}

async function locateCloudflared(
  env: NodeJS.ProcessEnv,
  options: OpenTunnelsOptions,
): Promise<string | { missing: string }> {
  const onPath = await findOnPath(env);
  if (onPath) {
    // The job's own choice: the pinned sums are of one release, which it need not be.
    options.log(
      `Using cloudflared from PATH (not checked: the action checks only the one it downloads): ${onPath}`,
    );
    return onPath;
  }
  const version = (options.install?.release ?? CLOUDFLARED_RELEASE).version;
  try {
    const binary = await installCloudflared(options.install, options.log);
    options.log(`Using cloudflared ${version} from the tool cache, its SHA-256 checked: ${binary}`);
    return binary;
  } catch (error) {
    return { missing: error instanceof Error ? error.message : String(error) };
  }
}

async function openTunnel(origin: string, context: Context): Promise<Tunnel> {
  const { options, bounds, clock, signal } = context;
  const localStatus = await waitForOrigin(origin, context);
  const binary = await context.binary;
  if (typeof binary !== 'string')
    throw new TunnelError(cloudflaredMissingMessage(origin, binary.missing), origin);

  let http2 = false;
  let last: AttemptFailure | undefined;
  for (let attempt = 1; attempt <= TUNNEL_ATTEMPTS; attempt++) {
    if (attempt > 1) await clock.sleep(bounds.retryPauseMs, signal);
    if (signal.aborted) throw new TunnelError(cancelledMessage(origin), origin, true);
    const result = await tryOnce(origin, binary, localStatus, http2, attempt, context);
    if ('tunnel' in result) {
      const { publicOrigin, elapsedMs } = result.tunnel;
      options.log(
        `Tunnel to ${origin} is up at ${publicOrigin} (${seconds(elapsedMs)}, attempt ${attempt}).`,
      );
      return result.tunnel;
    }
    last = result.failure;
    // QUIC has no fallback of its own: after a connection that never registered, try TCP.
    if (last.kind === 'not-registered') http2 = true;
    if (attempt < TUNNEL_ATTEMPTS) {
      options.log(
        `Tunnel to ${origin}, attempt ${attempt} of ${TUNNEL_ATTEMPTS}: ${attemptClause(last)}. Trying again with a fresh cloudflared${http2 ? ' over HTTP/2 (TCP 7844)' : ''}.`,
      );
    }
  }
  throw new TunnelError(attemptsFailedMessage(origin, TUNNEL_ATTEMPTS, last as AttemptFailure), origin);
}

/** Waits for `origin` to answer any HTTP request (a refused certificate counts); the status it answered. */
async function waitForOrigin(origin: string, context: Context): Promise<number | undefined> {
  const { bounds, clock, signal, options } = context;
  const started = clock.now();
  let lastTry = '';
  let tries = 0;
  const answer = await pollUntil(
    async () => {
      const result = await probe(`${origin}/`, bounds.requestTimeoutMs, signal);
      if ('status' in result) return { status: result.status };
      if (result.tls) return { status: undefined };
      if (++tries === 1)
        options.log(`Waiting for ${origin} to answer (up to ${bounds.originWaitMs / 1000} s)…`);
      lastTry = result.failure;
      return undefined;
    },
    { clock, deadline: started + bounds.originWaitMs, intervalMs: bounds.pollIntervalMs, signal },
  );
  if (signal.aborted) throw new TunnelError(cancelledMessage(origin), origin, true);
  if (!answer) throw new TunnelError(nothingListeningMessage(origin, clock.now() - started, lastTry), origin);
  return answer.status;
}

type AttemptResult = { tunnel: Tunnel } | { failure: AttemptFailure };

/** One cloudflared: up to its URL reaching the app, or stopped again with the reason. */
async function tryOnce(
  origin: string,
  binary: string,
  localStatus: number | undefined,
  http2: boolean,
  attempt: number,
  context: Context,
): Promise<AttemptResult> {
  const { options, bounds, clock, signal } = context;
  const { dir, configPath } = await emptyConfig(options.workDir ?? os.tmpdir());
  const metricsPort = await freePort();
  let masked: string | undefined;
  const maskOnce = (publicOrigin: string) => {
    if (masked === publicOrigin) return;
    masked = publicOrigin;
    options.mask(publicOrigin);
    options.mask(new URL(publicOrigin).host);
  };
  const cloudflared = CloudflaredProcess.start(
    binary,
    cloudflaredArgs({ origin, metricsPort, configPath, http2 }),
    cloudflaredEnv(context.env),
    clock,
    (line: string, log: QuickTunnelLog) => {
      if (log.publicOrigin) maskOnce(log.publicOrigin);
      options.debug?.(line);
    },
  );
  const stop = async () => {
    await cloudflared.stop(bounds.killAfterMs);
    await rm(dir, { recursive: true, force: true });
  };
  const failed = async (failure: AttemptFailure): Promise<AttemptResult> => {
    await stop();
    if (signal.aborted) throw new TunnelError(cancelledMessage(origin), origin, true);
    return { failure };
  };
  const endedEarly = (): AttemptFailure | undefined => {
    const { log, exit } = cloudflared;
    if (log.rateLimited) return { kind: 'rate-limited' };
    if (exit) return { kind: 'exited', exit, lastLine: log.lastError ?? log.lastLine };
    return undefined;
  };
  const gone = new AbortController();
  void cloudflared.exited.then(() => gone.abort());
  const whileRunning = AbortSignal.any([signal, gone.signal]);
  const metrics = `http://127.0.0.1:${metricsPort}`;

  const urlStarted = clock.now();
  await cloudflared.waitFor(
    (log) => log.publicOrigin !== undefined || log.rateLimited,
    bounds.urlWaitMs,
    signal,
  );
  let publicOrigin = cloudflared.log.publicOrigin;
  if (publicOrigin === undefined && !cloudflared.exit && !signal.aborted) {
    // Its log may have changed its layout: its metrics server names the tunnel too.
    const answer = await fetchBody(`${metrics}/quicktunnel`, bounds.requestTimeoutMs, signal);
    publicOrigin = answer === undefined ? undefined : publicOriginFromMetrics(answer);
    if (publicOrigin) maskOnce(publicOrigin);
  }
  const early = endedEarly();
  if (early) return failed(early);
  if (publicOrigin === undefined) {
    return failed({ kind: 'no-url', waitedMs: clock.now() - urlStarted, lastLine: cloudflared.log.lastLine });
  }

  const reachStarted = clock.now();
  const poll = {
    clock,
    deadline: reachStarted + bounds.reachWaitMs,
    intervalMs: bounds.pollIntervalMs,
    signal: whileRunning,
  };
  const registered = await pollUntil(async () => {
    if (cloudflared.log.registered) return true;
    const ready = await probe(`${metrics}/ready`, bounds.requestTimeoutMs, whileRunning);
    return 'status' in ready && ready.status === 200 ? true : undefined;
  }, poll);
  if (!registered) {
    return failed(
      endedEarly() ?? {
        kind: 'not-registered',
        waitedMs: clock.now() - reachStarted,
        http2,
        lastError: cloudflared.log.lastError,
      },
    );
  }
  let lastProbe = 'none';
  const reached = await pollUntil(async () => {
    const result = await probe(`${publicOrigin}/`, bounds.requestTimeoutMs, whileRunning);
    if ('status' in result && reachedApp(result.status, localStatus)) return true;
    lastProbe = describeProbe(result);
    return undefined;
  }, poll);
  if (!reached) {
    return failed(endedEarly() ?? { kind: 'unreachable', waitedMs: clock.now() - reachStarted, lastProbe });
  }

  const tunnel: Tunnel = {
    localOrigin: origin,
    publicOrigin,
    pid: cloudflared.pid as number,
    elapsedMs: clock.now() - context.startedAt,
    attempts: attempt,
    stop,
  };
  void cloudflared.exited.then((exit) => {
    if (!cloudflared.stopping) {
      options.onUnexpectedExit?.(
        tunnel,
        tunnelDownMessage(origin, exit, cloudflared.log.lastError ?? cloudflared.log.lastLine),
      );
    }
  });
  return { tunnel };
}

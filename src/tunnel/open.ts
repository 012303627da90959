import os from 'node:os';
import { type Clock, systemClock } from '../service/clock.js';
import {
  CLOUDFLARED_RELEASE,
  findOnPath,
  type InstallOptions,
  installCloudflared,
} from './cloudflared-binary.js';
import { CloudflaredProcess } from './cloudflared-process.js';
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
import { describeProbe, pollUntil, probe, reachedApp } from './probe.js';
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
  /** Between two looks at a local origin, cloudflared's log or the public URL. */
  pollIntervalMs: number;
  /** Of each request to a local origin or a public URL. */
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
  /** pollUntil every pollIntervalMs, until `signal` aborts. */
  poll<T>(attempt: () => Promise<T | undefined>, waitMs: number): Promise<T | undefined>;
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
  const bounds = { ...TUNNEL_BOUNDS, ...options.bounds };
  const firstFailure = new AbortController();
  const signal = AbortSignal.any([firstFailure.signal, ...(options.signal ? [options.signal] : [])]);
  const context: Context = {
    options,
    bounds,
    clock,
    env,
    signal,
    startedAt: clock.now(),
    // While the apps boot.
    binary: locateCloudflared(options),
    poll: (attempt, waitMs) =>
      pollUntil(attempt, { clock, waitMs, intervalMs: bounds.pollIntervalMs, signal }),
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

async function locateCloudflared(options: OpenTunnelsOptions): Promise<string | { missing: string }> {
  const onPath = await findOnPath();
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

function cancelled(origin: string): TunnelError {
  return new TunnelError(cancelledMessage(origin), origin, true);
}

async function openTunnel(origin: string, context: Context): Promise<Tunnel> {
  const { options, bounds, clock, signal } = context;
  const localStatus = await waitForOrigin(origin, context);
  const binary = await context.binary;
  if (typeof binary !== 'string')
    throw new TunnelError(cloudflaredMissingMessage(origin, binary.missing), origin);

  let http2 = false;
  let failure: AttemptFailure | undefined;
  for (let number = 1; number <= TUNNEL_ATTEMPTS; number++) {
    if (number > 1) await clock.sleep(bounds.retryPauseMs, signal);
    if (signal.aborted) throw cancelled(origin);
    const result = await tryOnce({ origin, binary, localStatus, http2, number }, context);
    if ('tunnel' in result) {
      const { publicOrigin, elapsedMs } = result.tunnel;
      options.log(`Tunnel to ${origin} is up at ${publicOrigin} (${seconds(elapsedMs)}, attempt ${number}).`);
      return result.tunnel;
    }
    failure = result.failure;
    // QUIC has no fallback of its own: after a connection that never registered, try TCP.
    if (failure.kind === 'not-registered') http2 = true;
    if (number < TUNNEL_ATTEMPTS) {
      options.log(
        `Tunnel to ${origin}, attempt ${number} of ${TUNNEL_ATTEMPTS}: ${attemptClause(failure)}. Trying again with a fresh cloudflared${http2 ? ' over HTTP/2 (TCP 7844)' : ''}.`,
      );
    }
  }
  throw new TunnelError(attemptsFailedMessage(origin, TUNNEL_ATTEMPTS, failure as AttemptFailure), origin);
}

/** Waits for `origin` to answer any HTTP request (a refused certificate counts); the status it answered. */
async function waitForOrigin(origin: string, context: Context): Promise<number | undefined> {
  const { bounds, signal, options } = context;
  let lastTry = '';
  const answer = await context.poll(async () => {
    const result = await probe(`${origin}/`, bounds.requestTimeoutMs, signal);
    if ('status' in result) return { status: result.status };
    if (result.tls) return { status: undefined };
    if (lastTry === '')
      options.log(`Waiting for ${origin} to answer (up to ${seconds(bounds.originWaitMs)})…`);
    lastTry = result.failure;
    return undefined;
  }, bounds.originWaitMs);
  if (signal.aborted) throw cancelled(origin);
  if (!answer) throw new TunnelError(nothingListeningMessage(origin, bounds.originWaitMs, lastTry), origin);
  return answer.status;
}

interface Attempt {
  origin: string;
  binary: string;
  /** What the app answered its local origin. */
  localStatus: number | undefined;
  http2: boolean;
  /** 1 to TUNNEL_ATTEMPTS. */
  number: number;
}

/** One cloudflared: started, its URL read from its log, the URL reaching the app; or stopped again, with the reason. */
async function tryOnce(
  attempt: Attempt,
  context: Context,
): Promise<{ tunnel: Tunnel } | { failure: AttemptFailure }> {
  const { options, bounds, clock, signal } = context;
  const { origin } = attempt;
  const cloudflared = await startCloudflared(attempt, context);
  const found = await publicOriginOf(cloudflared, context);
  const failure = typeof found === 'string' ? await reachApp(cloudflared, found, attempt, context) : found;
  if (failure) {
    await cloudflared.stop(bounds.killAfterMs);
    if (signal.aborted) throw cancelled(origin);
    return { failure };
  }
  const tunnel: Tunnel = {
    localOrigin: origin,
    publicOrigin: found as string,
    pid: cloudflared.pid as number,
    elapsedMs: clock.now() - context.startedAt,
    attempts: attempt.number,
    stop: () => cloudflared.stop(bounds.killAfterMs),
  };
  void cloudflared.exited.then((exit) => {
    if (cloudflared.stopping) return;
    const { lastError, lastLine } = cloudflared.log;
    options.onUnexpectedExit?.(tunnel, tunnelDownMessage(origin, exit, lastError ?? lastLine));
  });
  return { tunnel };
}

/** A cloudflared whose public URL is masked as soon as a line names it, before that line is passed on. */
function startCloudflared({ binary, origin, http2 }: Attempt, context: Context): Promise<CloudflaredProcess> {
  const { options } = context;
  let masked = false;
  const workDir = options.workDir ?? os.tmpdir();
  return CloudflaredProcess.start(
    { binary, origin, http2, workDir, env: context.env },
    context.clock,
    (line, log) => {
      if (log.publicOrigin && !masked) {
        masked = true;
        options.mask(log.publicOrigin);
        options.mask(new URL(log.publicOrigin).host);
      }
      options.debug?.(line);
    },
  );
}

/** Why cloudflared can give no tunnel any more, if so: Cloudflare refused one, or it exited. */
function endedEarly({ log, exit }: CloudflaredProcess): AttemptFailure | undefined {
  if (log.rateLimited) return { kind: 'rate-limited' };
  if (exit) return { kind: 'exited', exit, lastLine: log.lastError ?? log.lastLine };
  return undefined;
}

/**
 * The public origin, once cloudflared's log names it; or why not. The log is the one source: the
 * line that names it is the line that must be masked.
 */
async function publicOriginOf(
  cloudflared: CloudflaredProcess,
  context: Context,
): Promise<string | AttemptFailure> {
  const { urlWaitMs } = context.bounds;
  const found = await context.poll(
    async () => endedEarly(cloudflared) ?? cloudflared.log.publicOrigin,
    urlWaitMs,
  );
  return found ?? { kind: 'no-url', waitedMs: urlWaitMs, lastLine: cloudflared.log.lastLine };
}

/** Until `publicOrigin` reaches the app (undefined), or why it did not. */
async function reachApp(
  cloudflared: CloudflaredProcess,
  publicOrigin: string,
  { localStatus, http2 }: Attempt,
  context: Context,
): Promise<AttemptFailure | undefined> {
  const { bounds, signal } = context;
  let lastProbe = 'none';
  const outcome = await context.poll(async () => {
    const early = endedEarly(cloudflared);
    // Not asked for before its connection registers: a name that does not resolve yet can be cached as such.
    if (early || !cloudflared.log.registered) return early;
    const result = await probe(`${publicOrigin}/`, bounds.requestTimeoutMs, signal);
    if ('status' in result && reachedApp(result.status, localStatus)) return 'reached';
    lastProbe = describeProbe(result);
    return undefined;
  }, bounds.reachWaitMs);
  if (outcome === 'reached') return undefined;
  const { registered, lastError } = cloudflared.log;
  const waitedMs = bounds.reachWaitMs;
  return (
    outcome ??
    endedEarly(cloudflared) ??
    (registered
      ? { kind: 'unreachable', waitedMs, lastProbe }
      : { kind: 'not-registered', waitedMs, http2, lastError })
  );
}

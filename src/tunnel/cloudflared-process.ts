import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import * as path from 'node:path';
import type { Clock } from '../service/clock.js';
import { EMPTY_LOG, type QuickTunnelLog, readLogLine } from './cloudflared-log.js';
import { stopProcessGroup } from './process-group.js';

/** How long cloudflared may finish requests in flight once told to stop (its default, 30 s, is past the runner's budget). */
export const GRACE_PERIOD = '1s';

/** Once it has exited, how long its last lines may take to be read: a process it started may hold the pipes for good. */
const PIPE_DRAIN_MS = 200;

export interface CloudflaredCommand {
  origin: string;
  metricsPort: number;
  /** An empty config file of the action's own, so that no config.yml on the runner steers the tunnel. */
  configPath: string;
  /** TCP (HTTP/2) rather than QUIC, for networks that drop UDP 7844. */
  http2: boolean;
}

/** The arguments of a quick tunnel: long-standing flags only (an unknown one makes cloudflared print its usage and exit 0). */
export function cloudflaredArgs(command: CloudflaredCommand): string[] {
  return [
    'tunnel',
    '--no-autoupdate',
    '--config',
    command.configPath,
    '--metrics',
    `127.0.0.1:${command.metricsPort}`,
    '--grace-period',
    GRACE_PERIOD,
    ...(command.origin.startsWith('https:') ? ['--no-tls-verify'] : []),
    ...(command.http2 ? ['--protocol', 'http2'] : []),
    '--url',
    command.origin,
  ];
}

/** What a Go program needs: PATH, home and temp folders, Windows' system variables, locale, certificates. */
const INHERITED =
  'PATH|HOME|USERPROFILE|TMPDIR|TMP|TEMP|LANG|LANGUAGE|LC_[A-Z]+|SSL_CERT_FILE|SSL_CERT_DIR|' +
  'SystemRoot|SystemDrive|windir|ComSpec|PATHEXT|APPDATA|LOCALAPPDATA|ProgramData|ProgramFiles|' +
  'ProgramFiles\\(x86\\)|ProgramW6432|CommonProgramFiles|CommonProgramFiles\\(x86\\)|HOMEDRIVE|HOMEPATH';

/**
 * cloudflared's environment: an allow-list, so that no credential of the step (INPUT_*, GITHUB_*,
 * ACTIONS_*), no TUNNEL_* variable (each sets one of its flags) and no proxy reaches it. Names
 * match case-insensitively on Windows, as Windows reads them.
 */
export function cloudflaredEnv(env: NodeJS.ProcessEnv, platform = process.platform): NodeJS.ProcessEnv {
  const allowed = new RegExp(`^(?:${INHERITED})$`, platform === 'win32' ? 'i' : '');
  return Object.fromEntries(Object.entries(env).filter(([name]) => allowed.test(name)));
}

/** A port free on 127.0.0.1 for cloudflared's metrics server (taken by another process in the meantime, the attempt fails and the next one takes another). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A new folder under `parent` holding an empty config.yml: give it to cloudflared with --config. */
export async function emptyConfig(parent: string): Promise<{ dir: string; configPath: string }> {
  const dir = await mkdtemp(path.join(parent, 'cloudflared-'));
  const configPath = path.join(dir, 'config.yml');
  await writeFile(configPath, '');
  return { dir, configPath };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when it could not be started at all (ENOENT, EACCES…). */
  error?: string;
}

/**
 * One cloudflared process, leading a process group of its own (POSIX). Its stderr (and stdout) are
 * read for its whole life: a closed pipe would kill it. Each line updates `log` before `onLine`
 * sees it.
 */
export class CloudflaredProcess {
  private current: QuickTunnelLog = EMPTY_LOG;
  private ended: Exit | undefined;
  private stopRequested = false;
  private readonly waiters = new Set<() => void>();
  /** Resolves when the process has exited and its output is read (or its pipes let go); never rejects. */
  readonly exited: Promise<Exit>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly clock: Clock,
    onLine: (line: string, log: QuickTunnelLog) => void,
  ) {
    const read = (stream: NodeJS.ReadableStream | null) => {
      let partial = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) this.take(line, onLine);
      });
      stream?.on('end', () => {
        if (partial !== '') this.take(partial, onLine);
        partial = '';
      });
    };
    read(child.stderr);
    read(child.stdout);
    this.exited = new Promise((resolve) => {
      const end = (exit: Exit) => {
        if (this.ended) return;
        this.ended = exit;
        // So that no pipe a grandchild still holds keeps Node alive.
        child.stdout?.destroy();
        child.stderr?.destroy();
        this.notify();
        resolve(exit);
      };
      child.once('error', (error: NodeJS.ErrnoException) =>
        end({ code: null, signal: null, error: error.code ?? error.message }),
      );
      child.once('exit', (code, signal) => {
        const closed = new AbortController();
        child.once('close', () => closed.abort());
        void clock.sleep(PIPE_DRAIN_MS, closed.signal).then(() => end({ code, signal }));
      });
    });
  }

  /** Starts `binary` with `args`, without a shell, as the leader of a new process group (POSIX). */
  static start(
    binary: string,
    args: readonly string[],
    env: NodeJS.ProcessEnv,
    clock: Clock,
    onLine: (line: string, log: QuickTunnelLog) => void = () => undefined,
  ): CloudflaredProcess {
    const child = spawn(binary, args, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      detached: process.platform !== 'win32',
    });
    return new CloudflaredProcess(child, clock, onLine);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get log(): QuickTunnelLog {
    return this.current;
  }

  /** How it ended, once it has. */
  get exit(): Exit | undefined {
    return this.ended;
  }

  /** Whether stop() was called: an exit after that is no surprise. */
  get stopping(): boolean {
    return this.stopRequested;
  }

  private take(line: string, onLine: (line: string, log: QuickTunnelLog) => void): void {
    this.current = readLogLine(this.current, line);
    onLine(line, this.current);
    this.notify();
  }

  private notify(): void {
    for (const waiter of this.waiters) waiter();
  }

  /**
   * Resolves once `done(log)` holds (true), or false once the process has exited, `ms` have passed
   * or `signal` aborted.
   */
  async waitFor(done: (log: QuickTunnelLog) => boolean, ms: number, signal?: AbortSignal): Promise<boolean> {
    if (done(this.current)) return true;
    if (this.ended || signal?.aborted) return false;
    const timer = new AbortController();
    let waiter: (() => void) | undefined;
    const changed = new Promise<void>((resolve) => {
      waiter = () => {
        if (done(this.current) || this.ended) resolve();
      };
      this.waiters.add(waiter);
    });
    try {
      await Promise.race([
        changed,
        this.clock.sleep(ms, AbortSignal.any([timer.signal, ...(signal ? [signal] : [])])),
      ]);
    } finally {
      timer.abort();
      if (waiter) this.waiters.delete(waiter);
    }
    return done(this.current);
  }

  /**
   * Stops it and whatever it started: SIGTERM to its process group, then SIGKILL to the group if any
   * process of it is left after `killAfterMs` (on Windows, its process tree is ended). Resolves once
   * none is left (true), or false if even the kill did not end them within `killAfterMs`.
   */
  async stop(killAfterMs: number): Promise<boolean> {
    this.stopRequested = true;
    const pid = this.child.pid;
    if (pid !== undefined && (await stopProcessGroup(pid, killAfterMs, this.clock)) === 'still running') {
      return false;
    }
    await this.exited;
    return true;
  }
}

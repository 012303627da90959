import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { Clock } from '../service/clock.js';
import { EMPTY_LOG, type QuickTunnelLog, readLogLine } from './cloudflared-log.js';
import { stopProcessGroup } from './process-group.js';

/** Once it has exited, how long its last lines may take to be read: a process it started may hold the pipes for good. */
const PIPE_DRAIN_MS = 200;

export interface CloudflaredCommand {
  binary: string;
  origin: string;
  /** TCP (HTTP/2) rather than QUIC, for networks that drop UDP 7844. */
  http2: boolean;
  /** Where its empty config folder goes (removed by stop()). */
  workDir: string;
  /** The step's environment, of which cloudflared gets only what cloudflaredEnv lets through. */
  env: NodeJS.ProcessEnv;
}

/** Long-standing flags only: an unknown one makes cloudflared print its usage and exit 0. */
function cloudflaredArgs({ origin, http2 }: CloudflaredCommand, configPath: string): string[] {
  return [
    'tunnel',
    '--no-autoupdate',
    // Its own empty config, so that no config.yml on the runner (whose ingress: rules override --url) steers it.
    ...['--config', configPath],
    // Loopback, any free port: by default it may listen on every interface (in a container), where /quicktunnel names the tunnel.
    ...['--metrics', '127.0.0.1:0'],
    // Its default, 30 s, is past the runner's cancellation budget.
    ...['--grace-period', '1s'],
    ...(origin.startsWith('https:') ? ['--no-tls-verify'] : []),
    ...(http2 ? ['--protocol', 'http2'] : []),
    ...['--url', origin],
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

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when it could not be started at all (ENOENT, EACCES…). */
  error?: string;
}

type OnLine = (line: string, log: QuickTunnelLog) => void;

/**
 * One cloudflared process, leading a process group of its own (POSIX). Its stderr (and stdout) are
 * read for its whole life, since a closed pipe would kill it; each line updates `log` before
 * `onLine` sees it.
 */
export class CloudflaredProcess {
  log: QuickTunnelLog = EMPTY_LOG;
  /** How it ended, once it has. */
  exit: Exit | undefined;
  /** Whether stop() was called: an exit after that is no surprise. */
  stopping = false;
  /** Resolves when the process has exited and its output is read (or its pipes let go); never rejects. */
  readonly exited: Promise<Exit>;
  readonly pid: number | undefined;

  private constructor(
    child: ChildProcess,
    private readonly configDir: string,
    private readonly clock: Clock,
    onLine: OnLine,
  ) {
    this.pid = child.pid;
    for (const input of [child.stderr, child.stdout]) {
      createInterface({ input: input as NodeJS.ReadableStream }).on('line', (line) => {
        this.log = readLogLine(this.log, line);
        onLine(line, this.log);
      });
    }
    this.exited = new Promise((resolve) => {
      const end = (exit: Exit) => {
        if (this.exit) return;
        this.exit = exit;
        // So that no pipe a grandchild still holds keeps Node alive.
        child.stdout?.destroy();
        child.stderr?.destroy();
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

  /** Starts cloudflared with an empty config of its own, without a shell, as the leader of a new process group (POSIX). */
  static async start(command: CloudflaredCommand, clock: Clock, onLine: OnLine): Promise<CloudflaredProcess> {
    const configDir = await mkdtemp(path.join(command.workDir, 'cloudflared-'));
    const configPath = path.join(configDir, 'config.yml');
    await writeFile(configPath, '');
    const child = spawn(command.binary, cloudflaredArgs(command, configPath), {
      env: cloudflaredEnv(command.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      detached: process.platform !== 'win32',
    });
    return new CloudflaredProcess(child, configDir, clock, onLine);
  }

  /**
   * Stops it and whatever it started (see stopProcessGroup), then removes its config. Resolves once
   * none of them is left, or once even the kill did not end them within `killAfterMs`.
   */
  async stop(killAfterMs: number): Promise<void> {
    this.stopping = true;
    const { pid } = this;
    if (pid === undefined || (await stopProcessGroup(pid, killAfterMs, this.clock)) !== 'still running') {
      await this.exited;
    }
    await rm(this.configDir, { recursive: true, force: true });
  }
}

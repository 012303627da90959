import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { type Clock, systemClock } from '../service/clock.js';
import { pollUntil } from '../service/poll.js';
import { EMPTY_LOG, type QuickTunnelLog, readLogLine } from './cloudflared-log.js';

/** From SIGTERM to a kill, and from the kill to giving up: cloudflared's --grace-period (1 s) and some slack. */
export const KILL_AFTER_MS = 3_000;

/** For its last lines after it exited: a process it started may hold the pipes for good. */
const PIPE_DRAIN_MS = 200;

/** What a Go program needs: PATH, home and temp folders, Windows' system variables, locale, certificates. */
const INHERITED =
  'PATH|HOME|USERPROFILE|TMPDIR|TMP|TEMP|LANG|LANGUAGE|LC_[A-Z]+|SSL_CERT_FILE|SSL_CERT_DIR|' +
  'SystemRoot|SystemDrive|windir|ComSpec|PATHEXT|APPDATA|LOCALAPPDATA|ProgramData|ProgramFiles|' +
  'ProgramFiles\\(x86\\)|ProgramW6432|CommonProgramFiles|CommonProgramFiles\\(x86\\)|HOMEDRIVE|HOMEPATH';

/**
 * An allow-list: no credential of the step (INPUT_*, GITHUB_*, ACTIONS_*), no TUNNEL_* variable (each
 * sets one of its flags) and no proxy reaches cloudflared. Case-insensitive on Windows, as Windows reads names.
 */
export function cloudflaredEnv(env: NodeJS.ProcessEnv, platform = process.platform): NodeJS.ProcessEnv {
  const allowed = new RegExp(`^(?:${INHERITED})$`, platform === 'win32' ? 'i' : '');
  return Object.fromEntries(Object.entries(env).filter(([name]) => allowed.test(name)));
}

export interface LogSink {
  /** Called with the public URL and its host before the line that names them is passed on. */
  mask: (secret: string) => void;
  debug?: (line: string) => void;
}

/** Its output is read for its whole life, since a closed pipe would kill it. */
export class CloudflaredProcess {
  log: QuickTunnelLog = EMPTY_LOG;
  /** `exit code 1`, `signal SIGKILL`, `it could not be started: ENOENT`. */
  exit: string | undefined;
  /** An exit after stop() is no surprise. */
  stopping = false;
  /** Never rejects. */
  readonly exited: Promise<string>;
  readonly pid: number | undefined;

  private constructor(
    child: ChildProcess,
    private readonly configDir: string,
    private readonly clock: Clock,
    sink: LogSink,
  ) {
    this.pid = child.pid;
    for (const input of [child.stderr, child.stdout]) {
      createInterface({ input: input as NodeJS.ReadableStream }).on('line', (line) => {
        const known = this.log.publicOrigin;
        this.log = readLogLine(this.log, line);
        const { publicOrigin } = this.log;
        if (publicOrigin && !known) {
          sink.mask(publicOrigin);
          sink.mask(new URL(publicOrigin).host);
        }
        sink.debug?.(line);
      });
    }
    this.exited = new Promise((resolve) => {
      const end = (exit: string) => {
        if (this.exit) return;
        this.exit = exit;
        // So that no pipe a grandchild still holds keeps Node alive.
        for (const pipe of [child.stdout, child.stderr]) pipe?.destroy();
        resolve(exit);
      };
      child.once('error', (error: NodeJS.ErrnoException) =>
        end(`it could not be started: ${error.code ?? error.message}`),
      );
      child.once('exit', (code, signal) => {
        const closed = new AbortController();
        child.once('close', () => closed.abort());
        const how = code !== null ? `exit code ${code}` : `signal ${signal}`;
        void clock.sleep(PIPE_DRAIN_MS, closed.signal).then(() => end(how));
      });
    });
  }

  /** Without a shell; `http2` (over TCP) for networks that drop UDP 7844. */
  static async start(binary: string, origin: string, http2: boolean, clock: Clock, sink: LogSink) {
    const configDir = await mkdtemp(path.join(process.env.RUNNER_TEMP || os.tmpdir(), 'cloudflared-'));
    const configPath = path.join(configDir, 'config.yml');
    await writeFile(configPath, '');
    // Long-standing flags only: an unknown one makes cloudflared print its usage and exit 0.
    const args = [
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
    const child = spawn(binary, args, {
      env: cloudflaredEnv(process.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      detached: process.platform !== 'win32',
    });
    return new CloudflaredProcess(child, configDir, clock, sink);
  }

  async stop(killAfterMs: number): Promise<void> {
    this.stopping = true;
    const { pid } = this;
    if (pid === undefined || (await stopProcessGroup(pid, killAfterMs, this.clock)) !== 'still running') {
      await this.exited;
    }
    await rm(this.configDir, { recursive: true, force: true });
  }
}

/** 'still running': still there after the kill, or not ours to signal (EPERM). */
type GroupStop = 'gone' | 'stopped' | 'killed' | 'still running';

/** Zombies nobody reaps do not count; on Windows, process `pgid`. */
async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(process.platform === 'win32' ? pgid : -pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // Where /proc tells (Linux), a group whose every process has exited and waits to be reaped is gone.
  const pids = await readdir('/proc').catch(() => []);
  if (pids.length === 0) return true;
  for (const pid of pids.filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // After the command name in parentheses: state, parent, group.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z') return true;
  }
  return false;
}

async function goneWithin(pgid: number, ms: number, clock: Clock): Promise<boolean> {
  const gone = async () => ((await groupAlive(pgid)) ? undefined : true);
  return (await pollUntil(gone, { clock, waitMs: ms, intervalMs: 50 })) ?? false;
}

/**
 * With whatever cloudflared started (a wrapper script may run it as a child): SIGTERM to its group,
 * SIGKILL after `killAfterMs`; on Windows its process tree is ended at once.
 */
async function stopProcessGroup(pgid: number, killAfterMs: number, clock: Clock): Promise<GroupStop> {
  if (!(await groupAlive(pgid))) return 'gone';
  if (process.platform === 'win32') {
    const taskkill = ['/pid', String(pgid), '/T', '/F'];
    await promisify(execFile)('taskkill', taskkill, { windowsHide: true }).catch(() => undefined);
    return (await goneWithin(pgid, killAfterMs, clock)) ? 'stopped' : 'still running';
  }
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    return (await groupAlive(pgid)) ? 'still running' : 'gone';
  }
  if (await goneWithin(pgid, killAfterMs, clock)) return 'stopped';
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Gone by now, or not ours to signal: goneWithin tells.
  }
  return (await goneWithin(pgid, killAfterMs, clock)) ? 'killed' : 'still running';
}

/** The post step: `pids` come from the state a killed main step saved, and are checked before any signal. */
export async function stopLeftover(pids: readonly number[], { killAfterMs = KILL_AFTER_MS } = {}) {
  const stopOne = async (pid: number): Promise<GroupStop | 'not cloudflared'> => {
    // 0 and negative numbers name process groups (-1: every process): never signalled, nor this process.
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return 'not cloudflared';
    if (!(await groupAlive(pid))) return 'gone';
    // Where /proc exists, its command line must name cloudflared; without /proc (macOS, Windows), or once it has exited, it may be.
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => 'cloudflared');
    if (!cmdline.includes('cloudflared')) return 'not cloudflared';
    return stopProcessGroup(pid, killAfterMs, systemClock);
  };
  return Promise.all(pids.map(async (pid) => ({ pid, outcome: await stopOne(pid) })));
}

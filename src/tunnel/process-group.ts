import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { type Clock, systemClock } from '../service/clock.js';

/**
 * Stopping cloudflared with whatever it started (a wrapper script may run it as a child), for the
 * main step and the post step alike: on POSIX it leads its own process group, whose id is its pid,
 * and the whole group is signalled; on Windows its process tree is ended.
 */

/** From SIGTERM to a kill, and from the kill to giving up: cloudflared's --grace-period (1 s) and some slack. */
export const KILL_AFTER_MS = 3_000;

/**
 * 'gone': its whole group had already exited; 'stopped': it exited on SIGTERM (on Windows, its tree
 * on the kill); 'killed': a process lingered past the bound, and the group was killed; 'still
 * running': still there after the kill, or not ours to signal (EPERM).
 */
export type GroupStop = 'gone' | 'stopped' | 'killed' | 'still running';

/** Whether a process of group `pgid` is alive (on Windows, process `pgid`): zombies nobody reaps do not count. */
async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(process.platform === 'win32' ? pgid : -pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !(await onlyZombies(pgid));
}

/** Where /proc tells (Linux): whether every process of group `pgid` has exited and waits to be reaped. */
async function onlyZombies(pgid: number): Promise<boolean> {
  const pids = await readdir('/proc').catch(() => []);
  for (const pid of pids.filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // After the command name in parentheses: state, parent, group.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z') return false;
  }
  return pids.length > 0;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Windows: ends process `pid` and its descendants (taskkill /T), without a shell. */
function endTree(pid: number): Promise<void> {
  return new Promise((resolve) => {
    const taskkill = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
      stdio: 'ignore',
      windowsHide: true,
    });
    taskkill.once('error', () => resolve());
    taskkill.once('exit', () => resolve());
  });
}

async function goneWithin(pgid: number, ms: number, clock: Clock): Promise<boolean> {
  const deadline = clock.now() + ms;
  while (await groupAlive(pgid)) {
    if (clock.now() >= deadline) return false;
    await clock.sleep(Math.min(50, deadline - clock.now()));
  }
  return true;
}

/**
 * Stops process group `pgid`: SIGTERM to the group, then SIGKILL to it if any process of it is
 * left after `killAfterMs` (on Windows, the tree is ended at once). Resolves once none is left, or
 * `killAfterMs` after the kill.
 */
export async function stopProcessGroup(pgid: number, killAfterMs: number, clock: Clock): Promise<GroupStop> {
  if (!(await groupAlive(pgid))) return 'gone';
  if (process.platform === 'win32') {
    await endTree(pgid);
    return (await goneWithin(pgid, killAfterMs, clock)) ? 'stopped' : 'still running';
  }
  if (!signalGroup(pgid, 'SIGTERM')) return (await groupAlive(pgid)) ? 'still running' : 'gone';
  if (await goneWithin(pgid, killAfterMs, clock)) return 'stopped';
  signalGroup(pgid, 'SIGKILL');
  return (await goneWithin(pgid, killAfterMs, clock)) ? 'killed' : 'still running';
}

/** How the post step left a pid: 'not cloudflared' when it belongs to another program (Linux, where /proc tells) or is no process's id. */
export type LeftoverOutcome = GroupStop | 'not cloudflared';

/** The post step: stops the process groups of the cloudflared processes `pids` that a killed main step saved. */
export async function stopLeftover(
  pids: readonly number[],
  { killAfterMs = KILL_AFTER_MS, clock = systemClock }: { killAfterMs?: number; clock?: Clock } = {},
): Promise<{ pid: number; outcome: LeftoverOutcome }[]> {
  const stopOne = async (pid: number): Promise<LeftoverOutcome> => {
    // 0 and negative numbers name process groups (-1: every process): never signalled, nor this process.
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return 'not cloudflared';
    if (!(await groupAlive(pid))) return 'gone';
    // Where /proc exists, its command line must name cloudflared; without /proc (macOS, Windows), or once it has exited, it may be.
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => 'cloudflared');
    if (!cmdline.includes('cloudflared')) return 'not cloudflared';
    return stopProcessGroup(pid, killAfterMs, clock);
  };
  return Promise.all(pids.map(async (pid) => ({ pid, outcome: await stopOne(pid) })));
}

import { readFile } from 'node:fs/promises';
import { type Clock, systemClock } from '../service/clock.js';
import { KILL_AFTER_MS } from './cloudflared-process.js';

/**
 * The post step's cleanup: a main step that was killed leaves its cloudflared running, known only
 * by the pid it saved.
 */

export type LeftoverOutcome =
  /** It had already exited. */
  | 'gone'
  /** It exited on SIGTERM (on Windows, the kill). */
  | 'stopped'
  /** It lingered past the bound and was killed. */
  | 'killed'
  /** Still there after the kill, or not ours to signal (EPERM). */
  | 'still running'
  /** The pid now belongs to another program (Linux, where /proc tells), or is no process's id. */
  | 'not cloudflared';

export interface LeftoverStop {
  pid: number;
  outcome: LeftoverOutcome;
}

/** Whether `pid` is a live process: one that exited but was not reaped yet (a zombie, Linux) is not. */
async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS, Windows)
  }
}

/** Whether `pid` may still be a cloudflared: where /proc exists, its command line must name it. */
async function mayBeCloudflared(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('cloudflared');
  } catch {
    return true; // no /proc (macOS, Windows), or it has just exited
  }
}

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

async function exitedWithin(pid: number, ms: number, clock: Clock): Promise<boolean> {
  const deadline = clock.now() + ms;
  while (await isRunning(pid)) {
    if (clock.now() >= deadline) return false;
    await clock.sleep(Math.min(50, deadline - clock.now()));
  }
  return true;
}

async function stopOne(pid: number, killAfterMs: number, clock: Clock): Promise<LeftoverOutcome> {
  // 0 and negative numbers name process groups (-1: every process): never signalled, nor this process.
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return 'not cloudflared';
  if (!(await isRunning(pid))) return 'gone';
  if (!(await mayBeCloudflared(pid))) return 'not cloudflared';
  if (!signal(pid, 'SIGTERM')) return (await isRunning(pid)) ? 'still running' : 'gone';
  if (await exitedWithin(pid, killAfterMs, clock)) return 'stopped';
  signal(pid, 'SIGKILL');
  return (await exitedWithin(pid, killAfterMs, clock)) ? 'killed' : 'still running';
}

/** Stops the cloudflared processes `pids` that are still running: SIGTERM, then a kill after `killAfterMs`. */
export async function stopLeftover(
  pids: readonly number[],
  options: { killAfterMs?: number; clock?: Clock } = {},
): Promise<LeftoverStop[]> {
  const { killAfterMs = KILL_AFTER_MS, clock = systemClock } = options;
  return Promise.all(pids.map(async (pid) => ({ pid, outcome: await stopOne(pid, killAfterMs, clock) })));
}

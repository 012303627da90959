import { readFile } from 'node:fs/promises';
import { type Clock, systemClock } from '../service/clock.js';
import { KILL_AFTER_MS } from './cloudflared-process.js';
import { groupAlive, stopProcessGroup } from './process-group.js';

/**
 * The post step's cleanup: a main step that was killed leaves its cloudflared running, known only
 * by the pid it saved, which is also the id of the process group it leads (on Windows, the root of
 * its process tree).
 */

export type LeftoverOutcome =
  /** Its whole group had already exited. */
  | 'gone'
  /** Its group exited on SIGTERM (on Windows, its tree on the kill). */
  | 'stopped'
  /** A process of its group lingered past the bound, and the group was killed. */
  | 'killed'
  /** Still there after the kill, or not ours to signal (EPERM). */
  | 'still running'
  /** The pid now belongs to another program (Linux, where /proc tells), or is no process's id. */
  | 'not cloudflared';

export interface LeftoverStop {
  pid: number;
  outcome: LeftoverOutcome;
}

/** Whether `pid` may still be a cloudflared: where /proc exists, its command line must name it. */
async function mayBeCloudflared(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('cloudflared');
  } catch {
    return true; // no /proc (macOS, Windows), or it has just exited
  }
}

async function stopOne(pid: number, killAfterMs: number, clock: Clock): Promise<LeftoverOutcome> {
  // 0 and negative numbers name process groups (-1: every process): never signalled, nor this process.
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return 'not cloudflared';
  if (!(await groupAlive(pid))) return 'gone';
  if (!(await mayBeCloudflared(pid))) return 'not cloudflared';
  return stopProcessGroup(pid, killAfterMs, clock);
}

/** Stops the process groups of the cloudflared processes `pids`: SIGTERM, then SIGKILL after `killAfterMs`. */
export async function stopLeftover(
  pids: readonly number[],
  options: { killAfterMs?: number; clock?: Clock } = {},
): Promise<LeftoverStop[]> {
  const { killAfterMs = KILL_AFTER_MS, clock = systemClock } = options;
  return Promise.all(pids.map(async (pid) => ({ pid, outcome: await stopOne(pid, killAfterMs, clock) })));
}

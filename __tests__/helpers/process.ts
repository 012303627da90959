import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Date.now() just before spawn, the clock the simulators log requests with. */
  spawnedAt: number;
  /** Milliseconds from spawn to exit. */
  elapsedMs: number;
}

export interface ProcessOptions {
  /** The whole environment of the process: nothing is inherited. */
  env: Record<string, string>;
  cwd?: string;
  /** Killed (SIGTERM) after this many milliseconds. */
  timeoutMs?: number;
  /** Called once the process is spawned, e.g. to send it a signal later. */
  onSpawn?: (child: ChildProcess) => void;
}

/** Runs `bin args`, collects its output, and resolves once it has exited, whatever its exit code. */
export function runProcess(
  bin: string,
  args: readonly string[],
  options: ProcessOptions,
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const spawnedAt = Date.now();
    const started = performance.now();
    const child = spawn(bin, args, {
      env: options.env,
      cwd: options.cwd,
      timeout: options.timeoutMs,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout, stderr, spawnedAt, elapsedMs: performance.now() - started }),
    );
    options.onSpawn?.(child);
  });
}

/**
 * Follows the peak resident memory of a running process (Linux: VmHWM, the high-water mark, read
 * every 10 ms from /proc); `peak()` gives the highest seen, in MiB, once the process is gone.
 */
export function followPeakMemory(child: ChildProcess): { peak: () => number } {
  let peakKiB = 0;
  const read = () => {
    try {
      const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (match) peakKiB = Math.max(peakKiB, Number(match[1]));
    } catch {
      // gone
    }
  };
  const timer = setInterval(read, 10);
  child.once('exit', () => clearInterval(timer));
  read();
  return { peak: () => peakKiB / 1024 };
}

/**
 * A world for the tunnel tests and the benchmark: the job's app, the stand-in cloudflared, and the
 * CONNECT proxy that stands for the internet (it resolves the stand-in's names); openTunnels runs
 * in tunnel-driver.ts, a process of its own that trusts the test CA.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InstallOptions } from '../../src/tunnel/cloudflared-binary.js';
import type { Tunnel, TunnelBounds } from '../../src/tunnel/open.js';
import { StandInCloudflared, type StandInMode } from '../simulator/cloudflared-stand-in.js';
import { LocalApp } from '../simulator/local-app.js';
import { ConnectProxy } from '../simulator/proxy.js';
import { CA_CERT_PATH } from '../simulator/tls-front.js';

const DRIVER = fileURLToPath(new URL('./tunnel-driver.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Short bounds, so that every failure shows within a second or two. */
export const SHORT_BOUNDS: Partial<TunnelBounds> = {
  originWaitMs: 500,
  urlWaitMs: 1_500,
  reachWaitMs: 1_500,
  pollIntervalMs: 50,
  requestTimeoutMs: 1_000,
  retryPauseMs: 10,
  killAfterMs: 1_000,
};

export type DriverEvent =
  | { event: 'log'; line: string }
  | { event: 'mask'; secret: string }
  | { event: 'debug'; line: string }
  | { event: 'down'; pid: number; message: string }
  | { event: 'opened'; openMs: number; tunnels: Omit<Tunnel, 'stop'>[] }
  | { event: 'failed'; name: string; message: string }
  | { event: 'stopped'; stopMs: number };

export interface DriverInput {
  origins: string[];
  bounds?: Partial<TunnelBounds>;
  install?: InstallOptions;
  hold?: boolean;
}

/** One run of tunnel-driver.ts. */
export class DriverRun {
  readonly events: DriverEvent[] = [];
  stderr = '';
  /** Resolves when the driver has exited and its output has all been read. */
  readonly exited: Promise<void>;
  private readonly waiters: (() => void)[] = [];
  /** Set on 'close': on 'exit' the last events may not have been read yet. */
  private closed = false;

  constructor(readonly child: ChildProcess) {
    let partial = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      // Other lines are @actions/tool-cache's ::debug:: commands.
      for (const line of lines) if (line.startsWith('{')) this.events.push(JSON.parse(line) as DriverEvent);
      for (const waiter of this.waiters) waiter();
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) =>
      child.on('close', () => {
        this.closed = true;
        resolve();
        for (const waiter of this.waiters) waiter();
      }),
    );
  }

  /** The first event of this kind, once it has come; rejects if the driver's output ends without it. */
  next<K extends DriverEvent['event']>(kind: K): Promise<Extract<DriverEvent, { event: K }>> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.events.find((event) => event.event === kind);
        if (found) resolve(found as Extract<DriverEvent, { event: K }>);
        else if (this.closed) {
          reject(
            new Error(`the driver exited without '${kind}': ${JSON.stringify(this.events)}\n${this.stderr}`),
          );
        }
      };
      this.waiters.push(check);
      check();
    });
  }

  /** The `log` lines so far. */
  get logs(): string[] {
    return this.events.flatMap((event) => (event.event === 'log' ? [event.line] : []));
  }

  /** With `hold`: lets the driver stop its tunnels. */
  release(): void {
    this.child.stdin?.end('stop\n');
  }
}

export class TunnelWorld {
  private constructor(
    readonly app: LocalApp,
    readonly standIn: StandInCloudflared,
    readonly proxy: ConnectProxy,
  ) {}

  /** `wrapper`: the stand-in's `cloudflared` runs it without exec (see StandInCloudflared.create). */
  static async start(
    mode: StandInMode = 'ok',
    app?: { https?: boolean; status?: number },
    wrapper = false,
  ): Promise<TunnelWorld> {
    const standIn = await StandInCloudflared.create(mode, wrapper);
    const proxy = await ConnectProxy.start({ routes: {}, resolve: standIn.resolve });
    return new TunnelWorld(await LocalApp.start(app), standIn, proxy);
  }

  /**
   * The driver's environment: the stand-in first on PATH (unless `standInOnPath` is false), the
   * proxy in https_proxy, the test CA trusted; `extra` last.
   */
  env(extra: Record<string, string> = {}, standInOnPath = true): Record<string, string> {
    const base: Record<string, string> = { PATH: path.dirname(process.execPath) };
    for (const name of ['HOME', 'TMPDIR', 'LANG']) {
      const value = process.env[name];
      if (value !== undefined) base[name] = value;
    }
    const env = standInOnPath
      ? this.standIn.env(base)
      : { ...this.standIn.env(base), PATH: base.PATH as string };
    return { ...env, NODE_EXTRA_CA_CERTS: CA_CERT_PATH, https_proxy: this.proxy.url, ...extra };
  }

  /** Runs openTunnels in a driver process with `env` (this.env() unless given). */
  run(input: DriverInput, env: Record<string, string> = this.env()): DriverRun {
    const child = spawn(process.execPath, ['--import', 'tsx', DRIVER, JSON.stringify(input)], {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new DriverRun(child);
  }

  async stop(): Promise<void> {
    await this.proxy.stop();
    await this.app.stop();
    await this.standIn.cleanup();
  }
}

/** Whether process `pid` is gone: no such process, or a zombie nobody has reaped yet. */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

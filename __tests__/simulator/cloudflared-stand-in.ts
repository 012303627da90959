/**
 * The test side of the stand-in cloudflared (cloudflared/stand-in.mjs): its `cloudflared`, its PATH
 * and state folder, what each of its processes was started with, and the routes its names resolve
 * to, for a ConnectProxy's `resolve`.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import * as path from 'node:path';
import type { Upstream } from './proxy.js';

const STAND_IN = new URL('./cloudflared/stand-in.mjs', import.meta.url).href;

export type StandInMode =
  | 'ok'
  | 'exit-early'
  | 'no-url'
  | 'unreachable'
  | 'reachable-from-2nd'
  | 'refuse-429'
  | 'quic-blocked'
  | 'ignore-sigterm';

export interface StandInInvocation {
  pid: number;
  argv: string[];
  /** The names of the variables its environment held. */
  env: string[];
  /** What its --config file held when it started; null without --config. */
  config: string | null;
}

export interface StartedStandIn {
  child: ChildProcess;
  /** Its stderr so far. */
  stderr(): string;
  /** `https://<name>.trycloudflare.com`, when it printed one. */
  publicOrigin?: string;
  /** `http://127.0.0.1:PORT` of its metrics server. */
  metrics: string;
}

export class StandInCloudflared {
  private constructor(
    /** Where the stand-in keeps its invocations and routes. */
    readonly stateDir: string,
    readonly mode: StandInMode,
    /** Its `cloudflared`, a script that carries its settings (no environment variable reaches it). */
    readonly script: string,
  ) {}

  /**
   * With `wrapper`, the `cloudflared` on PATH is a shell script that runs the stand-in without
   * `exec`, as some installs do: the stand-in is then the grandchild of whoever started it, and
   * holds the pipes it inherited.
   */
  static async create(mode: StandInMode = 'ok', wrapper = false): Promise<StandInCloudflared> {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'cloudflared-stand-in-'));
    const settings = JSON.stringify({ stateDir, mode });
    const script = `#!${process.execPath}\nglobalThis.cloudflaredStandIn = ${settings};\nimport(${JSON.stringify(STAND_IN)});\n`;
    const standIn = new StandInCloudflared(stateDir, mode, script);
    await mkdir(standIn.binDir);
    const real = path.join(stateDir, wrapper ? 'stand-in' : 'bin/cloudflared');
    await writeFile(real, script, { mode: 0o755 });
    if (wrapper) {
      const sh = `#!/bin/sh\n${JSON.stringify(real)} "$@"\n`;
      await writeFile(path.join(standIn.binDir, 'cloudflared'), sh, { mode: 0o755 });
    }
    return standIn;
  }

  /** The folder holding its `cloudflared`: put it first on PATH. */
  get binDir(): string {
    return path.join(this.stateDir, 'bin');
  }

  /** `base` with the stand-in first on PATH. */
  env(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(base)) if (value !== undefined) env[name] = value;
    return { ...env, PATH: [this.binDir, base.PATH ?? ''].join(path.delimiter) };
  }

  /** Every start of the stand-in, in order. */
  invocations(): StandInInvocation[] {
    let text: string;
    try {
      text = readFileSync(path.join(this.stateDir, 'invocations.jsonl'), 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as StandInInvocation);
  }

  /** For ConnectProxy's `resolve`: where a running stand-in serves `<name>.trycloudflare.com:443`. */
  readonly resolve = (target: string): Upstream | undefined => {
    const match = /^([a-z0-9-]+\.trycloudflare\.com):443$/.exec(target);
    if (!match) return undefined;
    try {
      const port = Number(readFileSync(path.join(this.stateDir, 'routes', match[1] as string), 'utf8'));
      return { host: '127.0.0.1', port };
    } catch {
      return undefined;
    }
  };

  /**
   * Starts `cloudflared tunnel --url <origin>` from PATH, as a test would by hand, and resolves once
   * its metrics server is up (rejects if it exits first, with its whole stderr: on 'close', since
   * the last lines may not have been read yet on 'exit').
   */
  start(origin: string, extraArgs: readonly string[] = []): Promise<StartedStandIn> {
    const args = ['tunnel', '--no-autoupdate', '--url', origin, '--metrics', '127.0.0.1:0', ...extraArgs];
    const child = spawn('cloudflared', args, { env: this.env(), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) =>
        reject(new Error(`the stand-in exited (${code}) before it was up:\n${stderr}`)),
      );
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const metrics = /Starting metrics server on ([\d.]+:\d+)\/metrics/.exec(stderr);
        if (!metrics) return;
        const publicOrigin = /\|\s+(https:\/\/[a-z0-9-]+\.trycloudflare\.com)\s+\|/.exec(stderr)?.[1];
        resolve({ child, stderr: () => stderr, publicOrigin, metrics: `http://${metrics[1]}` });
      });
    });
  }

  async cleanup(): Promise<void> {
    await rm(this.stateDir, { recursive: true, force: true });
  }
}

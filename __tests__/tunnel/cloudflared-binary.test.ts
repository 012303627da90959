import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import * as path from 'node:path';
import {
  type CloudflaredRelease,
  installCloudflared,
  locateCloudflared,
} from '../../src/tunnel/cloudflared-binary.js';
import { Connections, listen } from '../simulator/loopback.js';

/** A release host on loopback: serves `files` by path and logs every request. */
class ReleaseHost {
  readonly requests: string[] = [];
  private readonly connections = new Connections();
  private constructor(
    private readonly server: Server,
    readonly files: Map<string, Buffer>,
  ) {
    server.on('connection', (socket) => this.connections.track(socket));
  }
  static async start(files: Map<string, Buffer>): Promise<ReleaseHost> {
    const server = createServer();
    const host = new ReleaseHost(server, files);
    server.on('request', (req, res) => {
      host.requests.push(req.url ?? '');
      const body = files.get(req.url ?? '');
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/octet-stream' });
      res.end(body ?? 'Not Found');
    });
    await listen(server);
    return host;
  }
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/releases`;
  }
  stop(): Promise<void> {
    return this.connections.close(this.server);
  }
}

const BINARY = Buffer.from('#!/bin/sh\necho "cloudflared version 2099.1.0 (test)"\n');
const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

let work: string;
let host: ReleaseHost | undefined;
const savedEnv = { ...process.env };

beforeEach(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'cloudflared-binary-test-'));
  process.env.RUNNER_TEMP = path.join(work, 'temp');
  process.env.RUNNER_TOOL_CACHE = path.join(work, 'tool-cache');
});

afterEach(async () => {
  await host?.stop();
  host = undefined;
  process.env = { ...savedEnv };
  await rm(work, { recursive: true, force: true });
});

function release(sha256: string, binarySha256?: string): CloudflaredRelease {
  return {
    version: '2099.1.0',
    assets: {
      'linux-x64': { file: 'cloudflared-linux-amd64', sha256 },
      'darwin-arm64': { file: 'cloudflared-darwin-arm64.tgz', sha256, binarySha256 },
    },
  };
}

describe('installCloudflared', () => {
  test('downloads the pinned asset, checks its sum, caches it runnable, and uses the cache next time', async () => {
    host = await ReleaseHost.start(new Map([['/releases/2099.1.0/cloudflared-linux-amd64', BINARY]]));
    const pinned = release(sha256(BINARY));
    const options = { releaseBaseUrl: host.url, release: pinned, platform: 'linux' as const, arch: 'x64' };

    const binary = await installCloudflared(options);
    expect(binary).toBe(path.join(work, 'tool-cache', 'cloudflared', '2099.1.0', 'x64', 'cloudflared'));
    expect(await readFile(binary)).toEqual(BINARY);
    expect(execFileSync(binary, { encoding: 'utf8' })).toBe('cloudflared version 2099.1.0 (test)\n');
    expect(await readdir(path.join(work, 'temp'))).toEqual([]);

    expect(await installCloudflared(options)).toBe(binary);
    expect(host.requests).toEqual(['/releases/2099.1.0/cloudflared-linux-amd64']);
  });

  test('refuses a download whose sum is not the pinned one: deleted, not cached, never run', async () => {
    host = await ReleaseHost.start(new Map([['/releases/2099.1.0/cloudflared-linux-amd64', BINARY]]));
    const pinned = release('f'.repeat(64));
    const install = installCloudflared({
      releaseBaseUrl: host.url,
      release: pinned,
      platform: 'linux',
      arch: 'x64',
    });
    await expect(install).rejects.toThrow(
      `${host.url}/2099.1.0/cloudflared-linux-amd64 was refused (and not run): its SHA-256 is ${sha256(BINARY)}, not the pinned ${'f'.repeat(64)}`,
    );
    expect(await readdir(path.join(work, 'temp'))).toEqual([]);
    await expect(readdir(path.join(work, 'tool-cache'))).rejects.toThrow(/ENOENT/);
  });

  test('a release host that answers 404 is named with the status', async () => {
    host = await ReleaseHost.start(new Map());
    const pinned = release('f'.repeat(64));
    await expect(
      installCloudflared({ releaseBaseUrl: host.url, release: pinned, platform: 'linux', arch: 'x64' }),
    ).rejects.toThrow(
      `the download of release 2099.1.0 from ${host.url}/2099.1.0/cloudflared-linux-amd64 failed: HTTP 404`,
    );
  });

  test('a .tgz (macOS) is checked, unpacked, its binary checked, and the cached binary checked against that sum', async () => {
    const packed = path.join(work, 'pack');
    await mkdir(packed);
    await writeFile(path.join(packed, 'cloudflared'), BINARY);
    await chmod(path.join(packed, 'cloudflared'), 0o755);
    execFileSync('tar', ['-czf', path.join(work, 'archive.tgz'), '-C', packed, 'cloudflared']);
    const archive = await readFile(path.join(work, 'archive.tgz'));
    host = await ReleaseHost.start(new Map([['/releases/2099.1.0/cloudflared-darwin-arm64.tgz', archive]]));
    const options = { releaseBaseUrl: host.url, platform: 'darwin' as const, arch: 'arm64' };

    const archiveSum = sha256(archive);
    await expect(
      installCloudflared({ ...options, release: release(archiveSum, archiveSum) }),
    ).rejects.toThrow(/^the cloudflared in http:.*cloudflared-darwin-arm64\.tgz was refused \(and not run\)/);

    const pinned = release(archiveSum, sha256(BINARY));
    const binary = await installCloudflared({ ...options, release: pinned });
    expect(binary).toBe(path.join(work, 'tool-cache', 'cloudflared', '2099.1.0', 'arm64', 'cloudflared'));
    expect(await readFile(binary)).toEqual(BINARY);
    expect(await installCloudflared({ ...options, release: pinned })).toBe(binary);
    expect(host.requests).toHaveLength(2);
  });

  test('a system with no pinned asset is named', async () => {
    await expect(installCloudflared({ platform: 'win32', arch: 'arm64' })).rejects.toThrow(
      'this action downloads it only for Linux x64 and arm64, macOS x64 and arm64, and Windows x64, not win32 arm64',
    );
  });
});

describe('locateCloudflared', () => {
  test('the first runnable cloudflared on PATH; a directory or a file that cannot run is passed over', async () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((dir) => path.join(work, dir)) as [
      string,
      string,
      string,
      string,
    ];
    await mkdir(path.join(a, 'cloudflared'), { recursive: true });
    await mkdir(b);
    await writeFile(path.join(b, 'cloudflared'), BINARY, { mode: 0o644 });
    await mkdir(c);
    await writeFile(path.join(c, 'cloudflared'), BINARY, { mode: 0o755 });
    await mkdir(d);
    await writeFile(path.join(d, 'cloudflared'), BINARY, { mode: 0o755 });
    const saved = process.env.PATH;
    const onPath = (...dirs: string[]) => {
      process.env.PATH = dirs.join(path.delimiter);
      // A system with no pinned asset: nothing is downloaded when none is found.
      return locateCloudflared({ platform: 'win32', arch: 'arm64' }, () => undefined);
    };
    const none = { missing: expect.stringContaining('not win32 arm64') };
    try {
      expect(await onPath(path.join(work, 'missing'), a, '', b, c, d)).toBe(path.join(c, 'cloudflared'));
      expect(await onPath(a, b)).toEqual(none);
      expect(await onPath()).toEqual(none);
    } finally {
      process.env.PATH = saved;
    }
  });
});

import { hash } from 'node:crypto';
import { chmod, readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { which } from '@actions/io';
import * as toolCache from '@actions/tool-cache';
import { describeNetworkError } from '../service/transport.js';

/** Assets by `${process.platform}-${process.arch}`; for a .tgz, `binarySha256` is of the cloudflared inside. */
export interface CloudflaredRelease {
  version: string;
  assets: Readonly<Record<string, { file: string; sha256: string; binarySha256?: string }>>;
}

/** Release 2026.8.2; for macOS, `binarySha256` is the sum Cloudflare's release notes list under the .tgz's name. */
const CLOUDFLARED_RELEASE: CloudflaredRelease = {
  version: '2026.8.2',
  assets: {
    'linux-x64': {
      file: 'cloudflared-linux-amd64',
      sha256: 'fcfb02b575a52ca1af2e3267af4e1517bcdeb30ac48c834c69abaed3c0576ad2',
    },
    'linux-arm64': {
      file: 'cloudflared-linux-arm64',
      sha256: '7747d94570fb390cf47dcb4f9555c193c6355cda9793f0d878d9049e5d6a7790',
    },
    'darwin-x64': {
      file: 'cloudflared-darwin-amd64.tgz',
      sha256: 'f1727723c586500e2092368ae21871b3df7ddfd2cb097f22d81bee4a9c458bb4',
      binarySha256: 'b0f770e1e0b281399a57219b840fd8eef1cc25387a404124248157ea2073727a',
    },
    'darwin-arm64': {
      file: 'cloudflared-darwin-arm64.tgz',
      sha256: '9042c2c5d8b2de78e60f313d5fb31b6c5c1cebde787a3caf1f2c9588084ac442',
      binarySha256: 'b61054d3d6326ea558cb49826eebf5676e0d0a36d51b546975096ca3e0e3c89d',
    },
    'win32-x64': {
      file: 'cloudflared-windows-amd64.exe',
      sha256: 'c29eee2b121f5436a642eed69fd9767da7e7b8c510fa50aaa130337f931357b5',
    },
  },
};

const binaryName = (platform: NodeJS.Platform) => (platform === 'win32' ? 'cloudflared.exe' : 'cloudflared');

async function sha256Of(file: string): Promise<string> {
  return hash('sha256', await readFile(file), 'hex');
}

/** Another host and release in tests. */
export interface InstallOptions {
  releaseBaseUrl?: string;
  release?: CloudflaredRelease;
  platform?: NodeJS.Platform;
  arch?: string;
}

/**
 * Sums are checked before unpacking or caching, and on every use: a self-hosted runner's cache outlives
 * jobs. Its errors' messages are clauses: "the download of … failed: HTTP 404".
 */
export async function installCloudflared(
  options: InstallOptions = {},
  log: (line: string) => void = () => undefined,
): Promise<string> {
  const { releaseBaseUrl = 'https://github.com/cloudflare/cloudflared/releases/download' } = options;
  const { release = CLOUDFLARED_RELEASE, platform = process.platform, arch = process.arch } = options;
  const { version } = release;
  const asset = release.assets[`${platform}-${arch}`];
  if (!asset) {
    throw new Error(
      `this action downloads it only for Linux x64 and arm64, macOS x64 and arm64, and Windows x64, not ${platform} ${arch}`,
    );
  }
  const name = binaryName(platform);
  const cached = toolCache.find('cloudflared', version, arch);
  if (cached) {
    const actual = await sha256Of(path.join(cached, name)).catch(() => 'unreadable');
    if (actual === (asset.binarySha256 ?? asset.sha256)) return path.join(cached, name);
    log(
      `The cloudflared ${version} in the tool cache is not the pinned one (its SHA-256 is ${actual}): deleted, and downloaded again.`,
    );
    await rm(cached, { recursive: true, force: true });
    await rm(`${cached}.complete`, { force: true });
  }
  const url = `${releaseBaseUrl.replace(/\/+$/, '')}/${version}/${asset.file}`;
  const downloaded = await toolCache.downloadTool(url).catch((error: unknown) => {
    const why =
      error instanceof toolCache.HTTPError
        ? `HTTP ${error.httpStatusCode}`
        : describeNetworkError(error, url, "the release host's").describe('no answer');
    throw new Error(`the download of release ${version} from ${url} failed: ${why}`);
  });
  const cleanUp = [downloaded];
  try {
    await checkSum(downloaded, asset.sha256, url);
    let binary = downloaded;
    if (asset.file.endsWith('.tgz')) {
      // The archive's sum is pinned, so its layout is known: the binary alone, at its top.
      const dir = await toolCache.extractTar(downloaded);
      cleanUp.push(dir);
      binary = path.join(dir, name);
      if (asset.binarySha256) await checkSum(binary, asset.binarySha256, `the cloudflared in ${url}`);
    }
    if (platform !== 'win32') await chmod(binary, 0o755);
    return path.join(await toolCache.cacheFile(binary, name, 'cloudflared', version, arch), name);
  } finally {
    for (const leftover of cleanUp) await rm(leftover, { recursive: true, force: true });
  }
}

async function checkSum(file: string, pinned: string, what: string): Promise<void> {
  const actual = await sha256Of(file);
  if (actual !== pinned) {
    throw new Error(`${what} was refused (and not run): its SHA-256 is ${actual}, not the pinned ${pinned}`);
  }
}

/** The one on PATH is the job's own choice, unchecked: the pinned sums are of one release. */
export async function locateCloudflared(install: InstallOptions | undefined, log: (line: string) => void) {
  const onPath = await which(binaryName(process.platform));
  if (onPath) {
    log(`Using cloudflared from PATH (not checked: the action checks only the one it downloads): ${onPath}`);
    return onPath;
  }
  try {
    const binary = await installCloudflared(install, log);
    const { version } = install?.release ?? CLOUDFLARED_RELEASE;
    log(`Using cloudflared ${version} from the tool cache, its SHA-256 checked: ${binary}`);
    return binary;
  } catch (error) {
    return { missing: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The simulator "runs the tests" of a suite run: when the scenario has `app` set, each URL of the
 * run's `urlReplacements` is fetched the way the service would (through a forward proxy when one is
 * given, trusting the given CA) and becomes one test case, which passes when the app answered
 * below 500. So an end-to-end test shows that the service really reached the job's app.
 *
 * The proxy is an option, not read from the environment: the simulator runs in the test process.
 */

import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export interface AppTestsOptions {
  /** The forward proxy the service goes through, `http://127.0.0.1:PORT`; without it, direct. */
  proxy?: string;
  /** Certificate authorities (PEM) to trust for https URLs, besides Node's own. */
  ca?: string | Buffer;
  /** Bound of each fetch; default 5 s. */
  timeoutMs?: number;
}

/** One test case of the simulator: as simulator.ts's SimTestCase. */
export interface AppTestCase {
  title: string;
  status: 'PASSED' | 'FAILED';
  durationMs: number;
}

export type AppAnswer = { status: number } | { error: string };

const DEFAULT_TIMEOUT_MS = 5000;

/** Opens a CONNECT tunnel to host:port through the proxy at `proxy`. */
function connectThrough(proxy: URL, host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: proxy.hostname,
      port: proxy.port,
      method: 'CONNECT',
      path: `${host}:${port}`,
      headers: { host: `${host}:${port}` },
    });
    req.on('connect', (res: IncomingMessage, socket: Socket) => {
      if (res.statusCode === 200) resolve(socket);
      else {
        socket.destroy();
        reject(new Error(`the proxy answered the CONNECT to ${host}:${port} with ${res.statusCode}`));
      }
    });
    req.on('error', reject);
    req.end();
  });
}

/** GET `url` once: the status of its answer, or why none came. */
export async function fetchApp(url: string, options: AppTestsOptions = {}): Promise<AppAnswer> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { error: 'not a URL' };
  }
  const https = target.protocol === 'https:';
  const port = Number(target.port || (https ? 443 : 80));
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const deadline = AbortSignal.timeout(timeoutMs);
  let req: ClientRequest | undefined;
  try {
    const tunnel = options.proxy ? await connectThrough(new URL(options.proxy), host, port) : undefined;
    return await new Promise<AppAnswer>((resolve, reject) => {
      const common = {
        hostname: host,
        port,
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        signal: deadline,
        headers: { host: target.host, 'user-agent': 'test-run-service-simulator' },
      };
      req = https
        ? httpsRequest({
            ...common,
            ca: options.ca,
            servername: host,
            ...(tunnel && {
              createConnection: () => connectTls({ socket: tunnel, servername: host, ca: options.ca }),
            }),
          })
        : httpRequest({ ...common, ...(tunnel && { createConnection: () => tunnel }) });
      req.on('response', (res: IncomingMessage) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  } catch (error) {
    if (deadline.aborted) return { error: `no answer within ${timeoutMs} ms` };
    const code = (error as { code?: unknown }).code;
    return { error: typeof code === 'string' ? code : (error as Error).message };
  } finally {
    req?.destroy();
  }
}

/**
 * The test cases of a suite run started with `options`: one per `urlReplacements` entry, or
 * undefined when there is none (the scripted cases apply).
 */
export async function runAppTests(
  options: Record<string, unknown>,
  settings: AppTestsOptions,
): Promise<AppTestCase[] | undefined> {
  const replacements = Array.isArray(options.urlReplacements) ? (options.urlReplacements as unknown[]) : [];
  if (replacements.length === 0) return undefined;
  return Promise.all(
    replacements.map(async (entry, i) => {
      const { original, replacement } = (entry ?? {}) as { original?: unknown; replacement?: unknown };
      const started = Date.now();
      const answer =
        typeof replacement === 'string' ? await fetchApp(replacement, settings) : { error: 'no replacement' };
      const reached = 'status' in answer && answer.status < 500;
      const outcome = 'status' in answer ? `HTTP ${answer.status}` : answer.error;
      return {
        title: `urlReplacements[${i}]: the app behind ${String(original)} answers (${outcome})`,
        status: reached ? 'PASSED' : 'FAILED',
        durationMs: Date.now() - started,
      } satisfies AppTestCase;
    }),
  );
}

import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import { eventually } from '../helpers/eventually.js';
import { runProcess } from '../helpers/process.js';
import { ConnectProxy, type ProxyOptions, type Upstream } from './proxy.js';
import { DEFAULT_API_KEY, Simulator } from './simulator.js';
import {
  CA_CERT_PATH,
  CERT_HOSTS,
  QUICK_TUNNEL_CERT_HOST,
  SERVER_CERT_PATH,
  TEST_HOST,
  TlsFront,
} from './tls-front.js';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUNS_PATH = '/v1/projects/p/runs';
const TEST_URL = `https://${TEST_HOST}${RUNS_PATH}`;
const OTHER_URL = `https://other.example.test${RUNS_PATH}`;

interface Stack {
  sim: Simulator;
  front: TlsFront;
  routes: Record<string, Upstream>;
}

const stoppers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(stoppers.splice(0).map((stop) => stop()));
});

/** The Simulator behind a TlsFront, and proxy routes for both certificate names to that front. */
async function startStack(): Promise<Stack> {
  const sim = await Simulator.start({ project: { statuses: ['PASSED'] } });
  stoppers.push(() => sim.stop());
  const front = await TlsFront.start({ target: { host: '127.0.0.1', port: Number(new URL(sim.url).port) } });
  stoppers.push(() => front.stop());
  const routes: Record<string, Upstream> = {};
  for (const host of CERT_HOSTS) routes[`${host}:443`] = { host: '127.0.0.1', port: front.port };
  return { sim, front, routes };
}

async function startProxy(options: ProxyOptions): Promise<ConnectProxy> {
  const proxy = await ConnectProxy.start(options);
  stoppers.push(() => proxy.stop());
  return proxy;
}

type ClientResult =
  | { ok: true; status: number; body: string }
  | { ok: false; message: string; code?: string; statusCode?: number; props: string[] };

/** POSTs to each URL in turn with @actions/http-client, in a child process with exactly `env` (plus PATH). */
const CLIENT_SCRIPT = `
import { HttpClient } from '@actions/http-client';
const client = new HttpClient('proxy-test');
const results = [];
for (const url of JSON.parse(process.env.CLIENT_URLS)) {
  try {
    const res = await client.post(url, '{}', {
      authorization: 'Bearer ' + process.env.CLIENT_KEY,
      'content-type': 'application/json',
    });
    results.push({ ok: true, status: res.message.statusCode, body: await res.readBody() });
  } catch (error) {
    const { message, code, statusCode } = error;
    results.push({ ok: false, message, code, statusCode, props: Object.getOwnPropertyNames(error).sort() });
  }
}
process.stdout.write(JSON.stringify(results));
`;

async function runClient(env: Record<string, string>, urls: string[] = [TEST_URL]): Promise<ClientResult[]> {
  const run = await runProcess(process.execPath, ['--input-type=module', '-e', CLIENT_SCRIPT], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      CLIENT_URLS: JSON.stringify(urls),
      CLIENT_KEY: DEFAULT_API_KEY,
      ...env,
    },
    timeoutMs: 20000,
  });
  if (run.code !== 0) throw new Error(`client exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as ClientResult[];
}

const trusted = { NODE_EXTRA_CA_CERTS: CA_CERT_PATH };

function expectRunStarted(result: ClientResult | undefined): void {
  expect(result).toEqual({ ok: true, status: 200, body: expect.stringMatching(/^\{"runId":"run-\d+"\}$/) });
}

/** The error @actions/http-client (through tunnel) throws when the proxy answers CONNECT with `status`. */
function tunnelRefused(status: number) {
  return {
    ok: false,
    message: `tunneling socket could not be established, statusCode=${status}`,
    code: 'ECONNRESET',
    props: ['code', 'message', 'stack'],
  };
}

describe('@actions/http-client through ConnectProxy and TlsFront (child processes)', () => {
  it.each(['https_proxy', 'HTTPS_PROXY'])(
    '%s: one CONNECT to the test host, the simulator gets the request',
    async (name) => {
      const { sim, front, routes } = await startStack();
      const proxy = await startProxy({ routes });

      const [result] = await runClient({ ...trusted, [name]: proxy.url });

      expectRunStarted(result);
      expect(proxy.requests).toEqual([
        { method: 'CONNECT', target: `${TEST_HOST}:443`, auth: 'none', status: 200, at: expect.any(Number) },
      ]);
      expect(front.connections).toEqual([{ servername: TEST_HOST, at: expect.any(Number) }]);
      expect(sim.requests).toHaveLength(1);
      expect(sim.requests[0]).toMatchObject({
        operation: 'startProjectRun',
        method: 'POST',
        path: RUNS_PATH,
        headers: { host: TEST_HOST, authorization: `Bearer ${DEFAULT_API_KEY}` },
      });
    },
  );

  it('with both set, https_proxy wins over HTTPS_PROXY', async () => {
    const { routes } = await startStack();
    const lower = await startProxy({ routes });
    const upper = await startProxy({ routes });

    const [result] = await runClient({ ...trusted, https_proxy: lower.url, HTTPS_PROXY: upper.url });

    expectRunStarted(result);
    expect(lower.connects).toHaveLength(1);
    expect(upper.requests).toEqual([]);
  });

  it('no_proxy=tests.example.test: that host is reached directly (and does not resolve), others still through the proxy', async () => {
    const { sim, routes } = await startStack();
    const proxy = await startProxy({ routes });

    const [direct, proxied] = await runClient({ ...trusted, https_proxy: proxy.url, no_proxy: TEST_HOST }, [
      TEST_URL,
      OTHER_URL,
    ]);

    expect(direct).toMatchObject({ ok: false, code: expect.stringMatching(/^(ENOTFOUND|EAI_AGAIN)$/) });
    expectRunStarted(proxied);
    expect(proxy.connects.map((entry) => entry.target)).toEqual(['other.example.test:443']);
    expect(sim.requests.map((request) => request.headers.host)).toEqual(['other.example.test']);
  });

  // What no_proxy entries bypass the proxy for https://tests.example.test (port 443).
  it.each([
    ['tests.example.test', true],
    ['TESTS.EXAMPLE.TEST', true],
    ['example.test', true], // a domain suffix on a dot boundary
    ['.example.test', true],
    ['tests.example.test:443', true],
    ['*', true],
    ['xample.test', false],
    ['tests.example.test:8443', false],
    ['other.example.test, example.org', false],
  ])('no_proxy=%s bypasses the proxy: %s', async (noProxy, bypassed) => {
    const { routes } = await startStack();
    const proxy = await startProxy({ routes });

    const [result] = await runClient({ ...trusted, https_proxy: proxy.url, no_proxy: noProxy });

    expect(proxy.connects).toHaveLength(bypassed ? 0 : 1);
    expect(result?.ok).toBe(!bypassed);
  });

  it('percent-encoded credentials in the proxy URL are decoded before they are sent', async () => {
    const { sim, routes } = await startStack();
    const proxy = await startProxy({ routes, credentials: { username: 'user', password: 'p@ss' } });
    const proxyUrl = proxy.urlWithCredentials('user', 'p@ss');
    expect(proxyUrl).toBe(`http://user:p%40ss@127.0.0.1:${proxy.port}`);

    const [result] = await runClient({ ...trusted, https_proxy: proxyUrl });

    expectRunStarted(result);
    expect(proxy.requests).toEqual([
      {
        method: 'CONNECT',
        target: `${TEST_HOST}:443`,
        auth: 'valid',
        username: 'user',
        status: 200,
        at: expect.any(Number),
      },
    ]);
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0]?.headers['proxy-authorization']).toBeUndefined();
  });

  it('so a proxy whose password really is "p%40ss" refuses them', async () => {
    const { routes } = await startStack();
    const proxy = await startProxy({ routes, credentials: { username: 'user', password: 'p%40ss' } });

    const [result] = await runClient({
      ...trusted,
      https_proxy: `http://user:p%40ss@127.0.0.1:${proxy.port}`,
    });

    expect(result).toEqual(tunnelRefused(407));
    expect(proxy.connects).toMatchObject([{ auth: 'invalid', username: 'user', status: 407 }]);
  });

  it('wrong credentials: 407, and the client throws a tunnelling error with code ECONNRESET', async () => {
    const { sim, routes } = await startStack();
    const proxy = await startProxy({ routes, credentials: { username: 'user', password: 'p@ss' } });

    const [result] = await runClient({ ...trusted, https_proxy: proxy.urlWithCredentials('user', 'wrong') });

    expect(result).toEqual(tunnelRefused(407));
    expect(proxy.requests).toEqual([
      {
        method: 'CONNECT',
        target: `${TEST_HOST}:443`,
        auth: 'invalid',
        username: 'user',
        status: 407,
        at: expect.any(Number),
      },
    ]);
    expect(sim.requests).toEqual([]);
  });

  it('no credentials for a proxy that requires them: 407', async () => {
    const { sim, routes } = await startStack();
    const proxy = await startProxy({ routes, credentials: { username: 'user', password: 'p@ss' } });

    const [result] = await runClient({ ...trusted, https_proxy: proxy.url });

    expect(result).toEqual(tunnelRefused(407));
    expect(proxy.connects).toMatchObject([{ target: `${TEST_HOST}:443`, auth: 'none', status: 407 }]);
    expect(sim.requests).toEqual([]);
  });

  it('a target the proxy has no route for: 502, logged', async () => {
    const { routes } = await startStack();
    const proxy = await startProxy({ routes });

    const [result] = await runClient({ ...trusted, https_proxy: proxy.url }, [
      `https://unknown.example.test${RUNS_PATH}`,
    ]);

    expect(result).toEqual(tunnelRefused(502));
    expect(proxy.connects).toMatchObject([{ target: 'unknown.example.test:443', status: 502 }]);
  });

  it.each([502, 403])('refuse: %i answers every CONNECT with it', async (status) => {
    const { sim, routes } = await startStack();
    const proxy = await startProxy({ routes, refuse: status });

    const [result] = await runClient({ ...trusted, https_proxy: proxy.url });

    expect(result).toEqual(tunnelRefused(status));
    expect(proxy.connects).toMatchObject([{ target: `${TEST_HOST}:443`, status }]);
    expect(sim.requests).toEqual([]);
  });

  it('refuseFirst: only that many CONNECTs are refused, then tunnels open', async () => {
    const { sim, routes } = await startStack();
    const proxy = await startProxy({ routes, refuse: 502, refuseFirst: 1 });

    const results = await runClient({ ...trusted, https_proxy: proxy.url }, [TEST_URL, TEST_URL]);

    expect(results[0]).toEqual(tunnelRefused(502));
    expectRunStarted(results[1]);
    expect(proxy.connects.map((entry) => entry.status)).toEqual([502, 200]);
    expect(sim.requests).toHaveLength(1);
  });

  it('refuseTargets: only CONNECTs to those targets are refused', async () => {
    const { sim, routes } = await startStack();
    const proxy = await startProxy({ routes, refuseTargets: { 'other.example.test:443': 403 } });

    const results = await runClient({ ...trusted, https_proxy: proxy.url }, [
      `https://other.example.test${RUNS_PATH}`,
      TEST_URL,
    ]);

    expect(results[0]).toEqual(tunnelRefused(403));
    expectRunStarted(results[1]);
    expect(proxy.connects.map((entry) => [entry.target, entry.status])).toEqual([
      ['other.example.test:443', 403],
      [`${TEST_HOST}:443`, 200],
    ]);
    expect(sim.requests).toHaveLength(1);
  });

  it('a proxy that refuses the TCP connection: the tunnelling error names the cause', async () => {
    const { routes } = await startStack();
    const proxy = await ConnectProxy.start({ routes });
    await proxy.stop();

    const [result] = await runClient({ ...trusted, https_proxy: proxy.url });

    expect(result).toEqual({
      ok: false,
      message: `tunneling socket could not be established, cause=connect ECONNREFUSED 127.0.0.1:${proxy.port}`,
      code: 'ECONNRESET',
      props: ['code', 'message', 'stack'],
    });
  });

  it('without NODE_EXTRA_CA_CERTS the client does not trust the certificate', async () => {
    const { sim, front, routes } = await startStack();
    const proxy = await startProxy({ routes });

    const [result] = await runClient({ https_proxy: proxy.url });

    expect(result).toEqual({
      ok: false,
      message: 'unable to verify the first certificate',
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      props: ['code', 'message', 'stack'],
    });
    expect(proxy.connects).toMatchObject([{ target: `${TEST_HOST}:443`, status: 200 }]);
    // The client's last bytes reach the front through the proxy, maybe after the client has exited.
    await eventually(() => expect(front.connections).toHaveLength(1));
    expect(sim.requests).toEqual([]);
  });
});

// ---- the pieces on their own, with raw sockets ----

/** Sends `request` to the proxy and reads the answer's head; the socket stays open, paused after the head. */
function rawRequest(port: number, request: string): Promise<{ head: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    stoppers.push(async () => {
      socket.destroy();
    });
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      socket.pause();
      const rest = received.slice(end + 4);
      if (rest !== '') socket.unshift(Buffer.from(rest, 'latin1'));
      resolve({ head: received.slice(0, end), socket });
    };
    socket.on('data', onData);
    socket.on('error', reject);
    socket.on('end', () => reject(new Error(`connection ended after ${JSON.stringify(received)}`)));
    socket.write(request);
  });
}

function connectRequest(target: string, headers: string[] = []): string {
  return [`CONNECT ${target} HTTP/1.1`, `Host: ${target}`, ...headers, '', ''].join('\r\n');
}

const basic = (text: string) => `Proxy-Authorization: Basic ${Buffer.from(text).toString('base64')}`;

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve();
    else socket.once('close', () => resolve());
  });
}

/** A TCP server that echoes, and keeps its sockets so a test can see them closed. */
async function startEcho(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stoppers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, sockets };
}

function readSome(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8')));
    socket.resume();
  });
}

describe('ConnectProxy', () => {
  it('a 407 carries Proxy-Authenticate: Basic realm="test" and closes the connection', async () => {
    const proxy = await startProxy({ routes: {}, credentials: { username: 'user', password: 'p@ss' } });

    const { head, socket } = await rawRequest(proxy.port, connectRequest('tests.example.test:443'));

    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 407 Proxy Authentication Required',
      'Proxy-Authenticate: Basic realm="test"',
      'Content-Length: 0',
      'Connection: close',
    ]);
    await closed(socket);
  });

  it.each([
    ['a malformed Basic header', 'Proxy-Authorization: Basic !!!!', undefined],
    ['another scheme', 'Proxy-Authorization: Bearer dXNlcjpwQHNz', undefined],
    ['no colon', basic('userp@ss'), undefined],
    ['the right password for another user', basic('someone:p@ss'), 'someone'],
  ])('%s is invalid: 407', async (_, header, username) => {
    const proxy = await startProxy({ routes: {}, credentials: { username: 'user', password: 'p@ss' } });

    const { head } = await rawRequest(proxy.port, connectRequest('tests.example.test:443', [header]));

    expect(head).toMatch(/^HTTP\/1.1 407 /);
    expect(proxy.connects).toEqual([
      {
        method: 'CONNECT',
        target: 'tests.example.test:443',
        auth: 'invalid',
        username,
        status: 407,
        at: expect.any(Number),
      },
    ]);
  });

  it('decodes Basic credentials as RFC 7617 says: UTF-8, split at the first colon, any scheme case', async () => {
    const echo = await startEcho();
    const routes = { 'tests.example.test:443': { host: '127.0.0.1', port: echo.port } };
    const proxy = await startProxy({ routes, credentials: { username: 'üser', password: 'p:ä%40' } });

    const header = `proxy-authorization: basic ${Buffer.from('üser:p:ä%40').toString('base64')}`;
    const { head, socket } = await rawRequest(proxy.port, connectRequest('TESTS.example.test:443', [header]));

    expect(head).toBe('HTTP/1.1 200 Connection Established');
    expect(proxy.connects).toMatchObject([
      { target: 'TESTS.example.test:443', auth: 'valid', username: 'üser' },
    ]);
    socket.write('ping');
    expect(await readSome(socket)).toBe('ping');
  });

  it('logs credentials it does not require as unchecked, and tunnels anyway', async () => {
    const echo = await startEcho();
    const proxy = await startProxy({ routes: { 'a.test:1': { host: '127.0.0.1', port: echo.port } } });

    const { head } = await rawRequest(proxy.port, connectRequest('a.test:1', [basic('user:secret')]));

    expect(head).toBe('HTTP/1.1 200 Connection Established');
    expect(proxy.connects).toMatchObject([{ auth: 'unchecked', username: 'user', status: 200 }]);
    expect(JSON.stringify(proxy.requests)).not.toContain('secret');
  });

  it('a route whose upstream refuses the connection: 502', async () => {
    const echo = await startEcho();
    const port = echo.port;
    await new Promise((resolve) => echo.server.close(resolve));
    const proxy = await startProxy({ routes: { 'a.test:1': { host: '127.0.0.1', port } } });

    const { head, socket } = await rawRequest(proxy.port, connectRequest('a.test:1'));

    expect(head).toMatch(/^HTTP\/1.1 502 Bad Gateway\r\n/);
    expect(proxy.connects).toMatchObject([{ target: 'a.test:1', status: 502 }]);
    await closed(socket);
  });

  it('answers a plain (absolute-form) proxy request 501 and logs it', async () => {
    const proxy = await startProxy({ routes: {} });

    const { head } = await rawRequest(
      proxy.port,
      'GET http://tests.example.test/v1/x HTTP/1.1\r\nHost: tests.example.test\r\n\r\n',
    );

    expect(head).toMatch(/^HTTP\/1.1 501 Not Implemented\r\n/);
    expect(proxy.requests).toEqual([
      {
        method: 'GET',
        target: 'http://tests.example.test/v1/x',
        auth: 'none',
        status: 501,
        at: expect.any(Number),
      },
    ]);
  });

  it('passes bytes sent with the CONNECT on, and stop() destroys both ends of an open tunnel', async () => {
    const echo = await startEcho();
    const proxy = await startProxy({ routes: { 'a.test:1': { host: '127.0.0.1', port: echo.port } } });

    const { head, socket } = await rawRequest(proxy.port, `${connectRequest('a.test:1')}early`);
    expect(head).toBe('HTTP/1.1 200 Connection Established');
    expect(await readSome(socket)).toBe('early');
    expect(echo.sockets).toHaveLength(1);

    await proxy.stop();

    await closed(socket);
    await closed(echo.sockets[0] as Socket);
  });
});

describe('TlsFront', () => {
  it('serves a certificate for CERT_HOSTS from the CA at CA_CERT_PATH, valid 2000-2100', () => {
    const ca = new X509Certificate(fs.readFileSync(CA_CERT_PATH));
    const cert = new X509Certificate(fs.readFileSync(SERVER_CERT_PATH));

    expect(ca.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subjectAltName).toBe(
      [
        ...[...CERT_HOSTS, QUICK_TUNNEL_CERT_HOST].map((host) => `DNS:${host}`),
        'IP Address:2001:DB8:0:0:0:0:0:1',
      ].join(', '),
    );
    for (const c of [ca, cert]) {
      expect(new Date(c.validFrom).getUTCFullYear()).toBe(2000);
      expect(new Date(c.validTo).getUTCFullYear()).toBe(2100);
    }
  });

  it('decrypts and pipes to the target; stop() destroys open connections', async () => {
    const echo = await startEcho();
    const front = await TlsFront.start({ target: { host: '127.0.0.1', port: echo.port } });
    stoppers.push(() => front.stop());

    const socket = tlsConnect({
      host: '127.0.0.1',
      port: front.port,
      servername: 'other.example.test',
      ca: fs.readFileSync(CA_CERT_PATH),
    });
    stoppers.push(async () => {
      socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', resolve);
      socket.once('error', reject);
    });
    socket.write('plain bytes');
    expect(await readSome(socket)).toBe('plain bytes');
    expect(front.connections).toEqual([{ servername: 'other.example.test', at: expect.any(Number) }]);

    await front.stop();

    await closed(socket);
    await closed(echo.sockets[0] as Socket);
  });
});

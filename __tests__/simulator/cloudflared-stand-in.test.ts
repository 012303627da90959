import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { eventually } from '../helpers/eventually.js';
import { fetchApp } from './app-tests.js';
import { StandInCloudflared, type StandInMode } from './cloudflared-stand-in.js';
import { LocalApp } from './local-app.js';
import { ConnectProxy } from './proxy.js';
import { Simulator } from './simulator.js';
import { CA_CERT_PATH } from './tls-front.js';

const CA = readFileSync(CA_CERT_PATH);
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(mode: StandInMode = 'ok') {
  const app = await LocalApp.start();
  cleanups.push(() => app.stop());
  const standIn = await StandInCloudflared.create(mode);
  cleanups.push(() => standIn.cleanup());
  const proxy = await ConnectProxy.start({ routes: {}, resolve: standIn.resolve });
  cleanups.push(() => proxy.stop());
  return { app, standIn, proxy };
}

describe('the stand-in cloudflared', () => {
  it('prints a quick tunnel URL that, through the proxy, reaches the origin with the public Host', async () => {
    const { app, standIn, proxy } = await setUp();
    const tunnel = await standIn.start(app.origin, ['--grace-period', '1s']);
    cleanups.push(() => tunnel.child.kill('SIGKILL'));
    expect(tunnel.publicOrigin).toMatch(/^https:\/\/[a-z]+-[a-z]+-[a-z]+-\d+\.trycloudflare\.com$/);
    const host = new URL(tunnel.publicOrigin as string).host;

    expect(await fetchApp(`${tunnel.publicOrigin}/hello?x=1`, { proxy: proxy.url, ca: CA })).toEqual({
      status: 200,
    });
    expect(app.seen.map((headers) => headers.host)).toEqual([host]);
    expect(proxy.connects.map((entry) => [entry.target, entry.status])).toEqual([[`${host}:443`, 200]]);
    // Without the test CA the certificate is refused; an unknown name gets no tunnel.
    expect(await fetchApp(`${tunnel.publicOrigin}/`, { proxy: proxy.url })).toEqual({
      error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    expect(await fetchApp('https://no-such-name.trycloudflare.com/', { proxy: proxy.url, ca: CA })).toEqual({
      error: 'the proxy answered the CONNECT to no-such-name.trycloudflare.com:443 with 502',
    });

    const ready = await fetch(`${tunnel.metrics}/ready`);
    expect(ready.status).toBe(200);
    expect(await (await fetch(`${tunnel.metrics}/quicktunnel`)).json()).toEqual({ hostname: host });

    expect(standIn.invocations()).toEqual([
      expect.objectContaining({
        pid: tunnel.child.pid,
        argv: [
          'tunnel',
          '--no-autoupdate',
          '--url',
          app.origin,
          '--metrics',
          '127.0.0.1:0',
          '--grace-period',
          '1s',
        ],
      }),
    ]);
    // 'close', not 'exit': its stderr may still hold the last lines when 'exit' comes.
    const exited = new Promise((resolve) =>
      tunnel.child.on('close', (code, signal) => resolve({ code, signal })),
    );
    tunnel.child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(tunnel.stderr()).toMatch(/INF Initiating graceful shutdown due to signal terminated/);
    expect(existsSync(path.join(standIn.stateDir, 'routes', host))).toBe(false);
  });

  it('unreachable: prints a URL that no route serves; /ready says registered', async () => {
    const { app, standIn, proxy } = await setUp('unreachable');
    const tunnel = await standIn.start(app.origin);
    cleanups.push(() => tunnel.child.kill('SIGKILL'));
    expect(tunnel.publicOrigin).toBeDefined();
    expect(await fetchApp(`${tunnel.publicOrigin}/`, { proxy: proxy.url, ca: CA })).toEqual({
      error: expect.stringMatching(/with 502$/),
    });
    expect((await fetch(`${tunnel.metrics}/ready`)).status).toBe(200);
  });

  it('quic-blocked: never registers over QUIC, and works with --protocol http2', async () => {
    const { app, standIn, proxy } = await setUp('quic-blocked');
    const quic = await standIn.start(app.origin);
    cleanups.push(() => quic.child.kill('SIGKILL'));
    expect((await fetch(`${quic.metrics}/ready`)).status).toBe(503);
    // The line may not have reached us yet when /ready answers: wait for it, a few seconds at most.
    await eventually(() => expect(quic.stderr()).toMatch(/ERR Failed to dial a quic connection/));
    const http2 = await standIn.start(app.origin, ['--protocol', 'http2']);
    cleanups.push(() => http2.child.kill('SIGKILL'));
    expect((await fetch(`${http2.metrics}/ready`)).status).toBe(200);
    expect(await fetchApp(`${http2.publicOrigin}/`, { proxy: proxy.url, ca: CA })).toEqual({ status: 200 });
  });

  it.each<[StandInMode, RegExp]>([
    ['exit-early', /ERR failed to request quick Tunnel: .*no such host/],
    ['refuse-429', /status_code="429 Too Many Requests"/],
  ])('%s: exits with code 1 before printing a URL', async (mode, line) => {
    const { app, standIn } = await setUp(mode);
    const failed = standIn.start(app.origin);
    await expect(failed).rejects.toThrow(/exited \(1\) before it was up/);
    await expect(failed).rejects.toThrow(line);
    await expect(failed).rejects.not.toThrow(/trycloudflare\.com +\|/);
  });
});

describe('the simulator runs the tests against the app', () => {
  it('fetches each replacement URL through the proxy: one case per URL, failing when the app did not answer', async () => {
    const { app, standIn, proxy } = await setUp();
    const tunnel = await standIn.start(app.origin);
    cleanups.push(() => tunnel.child.kill('SIGKILL'));
    const sim = await Simulator.start({ app: { proxy: proxy.url, ca: CA } });
    cleanups.push(() => sim.stop());
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(sim.url + url, {
        method,
        headers: { authorization: 'Bearer test-api-key', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const started = await call('POST', '/v1/testSuite/suite-1/run', {
      urlReplacements: [
        { original: 'https://www.example.com', replacement: `${tunnel.publicOrigin}/shop?x=1` },
        { original: 'https://api.example.com', replacement: 'https://gone-name-here.trycloudflare.com' },
      ],
    });
    const id = started.testSuiteRunId as string;
    // RUNNING until every fetch is done (each is bounded by 5 s), then as scripted: RUNNING, FINISHED.
    await sim.appTestsDone(id);
    let status: unknown;
    do status = (await call('GET', `/v1/testSuiteRun/${id}/status`)).status;
    while (status === 'RUNNING');
    expect(status).toBe('FINISHED');
    const result = await call('GET', `/v1/testSuiteRun/${id}/result`);
    expect(result.results).toEqual([
      expect.objectContaining({
        testName: 'urlReplacements[0]: the app behind https://www.example.com answers (HTTP 200)',
        status: 'PASSED',
      }),
      expect.objectContaining({
        testName:
          'urlReplacements[1]: the app behind https://api.example.com answers (the proxy answered the CONNECT to gone-name-here.trycloudflare.com:443 with 502)',
        status: 'FAILED',
      }),
    ]);
    expect(app.seen.map((headers) => headers['user-agent'])).toEqual(['test-run-service-simulator']);
  });

  it('without urlReplacements, or without `app`, the scripted cases apply', async () => {
    const sim = await Simulator.start({ app: {} });
    cleanups.push(() => sim.stop());
    const headers = { authorization: 'Bearer test-api-key', 'content-type': 'application/json' };
    const start = await fetch(`${sim.url}/v1/testSuite/s/run`, { method: 'POST', headers, body: '{}' });
    const { testSuiteRunId } = (await start.json()) as { testSuiteRunId: string };
    const result = await fetch(`${sim.url}/v1/testSuiteRun/${testSuiteRunId}/result`, { headers });
    expect(((await result.json()) as { results: unknown[] }).results).toHaveLength(3);
  });
});

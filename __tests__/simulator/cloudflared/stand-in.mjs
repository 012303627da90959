/**
 * A stand-in for `cloudflared tunnel --url <origin>` (a quick tunnel), for the tests: each test world
 * writes a `cloudflared` of its own (../cloudflared-stand-in.ts) that sets its settings and imports
 * this file. The settings travel inside that executable, not in the environment: the action gives
 * cloudflared an allow-list of variables, and test variables are not on it.
 *
 * It takes the real one's arguments, writes its log to stderr the way the real one does (the public
 * URL inside a box of INF lines), answers `/ready` and `/quicktunnel` on `--metrics`, and serves its
 * `https://<words>.trycloudflare.com` name over TLS (the test certificate in ../tls covers
 * *.trycloudflare.com), forwarding every connection unchanged to the origin. Nothing resolves that
 * name: the stand-in writes `<state dir>/routes/<name>` holding its TLS port, and the tests' CONNECT
 * proxy (../proxy.ts, `resolve`) reads it, so that a client behind the proxy reaches the app the way
 * it would through Cloudflare.
 *
 * Settings (globalThis.cloudflaredStandIn):
 *   stateDir   state folder (required): invocations.jsonl gets one line per start (its count is the
 *              attempt number, across processes; each line names the variables it received), routes/
 *              the names
 *   mode       ok (default) | exit-early | no-url | unreachable | reachable-from-2nd |
 *              refuse-429 | quic-blocked (never registers unless --protocol http2) |
 *              ignore-sigterm (only SIGKILL ends it)
 */

import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect as connectTcp } from 'node:net';
import * as path from 'node:path';
import { connect as connectTls, createServer as createTlsServer } from 'node:tls';
import { fileURLToPath } from 'node:url';

const TLS_DIR = fileURLToPath(new URL('../tls/', import.meta.url));
const WORDS = [
  'seasonal',
  'deck',
  'organisms',
  'quiet',
  'river',
  'lamp',
  'copper',
  'meadow',
  'signal',
  'harbor',
];
const FLAGS_WITH_VALUE = new Set(['--url', '--metrics', '--config', '--grace-period', '--protocol']);
const FLAGS_ALONE = new Set(['--no-autoupdate', '--no-tls-verify']);

const time = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const log = (level, message) => {
  try {
    process.stderr.write(`${time()} ${level} ${message}\n`);
  } catch {
    // a closed pipe: nobody reads any more
  }
};

function parseArguments(argv) {
  const [command, ...rest] = argv;
  const flags = {};
  if (command !== 'tunnel') return { error: `No help topic for '${command ?? ''}'` };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (FLAGS_ALONE.has(arg)) flags[arg] = true;
    else if (FLAGS_WITH_VALUE.has(arg) && i + 1 < rest.length) flags[arg] = rest[++i];
    else return { error: `flag provided but not defined: ${arg}` };
  }
  return { flags };
}

const parsed = parseArguments(process.argv.slice(2));
if (parsed.error) {
  // As the real one: usage, and exit code 0.
  process.stderr.write(`Incorrect Usage: ${parsed.error}\n\n`);
  process.stdout.write(
    'NAME:\n   cloudflared tunnel - Use Cloudflare Tunnel to expose private services to the Internet.\n',
  );
  process.exit(0);
}
const { flags } = parsed;
const { stateDir, mode = 'ok' } = globalThis.cloudflaredStandIn ?? {};
if (!stateDir) {
  log('ERR', 'started without its settings: run the cloudflared that cloudflared-stand-in.ts writes');
  process.exit(2);
}
const invocations = path.join(stateDir, 'invocations.jsonl');
appendFileSync(
  invocations,
  `${JSON.stringify({
    pid: process.pid,
    argv: process.argv.slice(2),
    env: Object.keys(process.env),
    config: flags['--config'] === undefined ? null : readFileSync(flags['--config'], 'utf8'),
  })}\n`,
);
const attempt = readFileSync(invocations, 'utf8').trim().split('\n').length;
const http2 = flags['--protocol'] === 'http2';
const reachable =
  mode === 'ok' ||
  mode === 'ignore-sigterm' ||
  (mode === 'reachable-from-2nd' && attempt >= 2) ||
  (mode === 'quic-blocked' && http2);
const registers = mode !== 'no-url' && (mode !== 'quic-blocked' || http2);

const pick = () => WORDS[Math.floor(Math.random() * WORDS.length)];
const hostname = `${pick()}-${pick()}-${pick()}-${process.pid}.trycloudflare.com`;
const routeFile = path.join(stateDir, 'routes', hostname);
const origin = new URL(flags['--url'] ?? 'http://localhost:8080');
let registered = false;
let announced = false;

log(
  'INF',
  'Thank you for trying Cloudflare Tunnel. Doing so, without a Cloudflare account, is a quick way to experiment and try it out. However, be aware that these account-less Tunnels have no uptime guarantee, are subject to the Cloudflare Online Services Terms of Use (https://www.cloudflare.com/website-terms/), and Cloudflare reserves the right to investigate your use of Tunnels for violations of such terms. If you intend to use Tunnels in production you should use a pre-created named tunnel by following: https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/get-started/',
);
log('INF', 'Requesting new quick Tunnel on trycloudflare.com...');

if (mode === 'exit-early') {
  log(
    'ERR',
    'failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com on 127.0.0.53:53: no such host',
  );
  process.exit(1);
}
if (mode === 'refuse-429') {
  log(
    'ERR',
    'Error unmarshaling QuickTunnel response: error code: 1015 error="invalid character \'e\' looking for beginning of value" status_code="429 Too Many Requests"',
  );
  process.stderr.write(
    "failed to unmarshal quick Tunnel: invalid character 'e' looking for beginning of value\n",
  );
  process.exit(1);
}

// Forwards each TLS connection, decrypted, to the origin: the app sees Host: <name>.trycloudflare.com.
const tlsServer = createTlsServer(
  {
    key: readFileSync(path.join(TLS_DIR, 'server.key')),
    cert: readFileSync(path.join(TLS_DIR, 'server.crt')),
  },
  (socket) => {
    const port = Number(origin.port || (origin.protocol === 'https:' ? 443 : 80));
    const host = origin.hostname.replace(/^\[(.*)\]$/, '$1');
    const upstream =
      origin.protocol === 'https:'
        ? connectTls({ host, port, servername: host, rejectUnauthorized: !flags['--no-tls-verify'] })
        : connectTcp({ host, port });
    const destroyBoth = () => {
      socket.destroy();
      upstream.destroy();
    };
    for (const end of [socket, upstream]) {
      end.on('error', destroyBoth);
      end.on('close', destroyBoth);
    }
    socket.pipe(upstream).pipe(socket);
  },
);

const [metricsHost, metricsPort] = (flags['--metrics'] ?? '127.0.0.1:0').split(/:(?=\d+$)/);
const metrics = createHttpServer((req, res) => {
  const json = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (req.url === '/ready') {
    const status = registered ? 200 : 503;
    json(status, {
      status,
      readyConnections: registered ? 1 : 0,
      connectorId: '5d7c0f2e-7a51-4d8e-9d43-0b9f2b8a1c11',
    });
  } else if (req.url === '/quicktunnel') {
    json(200, { hostname: announced ? hostname : '' });
  } else {
    res.writeHead(404);
    res.end();
  }
});

function shutdown(signal) {
  // Silently: after a killed parent, a line to the closed stderr would end it (as it would the real one).
  if (mode === 'ignore-sigterm') return;
  log(
    'INF',
    `Initiating graceful shutdown due to signal ${signal === 'SIGINT' ? 'interrupt' : 'terminated'} ...`,
  );
  rmSync(routeFile, { force: true });
  process.exit(0);
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('exit', () => rmSync(routeFile, { force: true }));

tlsServer.listen(0, '127.0.0.1', () => {
  metrics.listen(Number(metricsPort), metricsHost, () => {
    // The name routes before any line is printed: a test that waits for a line can use the name.
    if (reachable) {
      mkdirSync(path.dirname(routeFile), { recursive: true });
      writeFileSync(routeFile, String(tlsServer.address().port));
    }
    if (mode !== 'no-url') {
      const url = `https://${hostname}`;
      const width = 92;
      const boxed = (text) => `|  ${text.padEnd(width - 4)}  |`;
      log('INF', `+${'-'.repeat(width)}+`);
      log(
        'INF',
        boxed('Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):'),
      );
      log('INF', boxed(url));
      log('INF', `+${'-'.repeat(width)}+`);
      announced = true;
    }
    log('INF', 'Version 2026.8.0 (stand-in)');
    log(
      'INF',
      `Settings: map[${Object.entries(flags)
        .map(([k, v]) => `${k.slice(2)}:${v}`)
        .join(' ')}]`,
    );
    log('INF', `Initial protocol ${http2 ? 'http2' : 'quic'}`);
    log('INF', `Starting metrics server on ${metricsHost}:${metrics.address().port}/metrics`);
    if (registers) {
      registered = true;
      log(
        'INF',
        `Registered tunnel connection connIndex=0 connection=0c9d7b6e-2f3a-4b1c-8e5d-7a6f5e4d3c2b event=0 ip=198.41.192.27 location=fra08 protocol=${http2 ? 'http2' : 'quic'}`,
      );
    } else if (mode === 'quic-blocked') {
      const blocked = () => {
        log(
          'ERR',
          'Failed to dial a quic connection error="failed to dial to edge with quic: timeout: no recent network activity" connIndex=0 event=0 ip=198.41.192.27',
        );
        log('INF', 'Retrying connection in up to 2s connIndex=0 event=0 ip=198.41.192.27');
      };
      blocked();
      setInterval(blocked, 200);
    }
  });
});

/**
 * A TLS server on 127.0.0.1 in front of a plain TCP service (the Simulator), for the proxy tests.
 *
 * It presents the committed certificate for CERT_HOSTS, signed by the test CA at CA_CERT_PATH
 * (see tls/generate.sh), and pipes each decrypted connection to the target unchanged, so the
 * target sees plain HTTP. A ConnectProxy route sends a test host name's tunnel here; a child
 * process trusts the CA through NODE_EXTRA_CA_CERTS.
 */

import * as fs from 'node:fs';
import { type AddressInfo, connect, type Socket } from 'node:net';
import * as path from 'node:path';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { Connections, listen } from './loopback.js';
import { pipeBothWays, type Upstream } from './proxy.js';

const TLS_DIR = fileURLToPath(new URL('./tls/', import.meta.url));
/** The test CA's certificate (PEM), for NODE_EXTRA_CA_CERTS. */
export const CA_CERT_PATH = path.join(TLS_DIR, 'ca.crt');
export const SERVER_CERT_PATH = path.join(TLS_DIR, 'server.crt');
const SERVER_KEY_PATH = path.join(TLS_DIR, 'server.key');
/** The names the server certificate covers; nothing resolves them. */
export const CERT_HOSTS = ['tests.example.test', 'other.example.test'] as const;
export const TEST_HOST = CERT_HOSTS[0];
/** The certificate covers the stand-in cloudflared's names too (see cloudflared-stand-in.ts). */
export const QUICK_TUNNEL_CERT_HOST = '*.trycloudflare.com';
/** An IPv6 literal the certificate covers too (a documentation address: nothing routes it), for a base-url in brackets behind a proxy. */
export const IPV6_CERT_HOST = '2001:db8::1';

export interface TlsFrontOptions {
  target: Upstream;
}

export interface TlsConnectionLog {
  /** The SNI name the client asked for, if any. */
  servername?: string;
  /** Set when the handshake failed (e.g. the client did not trust the certificate). */
  error?: string;
  /** Date.now() when the handshake ended. */
  at: number;
}

export class TlsFront {
  readonly port: number;
  /** One entry per handshake, successful or not. */
  readonly connections: TlsConnectionLog[] = [];

  private readonly server: Server;
  private readonly target: Upstream;
  private readonly open = new Connections();
  private stopped = false;

  private constructor(server: Server, options: TlsFrontOptions) {
    this.server = server;
    this.target = options.target;
    this.port = (server.address() as AddressInfo).port;
    server.on('connection', (socket: Socket) => this.open.track(socket));
    server.on('secureConnection', (socket: TLSSocket) => this.forward(socket));
    server.on('tlsClientError', (error: Error, socket: TLSSocket) => {
      this.connections.push({ servername: servername(socket), error: error.message, at: Date.now() });
      socket.destroy();
    });
  }

  static async start(options: TlsFrontOptions): Promise<TlsFront> {
    const server = createServer({
      key: fs.readFileSync(SERVER_KEY_PATH),
      cert: fs.readFileSync(SERVER_CERT_PATH),
    });
    await listen(server);
    return new TlsFront(server, options);
  }

  /** Closes the server and destroys every socket, client and upstream. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.open.close(this.server);
  }

  private forward(socket: TLSSocket): void {
    this.connections.push({ servername: servername(socket), at: Date.now() });
    this.open.track(socket);
    const upstream = connect(this.target.port, this.target.host);
    this.open.track(upstream);
    pipeBothWays(socket, upstream);
  }
}

function servername(socket: TLSSocket): string | undefined {
  return typeof socket.servername === 'string' ? socket.servername : undefined;
}

/**
 * The job's own app, for the tunnel tests: an HTTP (or HTTPS, with the test certificate, which
 * does not cover localhost) server on 127.0.0.1 that answers every path and keeps the headers of
 * each request.
 */

import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Connections, listen } from './loopback.js';
import { SERVER_CERT_PATH } from './tls-front.js';

const SERVER_KEY_PATH = SERVER_CERT_PATH.replace(/server\.crt$/, 'server.key');

export class LocalApp {
  /** The headers of every request, in order. */
  readonly seen: IncomingHttpHeaders[] = [];
  private readonly connections = new Connections();

  private constructor(
    private readonly server: Server,
    private readonly scheme: 'http' | 'https',
    status: number,
  ) {
    server.on('connection', (socket) => this.connections.track(socket));
    server.on('request', (req, res) => {
      this.seen.push(req.headers);
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(`hello from ${req.url}`);
    });
  }

  /** An app answering `status` (200 unless told) to everything. */
  static async start(options: { https?: boolean; status?: number } = {}): Promise<LocalApp> {
    const server = options.https
      ? createHttpsServer({ key: readFileSync(SERVER_KEY_PATH), cert: readFileSync(SERVER_CERT_PATH) })
      : createServer();
    await listen(server);
    return new LocalApp(server, options.https ? 'https' : 'http', options.status ?? 200);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `http://localhost:PORT` */
  get origin(): string {
    return `${this.scheme}://localhost:${this.port}`;
  }

  stop(): Promise<void> {
    return this.connections.close(this.server);
  }
}

/**
 * An HTTP proxy on 127.0.0.1 for the proxy tests. It opens CONNECT tunnels, the way
 * @actions/http-client (through the `tunnel` package) reaches a URL behind `https_proxy`.
 *
 * Nothing resolves the test host names: `routes` maps each CONNECT target ('host:port') to a local
 * address, typically a TlsFront in front of the Simulator; `resolve` answers for targets known only
 * while the test runs (the stand-in cloudflared's `*.trycloudflare.com:443`). Every request is
 * logged, so a test can tell whether the client went through the proxy, to which target, and with
 * which credentials.
 *
 * Choices:
 * - Order of checks for a CONNECT: `refuse`, `refuseTargets`, credentials (407), route (502 for an
 *   unknown target), then the upstream connection (502 when it fails). 200 is sent only once
 *   upstream is connected.
 * - Every answer other than 200 closes the connection.
 * - Plain proxy requests (absolute-form `GET http://...`) get 501 and are logged, not forwarded:
 *   http-client tunnels http:// targets with CONNECT too, so the action never sends them.
 * - Credentials are compared exactly as received: base64-decoded (UTF-8) and split at the first
 *   colon, with no percent-decoding, so a test sees what the client really sent.
 */

import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { Connections, listen } from './loopback.js';

export interface Upstream {
  host: string;
  port: number;
}

export interface ProxyCredentials {
  username: string;
  password: string;
}

export interface ProxyOptions {
  /** CONNECT targets ('host:port', host names in lower case) and where to open their tunnel. */
  routes: Record<string, Upstream>;
  /** Asked for a target that `routes` does not name; undefined for an unknown one. */
  resolve?: (target: string) => Upstream | undefined;
  /** When set, every CONNECT needs `Proxy-Authorization: Basic` with exactly these. */
  credentials?: ProxyCredentials;
  /** When set, every CONNECT is answered with this status (and closed), whatever else it carries. */
  refuse?: number;
  /** With `refuse`: only the first this many CONNECTs are refused, as a proxy that recovers. */
  refuseFirst?: number;
  /** CONNECT targets ('host:port') answered with this status, as a proxy whose policy forbids them. */
  refuseTargets?: Record<string, number>;
}

/**
 * What the request's Proxy-Authorization said: 'none' (no header), 'valid' or 'invalid' (wrong or
 * malformed) against the proxy's credentials, 'unchecked' (a header, but the proxy requires none).
 */
export type ProxyAuth = 'none' | 'valid' | 'invalid' | 'unchecked';

export interface ProxyLogEntry {
  method: string;
  /** CONNECT: 'host:port' as received; otherwise the request target (an absolute URL for a proxy request). */
  target: string;
  auth: ProxyAuth;
  /** The user name of a well-formed Basic header, as received. The password is never kept. */
  username?: string;
  /** The status the proxy answered. */
  status: number;
  /** Date.now() when the request was received. */
  at: number;
}

const ESTABLISHED = 'HTTP/1.1 200 Connection Established\r\n\r\n';

export class ConnectProxy {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** Every request answered, in the order of the answers. */
  readonly requests: ProxyLogEntry[] = [];

  private readonly options: ProxyOptions;
  private readonly server: Server;
  private readonly connections = new Connections();
  private stopped = false;
  private refused = 0;

  private constructor(server: Server, options: ProxyOptions) {
    this.server = server;
    this.options = options;
    this.port = (server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
    server.on('connection', (socket: Socket) => this.connections.track(socket));
    server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) =>
      this.tunnel(req, socket, head),
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.plain(req, res));
  }

  static async start(options: ProxyOptions): Promise<ConnectProxy> {
    const server = createServer();
    await listen(server);
    return new ConnectProxy(server, options);
  }

  /** The CONNECT requests of the log. */
  get connects(): ProxyLogEntry[] {
    return this.requests.filter((entry) => entry.method === 'CONNECT');
  }

  /** The proxy URL with credentials in it, percent-encoded as a URL needs: http://user:p%40ss@127.0.0.1:PORT */
  urlWithCredentials(username: string, password: string): string {
    return `http://${encodeURIComponent(username)}:${encodeURIComponent(password)}@127.0.0.1:${this.port}`;
  }

  /** Closes the server and destroys every socket, client and upstream, open tunnels included. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.connections.close(this.server);
  }

  private tunnel(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const at = Date.now();
    const target = req.url ?? '';
    const auth = this.authorise(req);
    const answered = (status: number) =>
      this.requests.push({ method: 'CONNECT', target, ...auth, status, at });
    const refuse = (status: number) => {
      answered(status);
      closeWith(socket, status);
    };
    socket.on('error', () => socket.destroy());

    const route = this.options.routes[target.toLowerCase()] ?? this.options.resolve?.(target.toLowerCase());
    const refusal = this.refusal(target.toLowerCase(), auth.auth, route);
    if (refusal !== undefined || !route) {
      refuse(refusal ?? 502);
      return;
    }

    const upstream = connect(route.port, route.host);
    this.connections.track(upstream);
    const abandon = () => upstream.destroy();
    socket.once('close', abandon);
    upstream.once('error', () => {
      socket.off('close', abandon);
      refuse(502);
    });
    upstream.once('connect', () => {
      upstream.removeAllListeners('error');
      socket.off('close', abandon);
      if (socket.destroyed) {
        upstream.destroy();
        return;
      }
      answered(200);
      socket.write(ESTABLISHED);
      if (head.length > 0) upstream.write(head);
      pipeBothWays(socket, upstream);
    });
  }

  private plain(req: IncomingMessage, res: ServerResponse): void {
    const auth = this.authorise(req);
    this.requests.push({
      method: req.method ?? '',
      target: req.url ?? '',
      ...auth,
      status: 501,
      at: Date.now(),
    });
    req.resume();
    res.writeHead(501, { 'content-type': 'text/plain', connection: 'close' });
    res.end('This test proxy only opens CONNECT tunnels\n');
  }

  /** The status to refuse a CONNECT with, checks in the documented order; undefined to open the tunnel. */
  private refusal(target: string, auth: ProxyAuth, route: Upstream | undefined): number | undefined {
    const { refuse, refuseFirst } = this.options;
    if (refuse !== undefined && (refuseFirst === undefined || this.refused < refuseFirst)) {
      this.refused++;
      return refuse;
    }
    const forTarget = this.options.refuseTargets?.[target];
    if (forTarget !== undefined) return forTarget;
    if (this.options.credentials !== undefined && auth !== 'valid') return 407;
    if (!route) return 502;
    return undefined;
  }

  private authorise(req: IncomingMessage): { auth: ProxyAuth; username?: string } {
    const header = req.headers['proxy-authorization'];
    if (header === undefined) return { auth: 'none' };
    const sent = decodeBasic(header);
    const expected = this.options.credentials;
    const username = sent?.username;
    if (!expected) return { auth: 'unchecked', username };
    const valid = sent?.username === expected.username && sent.password === expected.password;
    return { auth: valid ? 'valid' : 'invalid', username };
  }
}

/** Copies each socket into the other; when either fails or closes, both are destroyed. */
export function pipeBothWays(a: Socket, b: Socket): void {
  const destroyBoth = () => {
    a.destroy();
    b.destroy();
  };
  for (const socket of [a, b]) {
    socket.on('error', destroyBoth);
    socket.on('close', destroyBoth);
  }
  a.pipe(b);
  b.pipe(a);
}

/** The user and password of a `Basic` header (RFC 7617); undefined when it is not a well-formed one. */
function decodeBasic(header: string): ProxyCredentials | undefined {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  const encoded = match?.[1];
  if (encoded === undefined || encoded.length % 4 !== 0) return undefined;
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

function closeWith(socket: Socket, status: number): void {
  if (socket.destroyed) return;
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}`,
    ...(status === 407 ? ['Proxy-Authenticate: Basic realm="test"'] : []),
    'Content-Length: 0',
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n`);
}

/**
 * What the two JSON test servers (the service simulator and the GitHub simulator) share: the
 * loopback server and its connections, a log and a count of requests by operation (with when each
 * was received and answered, so a test can see how many were in flight at once), faults chosen by
 * request number, timers that stop with the server, and reading and answering JSON.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Clock, systemClock } from '../../src/service/clock.js';
import { Connections, listen } from './loopback.js';

/** An answer: a status, a JSON body and extra headers. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ParsedBody {
  value: unknown;
  /** True when the body was not empty and not valid JSON. */
  invalid: boolean;
}

export interface LoggedRequest<Operation extends string> {
  operation: Operation | 'unknown';
  /** 1-based count of this operation, counting faulted requests too. */
  n: number;
  method: string;
  /** Full path as received (with prefix and query string). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, raw text if not JSON, undefined when empty. */
  body: unknown;
  /** The server's clock (Date.now() unless given one) when received. */
  at: number;
  /**
   * The server's clock when the answer was written, or when the connection closed without one (a
   * reset, a hang until the client gave up or the server stopped); undefined while in flight.
   */
  answeredAt?: number;
}

export interface FaultRule<Operation extends string, Fault> {
  operation: Operation;
  /** Which requests of that operation (1-based, counted per operation): a list, a range, or every one. */
  requests: number[] | { from: number; to?: number } | 'all';
  fault: Fault;
}

export interface StartOptions {
  /** Port to listen on; default 0 (a free port). */
  port?: number;
  /** Loopback address to listen on: '127.0.0.1' (default) or '::1'. */
  host?: '127.0.0.1' | '::1';
  /** The clock of the server's time and delays (a test's, to play them without waiting); default the system's. */
  clock?: Clock;
}

/** A new HTTP server listening on loopback, to hand to a JsonServer's constructor. */
export async function listeningServer(options: StartOptions = {}): Promise<Server> {
  const server = createServer();
  await listen(server, options.port, options.host);
  return server;
}

export abstract class JsonServer<Operation extends string> {
  /** http://address:port of the server (an IPv6 address in brackets). */
  readonly origin: string;
  readonly requests: LoggedRequest<Operation>[] = [];
  /** True once stop() was called: nothing is answered any more. */
  protected stopped = false;
  protected readonly clock: Clock;

  private readonly server: Server;
  private readonly connections = new Connections();
  /** Aborted by stop(): ends every delay. */
  private readonly stopping = new AbortController();
  private readonly counts = new Map<Operation | 'unknown', number>();
  /** Each request's log entry, for the response's 'close' to stamp answeredAt. */
  private readonly entries = new WeakMap<IncomingMessage, LoggedRequest<Operation>>();
  /** The requests received and not yet answered. */
  private readonly inFlight = new Set<LoggedRequest<Operation>>();
  /** For each request, those in flight when it arrived. */
  private readonly inFlightAtArrival = new WeakMap<LoggedRequest<Operation>, LoggedRequest<Operation>[]>();
  /** requestCounts() counts the log from here: resetCounts() moves it to the end. */
  private countedFrom = 0;
  private readonly waiters: { operation: Operation; count: number; resolve: () => void }[] = [];

  protected constructor(server: Server, clock: Clock = systemClock) {
    this.server = server;
    this.clock = clock;
    const { address, port } = server.address() as AddressInfo;
    this.origin = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
    server.on('connection', (socket: Socket) => this.connections.track(socket));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      // 'close' follows the answer's last byte, or a connection closed without an answer.
      res.once('close', () => {
        const entry = this.entries.get(req);
        if (!entry) return;
        entry.answeredAt ??= this.clock.now();
        this.inFlight.delete(entry);
      });
      this.handle(req, res).catch(() => req.socket.destroy());
    });
  }

  /** How many requests of `operation` have arrived (faulted ones count too). */
  count(operation: Operation): number {
    return this.counts.get(operation) ?? 0;
  }

  /**
   * How many requests of each operation ('unknown' for a path not served) arrived since the last
   * resetCounts(), or since the start; an operation without any is left out. Unlike count() and
   * the request numbers of faults, which count since the start.
   */
  requestCounts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const request of this.requests.slice(this.countedFrom)) {
      counts[request.operation] = (counts[request.operation] ?? 0) + 1;
    }
    return counts;
  }

  /** Starts requestCounts() again from zero (the log, count() and request numbers are kept). */
  resetCounts(): void {
    this.countedFrom = this.requests.length;
  }

  /**
   * The most requests of `operations` (default: all) that were in flight at once, over the whole
   * log: received and not yet answered. Counted by the order of events, not by the clock (two
   * requests in turn within one millisecond never overlap): the most is reached when a request
   * arrives, so it is the most, over each request, of it and those still in flight then.
   */
  maxInFlight(operations?: readonly (Operation | 'unknown')[]): number {
    const wanted = (request: LoggedRequest<Operation>) =>
      operations === undefined || operations.includes(request.operation);
    let most = 0;
    for (const request of this.requests.filter(wanted)) {
      const others = (this.inFlightAtArrival.get(request) ?? []).filter(wanted);
      most = Math.max(most, 1 + others.length);
    }
    return most;
  }

  /** Resolves once `count` requests of `operation` have arrived (faulted ones count too). */
  waitForRequests(operation: Operation, count = 1): Promise<void> {
    if (this.count(operation) >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ operation, count, resolve }));
  }

  /** Closes the server, destroys every open connection (hung ones too) and ends pending delays. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.stopping.abort();
    await this.connections.close(this.server);
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>;

  /**
   * Counts and logs a request of `operation` (when it arrives, before its body), then reads its body.
   * Returns the request's number among those of its operation and the parsed body.
   */
  protected async receive(
    req: IncomingMessage,
    operation: Operation | 'unknown',
  ): Promise<{ n: number; body: ParsedBody }> {
    const entry: LoggedRequest<Operation> = {
      operation,
      n: (this.counts.get(operation) ?? 0) + 1,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: { ...req.headers },
      body: undefined,
      at: this.clock.now(),
    };
    this.counts.set(operation, entry.n);
    this.requests.push(entry);
    this.entries.set(req, entry);
    this.inFlightAtArrival.set(entry, [...this.inFlight]);
    this.inFlight.add(entry);
    for (const waiter of this.waiters.filter(
      (each) => each.operation === operation && each.count <= entry.n,
    )) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const body = parseBody(await readBody(req));
    entry.body = body.value;
    return { n: entry.n, body };
  }

  /** Runs `fn` after `ms` on the server's clock, unless the server has stopped by then. */
  protected later(ms: number, fn: () => void): void {
    void this.clock.sleep(ms, this.stopping.signal).then(() => {
      if (!this.stopped) fn();
    });
  }
}

/** The fault of the first rule that matches request `n` of `operation`, if any. */
export function faultFor<Operation extends string, Fault>(
  rules: readonly FaultRule<Operation, Fault>[] | undefined,
  operation: Operation,
  n: number,
): Fault | undefined {
  for (const rule of rules ?? []) {
    if (rule.operation !== operation) continue;
    const { requests } = rule;
    const matches =
      requests === 'all' ||
      (Array.isArray(requests)
        ? requests.includes(n)
        : n >= requests.from && (requests.to === undefined || n <= requests.to));
    if (matches) return rule.fault;
  }
  return undefined;
}

/** A path prefix as the servers serve it: '/api' (one leading slash, no trailing one), or '' for none. */
export function normalisePrefix(prefix: string | undefined): string {
  if (!prefix) return '';
  const trimmed = prefix.replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { value: undefined, invalid: false };
  try {
    return { value: JSON.parse(text) as unknown, invalid: false };
  } catch {
    return { value: text, invalid: true };
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A 200 whose body starts with `opening` and never ends (64 KiB of 'a' as fast as the client reads). */
export function streamForever(res: ServerResponse, opening: string): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const more = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more);
  };
  res.write(opening);
  more();
}

export function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(reply.body) ?? '';
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...reply.headers,
  });
  res.end(text);
}

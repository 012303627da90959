import type { Server, Socket } from 'node:net';

/** Starts `server` listening on `host` (127.0.0.1 unless named), at `port` (a free one unless named). */
export function listen(server: Server, port = 0, host = '127.0.0.1'): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The open connections of a test server, so that stopping it ends them all: a keep-alive client, a
 * request left hanging on purpose or an open tunnel would otherwise keep the server, and jest, alive.
 */
export class Connections {
  private readonly sockets = new Set<Socket>();

  /** Keeps `socket` until it closes. */
  track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** Closes `server` and destroys every socket kept; resolves once the server is closed. */
  async close(server: Server): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }
}

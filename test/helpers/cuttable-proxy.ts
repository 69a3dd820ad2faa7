/**
 * A TCP proxy on loopback in front of a real server (PostgreSQL in the store-outage tests) that a
 * test can cut and restore: cut drops every open connection and refuses new ones, as a database
 * that went away does; restore listens again on the same port.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A running {@link startCuttableProxy}. */
export interface CuttableProxy {
  /** The port it listens on (stable across cut and restore). */
  readonly port: number;
  /** Drop every connection and stop listening. */
  cut(): Promise<void>;
  /** Listen again on the same port. */
  restore(): Promise<void>;
  /** Keep connections (and accept new ones) but pass no more bytes either way, until cut. */
  stall(): void;
  close(): Promise<void>;
}

/** Proxy `127.0.0.1:<port>` to `host:port`. */
export async function startCuttableProxy(host: string, targetPort: number): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  let stalled = false;
  const listen = async (): Promise<void> => {
    const s = createServer((client) => {
      const upstream = createConnection({ host, port: targetPort });
      for (const sock of [client, upstream]) {
        sockets.add(sock);
        sock.on('close', () => sockets.delete(sock));
        sock.on('error', () => { client.destroy(); upstream.destroy(); });
      }
      if (stalled) client.pause();
      else client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    const address = s.address();
    if (typeof address === 'object' && address !== null) port = address.port;
    server = s;
  };
  const stop = async (): Promise<void> => {
    const s = server;
    server = null;
    stalled = false;
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    if (s !== null) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return {
    get port() { return port; },
    cut: stop,
    restore: listen,
    stall() {
      stalled = true;
      for (const sock of sockets) {
        sock.unpipe();
        sock.pause();
      }
    },
    close: stop,
  };
}

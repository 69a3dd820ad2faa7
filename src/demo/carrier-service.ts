/**
 * A real HTTP service on 127.0.0.1 standing in for a carrier's tracking API. One order's
 * tracking is "down" (HTTP 503), so the demo's parallel step has a genuine failing call.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running carrier service. */
export interface CarrierService {
  readonly url: string;
  close(): Promise<void>;
}

/** Start the service on a free loopback port. */
export async function startCarrierService(): Promise<CarrierService> {
  const server: Server = createServer((req, res) => {
    const id = decodeURIComponent((req.url ?? '').replace(/^\/tracking\//, ''));
    if (id === 'ord_1002') {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '30' });
      res.end(JSON.stringify({ error: 'tracking backend unavailable' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ order_id: id, carrier: 'DemoPost', state: 'in_transit', last_scan: 'Hangzhou sorting centre' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

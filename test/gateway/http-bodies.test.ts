/**
 * Request bodies the HTTP gateway will not read: one over 4 MiB is answered 413 "Payload Too
 * Large" whether or not it belongs to a session (an oversized initialize was told "no valid
 * session id"), and a body that is not JSON gets a parse error.
 */
import { describe, expect, it } from 'vitest';
import { serveHttp } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { closedAfterAll, SERVERS } from './helpers.js';

const open = closedAfterAll();
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = (padding: string) => JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1', padding } } });

async function post(url: string, body: string, extra: Record<string, string> = {}): Promise<{ status: number; error?: { code: number; message: string } }> {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body });
  const text = await res.text();
  const parsed = text.startsWith('{') ? (JSON.parse(text) as { error?: { code: number; message: string } }) : {};
  return { status: res.status, ...(parsed.error === undefined ? {} : { error: parsed.error }) };
}

describe('request bodies over HTTP', () => {
  it('answers 413 for a body over 4 MiB and a parse error for one that is not JSON', async () => {
    const [command, ...args] = SERVERS.faulty as unknown as [string, ...string[]];
    const gw = await serveHttp({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, upstreams: [{ name: 'faulty', command, args }] } }, { port: 0 });
    open.push(gw);
    const big = await post(gw.url, initialize('x'.repeat(5 * 1024 * 1024)));
    expect(big.status).toBe(413);
    expect(big.error?.message).toMatch(/Payload Too Large.*4 MiB/);
    const garbage = await post(gw.url, '{not json');
    expect(garbage.status).toBe(400);
    expect(garbage.error?.code).toBe(-32700);
    // A body within the limit still opens a session.
    const ok = await fetch(gw.url, { method: 'POST', headers, body: initialize('x') });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('mcp-session-id')).toBeTruthy();
    await ok.body?.cancel();
  }, 60_000);
});

// Three `trc gateway --http` processes on one PostgreSQL store behind nginx (round robin),
// with real SDK clients of both protocol generations.
import { randomBytes } from 'node:crypto';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';
import { startDeployment, type Deployment } from './harness.js';

const pgUrl = inject('trcPgUrl') ?? process.env.TRC_PG_URL ?? '';
let deployment: Deployment;
const open: { close(): Promise<unknown> }[] = [];
beforeAll(async () => {
  deployment = await startDeployment({ pgUrl, instances: 3, principal: 'alice' });
}, 120_000);
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await deployment?.close();
}, 60_000);

/** A fetch that remembers which instance nginx sent each request to. */
function countingFetch(servedBy: string[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const by = res.headers.get('x-served-by');
    if (by !== null) servedBy.push(by);
    return res;
  };
}

async function stateless(servedBy: string[]): Promise<ClientV2> {
  const client = new ClientV2({ name: 'deploy-v2', version: '1' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new HttpV2(new URL(deployment.url), { fetch: countingFetch(servedBy) }));
  open.push(client);
  return client;
}

const envelope = (r: unknown) => (r as { _meta?: Record<string, unknown> })._meta?.[ENVELOPE_META_KEY] as { status: string; completeness?: { next?: unknown } } | undefined;
const text = (r: unknown) => ((r as { content?: { type: string; text?: string }[] }).content ?? []).map((b) => b.text ?? '').join('\n');

describe('three gateways behind nginx on one PostgreSQL store', () => {
  it('serves 2026-07-28 stateless clients with no affinity: round robin reaches every instance', async () => {
    const servedBy: string[] = [];
    const client = await stateless(servedBy);
    for (let i = 0; i < 9; i++) {
      const r = await client.callTool({ name: 'charge', arguments: { amount: 1, op: randomBytes(6).toString('hex') } });
      expect(envelope(r)?.status).toBe('succeeded');
    }
    expect(new Set(servedBy).size).toBe(3);
    const effects = await deployment.effects();
    expect([...effects.values()].every((n) => n === 1)).toBe(true);
  });

  it('reads a handle minted by one instance through the others', async () => {
    const servedBy: string[] = [];
    const client = await stateless(servedBy);
    const r = await client.callTool({ name: 'report', arguments: { rows: 200 } });
    const uri = /trc:\/\/resource\/[\w-]+/u.exec(text(r) + JSON.stringify(r))?.[0];
    expect(uri, 'a large result is stored and linked').toBeDefined();
    const minted = servedBy.at(-1);
    const readers = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const before = servedBy.length;
      const read = await client.readResource({ uri: uri as string });
      const body = read.contents.map((c) => ('text' in c ? c.text : '')).join('');
      expect(body).toContain('row 199');
      readers.add(servedBy[before] ?? '');
    }
    readers.delete(minted ?? '');
    expect(readers.size, 'reads served by an instance other than the minting one').toBeGreaterThan(0);
  });

  it('keeps a 2025-generation session on its instance by routing on the session id prefix', async () => {
    const servedBy: string[] = [];
    const client = new ClientV1({ name: 'deploy-v1', version: '1' }, { capabilities: {} });
    const transport = new HttpV1(new URL(deployment.url), { fetch: countingFetch(servedBy) });
    await client.connect(transport);
    open.push(client);
    const sid = transport.sessionId ?? '';
    expect(sid).toMatch(/^gw-[123]\./u);
    for (let i = 0; i < 6; i++) {
      const r = await client.callTool({ name: 'charge', arguments: { amount: 2 + i, op: randomBytes(6).toString('hex') } });
      expect(envelope(r)?.status).toBe('succeeded');
    }
    expect(new Set(servedBy).size, 'every request of the session went to one instance').toBe(1);
    // Without the routing, another instance does not know the session: this is what needs stickiness.
    const other = deployment.instances.find((i) => !sid.startsWith(`${i.id}.`));
    const res = await fetch(`${other?.url ?? ''}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
  });

  it('answers health and readiness probes without a token', async () => {
    for (const inst of deployment.instances) {
      expect((await fetch(`${inst.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${inst.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.text()).toBe('ready');
    }
  });
});

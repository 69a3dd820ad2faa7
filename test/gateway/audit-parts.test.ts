/**
 * Binary content parts in the audit record: the client gets an image byte for byte, while the
 * audit record references the bytes (a store resource holding exactly them) instead of
 * inlining their base64. Real upstream (our blocks fixture, v1 SDK), real v1 client over HTTP.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_PART_REF_PREFIX } from '../../src/executor/index.js';
import { flushAudit, serveHttp } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';

const blocks = fileURLToPath(new URL('./fixtures/blocks-server.mjs', import.meta.url));
const open: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
});

describe('binary parts in the audit record', () => {
  it('keeps a reference to a stored resource with the same bytes, and the client still gets them byte for byte', async () => {
    const store = createMemoryStore();
    const gw = await serveHttp({ store, config: { upstreams: [{ name: 'blocks', command: process.execPath, args: [blocks] }] } }, { port: 0 });
    open.push(gw);
    const client = new Client({ name: 'v1', version: '1' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(gw.url)));
    open.push(client);
    const result = await client.callTool({ name: 'big_image', arguments: {} });
    const image = (result.content as { type: string; data?: string }[]).find((b) => b.type === 'image');
    const expected = Buffer.alloc(12 * 1024, 0).map((_, i) => (i * 31 + 7) % 251);
    expect(Buffer.from(image?.data ?? '', 'base64').equals(expected)).toBe(true);

    await flushAudit(store);
    const [record] = await store.listAudit({ tool: 'big_image' });
    // The gateway's own call ids are time-ordered (UUID v7), so audit inserts append to the index.
    expect(record?.callId).toMatch(/^call_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const envelope = (record?.detail as { envelope: { extensions: { mcp: { parts: string[] } }; data: unknown } }).envelope;
    const [ref] = envelope.extensions.mcp.parts;
    expect(ref?.startsWith(AUDIT_PART_REF_PREFIX)).toBe(true);
    // The record no longer carries the base64; the resource holds the very bytes, labelled.
    expect(JSON.stringify(record?.detail)).not.toContain(image?.data?.slice(0, 200));
    const id = (ref as string).slice(AUDIT_PART_REF_PREFIX.length);
    expect((await store.getResourceMeta(id))?.mimeType).toBe('image/png');
    const chunks: Buffer[] = [];
    for await (const c of store.readResource(id)) chunks.push(Buffer.from(c));
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
    // The data still says how big the part is and its SHA-256.
    expect(JSON.stringify(envelope)).toContain('"bytes":12288');
  }, 60_000);
});

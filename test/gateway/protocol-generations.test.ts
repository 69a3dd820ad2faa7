/**
 * Both protocol generations on one HTTP port: a v2 SDK client pinned to 2026-07-28 (stateless:
 * `server/discover`, no session id) and a v1 client (2025, stateful) use the same gateway, in
 * front of a 2025-generation upstream; and a v1 client works in front of a 2026-generation
 * upstream. The suite of @modelcontextprotocol/conformance 0.1.16 has no 2026-07-28 server
 * scenarios, so these are that generation's checks. Real SDK clients and servers, real HTTP.
 */
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { ENVELOPE_META_KEY, flushAudit, serveHttp, type GatewayConfig } from '../../src/gateway/index.js';
import { LOCAL_PRINCIPAL } from '../../src/gateway/modern-endpoint.js';
import { createMemoryStore } from '../../src/store/index.js';

const fixture = fileURLToPath(new URL('../conformance/fixtures/conformance-server.mjs', import.meta.url));
const modernFixture = fileURLToPath(new URL('./fixtures/modern-server.mjs', import.meta.url));
const open: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
});

async function gateway(config: GatewayConfig) {
  const store = createMemoryStore();
  const gw = await serveHttp({ store, config: { defaults: { effect: 'read' }, ...config } }, { port: 0 });
  open.push(gw);
  return Object.assign(gw, { store });
}
async function pinned(url: string): Promise<ClientV2> {
  const client = new ClientV2({ name: 'v2-pinned', version: '2' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new HttpV2(new URL(url)));
  open.push(client);
  return client;
}
async function v1(url: string): Promise<ClientV1> {
  const client = new ClientV1({ name: 'v1', version: '1' }, { capabilities: {} });
  await client.connect(new HttpV1(new URL(url)));
  open.push(client);
  return client;
}
const envelope = (r: unknown) => ((r as { _meta?: Record<string, unknown> })._meta?.[ENVELOPE_META_KEY] ?? null) as { status: string } | null;

describe('a 2026-07-28 client through the gateway, 2025-generation upstream', () => {
  it('discovers the server, lists and calls tools through the pipeline, reads resources and prompts — without a session', async () => {
    const gw = await gateway({ upstreams: [{ name: 'conf', command: process.execPath, args: [fixture] }] });
    const client = await pinned(gw.url);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerVersion()?.name).toBe('trc-conformance-fixture');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('test_simple_text');
    const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
    expect(envelope(result)?.status).toBe('succeeded');
    const error = await client.callTool({ name: 'test_error_handling', arguments: {} });
    expect(error.isError).toBe(true);
    const read = await client.readResource({ uri: 'test://static-text' });
    expect(JSON.stringify(read.contents)).toContain('static text resource');
    const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
    expect(JSON.stringify(prompt.messages)).toContain("arg1='a'");
    // Stateless: the gateway opened no MCP session for it, and the principal is the local one.
    expect(gw.sessions.size).toBe(0);
    await flushAudit(gw.store);
    const audit = await gw.store.listAudit({ tool: 'test_simple_text' });
    expect(audit.map((a) => a.principal)).toEqual([LOCAL_PRINCIPAL]);
  }, 60_000);

  it('serves a 2025 client on the same port at the same time, each with its own principal', async () => {
    const gw = await gateway({ upstreams: [{ name: 'conf', command: process.execPath, args: [fixture] }] });
    const [modern, legacy] = await Promise.all([pinned(gw.url), v1(gw.url)]);
    const [a, b] = await Promise.all([modern.callTool({ name: 'test_simple_text', arguments: {} }), legacy.callTool({ name: 'test_simple_text', arguments: {} })]);
    expect(envelope(a)?.status).toBe('succeeded');
    expect(envelope(b)?.status).toBe('succeeded');
    expect(gw.sessions.size).toBe(1);
    const session = [...gw.sessions.values()][0];
    expect(session?.principal).toMatch(/^session:/);
    expect(session?.principal).not.toBe(LOCAL_PRINCIPAL);
  }, 60_000);

  it('relays an upstream JSON-RPC error to the 2026 client with its code', async () => {
    const gw = await gateway({ upstreams: [{ name: 'conf', command: process.execPath, args: [fixture] }] });
    const client = await pinned(gw.url);
    await expect(client.readResource({ uri: 'test://no-such-resource' })).rejects.toMatchObject({ code: expect.any(Number) });
  }, 60_000);
});

describe('a 2025 client through the gateway, 2026-generation upstream', () => {
  it('works with a URL upstream built on the v2 server package', async () => {
    const proc = spawn(process.execPath, [modernFixture], { stdio: ['ignore', 'pipe', 'inherit'] });
    open.push({ close: async () => proc.kill('SIGTERM') });
    const url = await new Promise<string>((resolve) => proc.stdout.on('data', (c: Buffer) => resolve(c.toString().trim())));
    // The upstream is of the 2026-07-28 generation: a pinned client reaches it directly.
    expect((await pinned(url)).getProtocolEra()).toBe('modern');
    const gw = await gateway({ upstreams: [{ name: 'modern', url }] });
    const client = await v1(gw.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo']);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'over two generations' } });
    expect(envelope(result)?.status).toBe('succeeded');
    expect(JSON.stringify(result)).toContain('over two generations');
  }, 60_000);
});

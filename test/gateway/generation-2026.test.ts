/**
 * The 2026-07-28 generation through the gateway: multi-round-trip `input_required` (an upstream
 * that asks for elicitation or sampling during a call reaches a stateless 2026 client as rounds,
 * and the answers reach the upstream), upstreams that speak only 2026-07-28, and
 * `subscriptions/listen`. Real v2 and v1 SDK clients, real upstream processes, real HTTP.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { ENVELOPE_META_KEY, serveHttp, type GatewayConfig } from '../../src/gateway/index.js';
import { modernOnlyVersion } from '../../src/gateway/upstream-modern.js';
import { createMemoryStore } from '../../src/store/index.js';
import { eventually } from './helpers.js';

const fixture = fileURLToPath(new URL('../conformance/fixtures/conformance-server.mjs', import.meta.url));
const open: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
});

async function gateway(config: GatewayConfig) {
  const gw = await serveHttp({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, ...config } }, { port: 0 });
  open.push(gw);
  return gw;
}
const conformance: GatewayConfig = { upstreams: [{ name: 'conf', command: process.execPath, args: [fixture] }] };

async function pinned(url: string, capabilities: Record<string, unknown>, setup: (c: ClientV2) => void = () => undefined, raw = false): Promise<ClientV2> {
  const client = new ClientV2({ name: 'v2-pinned', version: '2' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(raw ? { inputRequired: { autoFulfill: false } } : {}) });
  setup(client);
  await client.connect(new HttpV2(new URL(url)));
  open.push(client);
  return client;
}
const text = (r: unknown) => ((r as { content: { type: string; text?: string }[] }).content.map((b) => b.text ?? '').join('\n'));
const envelope = (r: unknown) => ((r as { _meta?: Record<string, unknown> })._meta?.[ENVELOPE_META_KEY] ?? null) as { status: string } | null;

describe('input_required rounds for a 2026-07-28 client, 2025-generation upstream', () => {
  it('bridges an upstream elicitation during tools/call to an input_required round and back', async () => {
    const gw = await gateway(conformance);
    const asked: unknown[] = [];
    const client = await pinned(gw.url, { elicitation: {} }, (c) =>
      c.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params);
        return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
      }),
    );
    const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: 'Who are you?' });
    expect(text(result)).toContain('User response: action=accept');
    expect(text(result)).toContain('ada@example.com');
    // The result came through the pipeline.
    expect(envelope(result)?.status).toBe('succeeded');
  }, 60_000);

  it('bridges an upstream sampling request the same way', async () => {
    const gw = await gateway(conformance);
    const client = await pinned(gw.url, { sampling: {} }, (c) =>
      c.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'forty-two' }, model: 'test-model' })),
    );
    const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'the answer?' } });
    expect(text(result)).toContain('LLM response: forty-two');
  }, 60_000);

  it('answers input_required with the embedded request and a request state, and resumes on the retry', async () => {
    const gw = await gateway(conformance);
    const client = await pinned(gw.url, { elicitation: {} }, () => undefined, true);
    const first = (await client.request({ method: 'tools/call', params: { name: 'test_elicitation', arguments: { message: 'name?' } } }, { allowInputRequired: true } as never)) as Record<string, unknown>;
    expect(first['resultType']).toBe('input_required');
    const requests = first['inputRequests'] as Record<string, { method: string; params: { message: string } }>;
    const [key, ask] = Object.entries(requests)[0] ?? [];
    expect(ask?.method).toBe('elicitation/create');
    expect(ask?.params.message).toBe('name?');
    expect(typeof first['requestState']).toBe('string');
    // A made-up request state is refused; the real one resumes the parked upstream call.
    await expect(client.request({ method: 'tools/call', params: { name: 'test_elicitation', arguments: { message: 'name?' }, requestState: 'forged', inputResponses: {} } })).rejects.toMatchObject({ code: -32602 });
    const done = await client.request({
      method: 'tools/call',
      params: { name: 'test_elicitation', arguments: { message: 'name?' }, requestState: first['requestState'], inputResponses: { [key as string]: { action: 'decline' } } },
    });
    expect(text(done)).toContain('action=decline');
  }, 60_000);

  it('refuses a request state presented with other arguments: the parked call runs with the first ones', async () => {
    const gw = await gateway(conformance);
    const client = await pinned(gw.url, { elicitation: {} }, () => undefined, true);
    const first = (await client.request({ method: 'tools/call', params: { name: 'test_elicitation', arguments: { message: 'Pay alice $5?' } } }, { allowInputRequired: true } as never)) as Record<string, unknown>;
    expect(first['resultType']).toBe('input_required');
    const [key] = Object.keys(first['inputRequests'] as Record<string, unknown>);
    const answer = { [key as string]: { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } } };
    // The upstream asked about alice: that answer must not come back as the result of a call about mallory.
    await expect(
      client.request({ method: 'tools/call', params: { name: 'test_elicitation', arguments: { message: 'Pay mallory $5000?' }, requestState: first['requestState'], inputResponses: answer } }),
    ).rejects.toMatchObject({ code: -32602 });
    // The same arguments resume it.
    const done = await client.request({ method: 'tools/call', params: { name: 'test_elicitation', arguments: { message: 'Pay alice $5?' }, requestState: first['requestState'], inputResponses: answer } });
    expect(text(done)).toContain('action=accept');
  }, 60_000);

  it('refuses the upstream request when the client declared no such capability: the call fails as the upstream answers, no hang', async () => {
    const gw = await gateway(conformance);
    const client = await pinned(gw.url, {});
    // The upstream's tool does not catch the refusal: its JSON-RPC error comes back, as directly.
    await expect(client.callTool({ name: 'test_elicitation', arguments: { message: 'x' } })).rejects.toMatchObject({ code: expect.any(Number) });
    // Nothing stays parked.
    const ok = await client.callTool({ name: 'test_simple_text', arguments: {} });
    expect(envelope(ok)?.status).toBe('succeeded');
  }, 60_000);
});

const modernOnly = fileURLToPath(new URL('./fixtures/modern-only-server.mjs', import.meta.url));
async function modernOnlyUrl(): Promise<string> {
  const proc = spawn(process.execPath, [modernOnly], { stdio: ['ignore', 'pipe', 'inherit'] });
  open.push({ close: async () => proc.kill('SIGTERM') });
  return new Promise<string>((resolve) => proc.stdout.on('data', (c: Buffer) => resolve(c.toString().trim())));
}
async function v1(url: string, setup: (c: ClientV1) => void = () => undefined, capabilities: Record<string, unknown> = {}): Promise<ClientV1> {
  const client = new ClientV1({ name: 'v1', version: '1' }, { capabilities });
  setup(client);
  await client.connect(new HttpV1(new URL(url)));
  open.push(client);
  return client;
}

describe('upstreams that speak only 2026-07-28', () => {
  it('refuses a 2025 handshake directly, and is reached through the gateway by a v1 client (URL upstream)', async () => {
    const url = await modernOnlyUrl();
    await expect(v1(url)).rejects.toThrow(/-32022|Unsupported protocol version/);
    const gw = await gateway({ upstreams: [{ name: 'modern', url }] });
    const client = await v1(gw.url);
    expect(client.getServerVersion()?.name).toBe('trc-modern-only-fixture');
    expect(client.getInstructions()).toContain('2026-07-28-only');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['ask_name', 'echo', 'grow', 'touch']);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'across generations' } });
    expect(envelope(result)?.status).toBe('succeeded');
    expect(text(result)).toContain('across generations');
  }, 60_000);

  it("relays the upstream's list changes: the gateway listens for them and a 2025 client is told, and lists the new tool", async () => {
    const url = await modernOnlyUrl();
    const gw = await gateway({ upstreams: [{ name: 'modern', url }] });
    let changed!: () => void;
    const told = new Promise<void>((r) => (changed = r));
    const client = await v1(gw.url, (c) => c.setNotificationHandler(ToolListChangedNotificationSchema, async () => changed()));
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('grown_1');
    expect(text(await client.callTool({ name: 'grow', arguments: {} }))).toContain('added grown_1');
    await Promise.race([told, new Promise((_, reject) => setTimeout(() => reject(new Error('no notifications/tools/list_changed within 20 s')), 20_000))]);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('grown_1');
    const grown = await client.callTool({ name: 'grown_1', arguments: {} });
    expect(envelope(grown)?.status).toBe('succeeded');
  }, 60_000);

  it("turns a 2025 client's resources/subscribe into the upstream's listen filter, and its unsubscribe back", async () => {
    const url = await modernOnlyUrl();
    const gw = await gateway({ upstreams: [{ name: 'modern', url }] });
    const updates: string[] = [];
    const client = await v1(gw.url, (c) => c.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => void updates.push(n.params.uri)));
    await client.subscribeResource({ uri: 'note://a' });
    await client.callTool({ name: 'touch', arguments: {} });
    await eventually(() => updates.length === 1);
    expect(updates).toEqual(['note://a']);
    await client.unsubscribeResource({ uri: 'note://a' });
    await client.callTool({ name: 'touch', arguments: {} });
    // A later list change still arrives (the stream stays for the lists), and no second update came.
    let grew!: () => void;
    const changed = new Promise<void>((r) => (grew = r));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => grew());
    await client.callTool({ name: 'grow', arguments: {} });
    await Promise.race([changed, new Promise((_, reject) => setTimeout(() => reject(new Error('no list change within 20 s')), 20_000))]);
    expect(updates).toEqual(['note://a']);
  }, 60_000);

  it('is reached over stdio too (the refused handshake is retried on a fresh process)', async () => {
    const gw = await gateway({ upstreams: [{ name: 'modern', command: process.execPath, args: [modernOnly, '--stdio'] }] });
    const client = await v1(gw.url);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'stdio, 2026 only' } });
    expect(envelope(result)?.status).toBe('succeeded');
    expect(text(result)).toContain('stdio, 2026 only');
  }, 60_000);

  it("turns the upstream's input_required round into an elicitation request to a 2025 client", async () => {
    const url = await modernOnlyUrl();
    const gw = await gateway({ upstreams: [{ name: 'modern', url }] });
    const client = await v1(gw.url, (c) => c.setRequestHandler(ElicitRequestSchema, async (r) => ({ action: 'accept', content: { name: `ada (asked: ${r.params.message})` } })), { elicitation: {} });
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    expect(text(result)).toContain('hello ada (asked: Your name?)');
  }, 60_000);

  it("passes the upstream's input_required round on to a 2026 client as a round of its own", async () => {
    const url = await modernOnlyUrl();
    const gw = await gateway({ upstreams: [{ name: 'modern', url }] });
    const client = await pinned(gw.url, { elicitation: {} }, (c) => c.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'grace' } })));
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    expect(text(result)).toContain('hello grace');
    expect(envelope(result)?.status).toBe('succeeded');
  }, 60_000);
});

describe('modernOnlyVersion', () => {
  it('reads the 2026 revision an upstream named when it refused the 2025 handshake, and nothing else', () => {
    expect(modernOnlyVersion({ code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } })).toBe('2026-07-28');
    expect(modernOnlyVersion({ code: -32022, data: { supported: ['2026-07-28', '2027-01-01'] } })).toBe('2027-01-01');
    const http = new Error('Streamable HTTP error: Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32022,"message":"Unsupported protocol version: 2025-11-25","data":{"supported":["2026-07-28"]}},"id":0}');
    expect(modernOnlyVersion(http)).toBe('2026-07-28');
    // Only older revisions, another error, or garbage: no second attempt.
    expect(modernOnlyVersion({ code: -32022, data: { supported: ['2024-11-05'] } })).toBeUndefined();
    expect(modernOnlyVersion({ code: -32601, data: { supported: ['2026-07-28'] } })).toBeUndefined();
    expect(modernOnlyVersion(new Error('Error POSTing to endpoint: {"jsonrpc": broken'))).toBeUndefined();
    expect(modernOnlyVersion(null)).toBeUndefined();
  });
});

describe('subscriptions/listen for a 2026-07-28 client', () => {
  it('delivers list changes and updates of the resources it names, from a 2025 upstream that sends them unsolicited', async () => {
    const changing = fileURLToPath(new URL('./fixtures/changing-server.mjs', import.meta.url));
    const gw = await gateway({ upstreams: [{ name: 'changing', command: process.execPath, args: [changing] }] });
    const seen: string[] = [];
    let resolveBoth!: () => void;
    const both = new Promise<void>((r) => (resolveBoth = r));
    const client = await pinned(gw.url, {}, (c) => {
      const note = (what: string) => {
        seen.push(what);
        if (seen.includes('tools') && seen.includes('note://a')) resolveBoth();
      };
      c.setNotificationHandler('notifications/tools/list_changed', async () => note('tools'));
      c.setNotificationHandler('notifications/resources/updated', async (n) => note(n.params.uri));
    });
    const subscription = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['note://a'] });
    open.push(subscription);
    const touched = await client.callTool({ name: 'touch', arguments: {} });
    // The gateway subscribed the upstream to the URI the listen stream named.
    expect(text(touched)).toContain('subscribed: note://a');
    await client.callTool({ name: 'grow', arguments: {} });
    await both;
    expect(seen).toEqual(expect.arrayContaining(['tools', 'note://a']));
    // The listing after the change has the new tool.
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('grown_2');
    // The stream closed, the gateway unsubscribes the upstream: nobody listens to note://a now.
    await subscription.close();
    await eventually(async () => !text(await client.callTool({ name: 'touch', arguments: {} })).includes('note://a'));
  }, 60_000);
});

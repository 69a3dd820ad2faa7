/**
 * The HTTP gateway as an OAuth 2.1 resource server (MCP authorization, 2025-11-25): a real
 * issuer on loopback signs the tokens (test/helpers/oauth-issuer.ts), real SDK clients of both
 * generations connect over Streamable HTTP, and the principal of each token owns its handles,
 * sessions and audit records.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVELOPE_META_KEY, IDEMPOTENCY_META_KEY, serveHttp, type GatewayConfig, type HttpGateway } from '../../src/gateway/index.js';
import { createMemoryStore, type Store } from '../../src/store/index.js';
import { startIssuer, type IssuerHandle, type TokenClaims } from '../helpers/oauth-issuer.js';
import { alive, eventually } from './helpers.js';

const notes = fileURLToPath(new URL('./fixtures/notes-server.mjs', import.meta.url));
/** The endpoint's public URL (as behind a proxy): the audience tokens must name. */
const RESOURCE = 'http://localhost/mcp';
const METADATA_URL = 'http://localhost/.well-known/oauth-protected-resource/mcp';

let issuer: IssuerHandle;
let other: IssuerHandle;
let gw: HttpGateway;
let store: Store;
const open: { close(): Promise<void> }[] = [];

const configFor = (iss: string, extra: Partial<NonNullable<GatewayConfig['auth']>> = {}): GatewayConfig => ({
  upstreams: [{ name: 'notes', command: process.execPath, args: [notes], tools: { add_note: { effect: 'write' }, big_report: { budget: { max_bytes: 1024 } } } }],
  defaults: { effect: 'read' },
  auth: { issuer: iss, resource: RESOURCE, required_scopes: ['mcp'], write_scope: 'notes:write', tool_scopes: { 'big_*': 'reports' }, jwks_cooldown_seconds: 0, ...extra },
});

beforeAll(async () => {
  [issuer, other] = await Promise.all([startIssuer(), startIssuer({ alg: 'ES256' })]);
  store = createMemoryStore();
  gw = await serveHttp({ config: configFor(issuer.url), store }, { port: 0 });
});
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
  await gw?.close();
  await Promise.all([issuer?.close(), other?.close()]);
});

const tokenFor = (sub: string, scope = 'mcp notes:write reports', claims: TokenClaims = {}) => issuer.token({ sub, aud: RESOURCE, scope, ...claims });

async function clientAs(token: string): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  open.push(client);
  return client;
}

async function modernAs(token: string): Promise<ClientV2> {
  const client = new ClientV2({ name: 'oauth-v2', version: '2' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new HttpV2(new URL(gw.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  open.push(client);
  return client;
}

const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(gw.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers }, body: JSON.stringify(body) });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The handle link of a big_report result. */
async function reportHandle(client: Client): Promise<string> {
  const result = await client.callTool({ name: 'big_report', arguments: {} });
  const env = (result._meta as Record<string, { resources: { uri: string }[] }>)[ENVELOPE_META_KEY];
  const uri = env?.resources[0]?.uri;
  expect(uri).toMatch(/^trc:\/\/resource\//u);
  return uri as string;
}

describe('protected resource metadata', () => {
  it('is served at the bare and the path-suffixed well-known paths, naming the resource, issuer and scopes', async () => {
    const base = new URL(gw.url).origin;
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(await res.json()).toEqual({ resource: RESOURCE, authorization_servers: [issuer.url], bearer_methods_supported: ['header'], scopes_supported: ['mcp', 'notes:write', 'reports'] });
    }
    expect((await fetch(`${base}/.well-known/oauth-protected-resource`, { method: 'POST' })).status).toBe(405);
  });
});

describe('tokens the gateway refuses with 401 and the challenge', () => {
  it('a request without a token: the challenge names the metadata and the scope, no error code', async () => {
    const res = await post(INIT);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${METADATA_URL}", scope="mcp"`);
  });

  const cases: [string, () => Promise<string>, RegExp][] = [
    ['an expired token', () => tokenFor('alice', 'mcp', { exp: Math.floor(Date.now() / 1000) - 120 }), /expired/u],
    ['a token signed with a key the issuer does not publish', () => issuer.token({ sub: 'alice', aud: RESOURCE, scope: 'mcp' }, { foreignKey: true }), /signature/u],
    ['a token for another resource', () => issuer.token({ sub: 'alice', aud: 'http://localhost/other', scope: 'mcp' }), /not issued for this resource/u],
    ['a token of another issuer', () => other.token({ sub: 'alice', aud: RESOURCE, scope: 'mcp' }), /signature|issuer/u],
    ['a token naming another issuer, signed by ours', () => issuer.token({ sub: 'alice', aud: RESOURCE, scope: 'mcp', iss: other.url }), /issuer/u],
    ['a token without a subject', () => issuer.token({ aud: RESOURCE, scope: 'mcp' }), /sub/u],
    ['a token not valid yet', () => tokenFor('alice', 'mcp', { nbf: Math.floor(Date.now() / 1000) + 600 }), /not valid yet/u],
    ['an unsigned token (alg none)', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: issuer.url, sub: 'alice', aud: RESOURCE, exp: 9e9 })}.`, /algorithm|malformed|signature/u],
  ];
  it.each(cases)('%s', async (_name, make, why) => {
    const res = await post(INIT, bearer(await make()));
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(new RegExp(`^Bearer resource_metadata="${METADATA_URL}", error="invalid_token", error_description="[^"]*"`, 'u'));
    expect(challenge).toMatch(why);
  });

  it('a valid token lacking the endpoint scope: 403 insufficient_scope naming it, with the scopes already granted', async () => {
    const res = await post(INIT, bearer(await tokenFor('alice', 'notes:write')));
    expect(res.status).toBe(403);
    // Asking for "mcp" alone would drop notes:write on step-up, and the next write would loop.
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="[^"]+", error="insufficient_scope", error_description="[^"]*", scope="notes:write mcp"$/u);
  });

  it('never crashes on any Authorization header and answers 401 to every one', async () => {
    const header = fc.oneof(
      fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 200 }),
      fc.string({ unit: fc.constantFrom('a', 'Z', '0', '.', '-', '_', '~', '+', '/', '=', ' '), maxLength: 120 }).map((t) => `Bearer ${t}`),
      fc.tuple(fc.constantFrom('bearer ', 'BEARER  ', 'Bearer\t', 'Basic '), fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/gu, ''))).map(([a, b]) => a + b),
    );
    await fc.assert(
      fc.asyncProperty(header, async (value) => {
        const res = await post(INIT, value.trim() === '' ? {} : { authorization: value });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain(`resource_metadata="${METADATA_URL}"`);
        await res.body?.cancel();
      }),
      { numRuns: 150 },
    );
  });
});

describe('the principal of a valid token', () => {
  it('calls tools through the real SDK client; its audit records carry issuer + subject', async () => {
    const alice = await clientAs(await tokenFor('alice'));
    const tools = await alice.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(['add_note', 'big_report', 'list_notes', 'server_pid']);
    const added = await alice.callTool({ name: 'add_note', arguments: { text: 'hello' } });
    expect(JSON.stringify(added.content)).toContain('added note');
    await eventuallyAudited('add_note');
    const records = await store.listAudit({ tool: 'add_note' });
    expect(records.map((r) => r.principal)).toContain(`oauth:${encodeURIComponent(issuer.url)}:alice`);
  });

  it('refuses a write tool without the write scope with 403 and the scopes to ask for', async () => {
    const reader = await clientAs(await tokenFor('reader', 'mcp reports'));
    await expect(reader.callTool({ name: 'add_note', arguments: { text: 'x' } })).rejects.toThrow(/Forbidden: this request needs scope notes:write/u);
    // The same call raw, on the reader's session: the challenge asks for granted + missing scopes.
    const sid = (reader.transport as StreamableHTTPClientTransport).sessionId as string;
    const res = await post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'add_note', arguments: { text: 'x' } } }, { ...bearer(await tokenFor('reader', 'mcp reports')), 'mcp-session-id': sid });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", error_description="[^"]*notes:write[^"]*", scope="mcp reports notes:write"$/u);
    // A read tool is still served, and a tool glob's scope applies to its tools only.
    expect((await reader.callTool({ name: 'list_notes', arguments: {} })).isError).not.toBe(true);
    const noReports = await clientAs(await tokenFor('reader2', 'mcp'));
    await expect(noReports.callTool({ name: 'big_report', arguments: {} })).rejects.toThrow(/needs scope reports/u);
    // Each refusal is audited as its caller's call, failed and never run: nothing reached the upstream.
    const readerPrincipal = `oauth:${encodeURIComponent(issuer.url)}:reader`;
    const refusedOf = async () => (await store.listAudit({ tool: 'add_note' })).filter((r) => r.principal === readerPrincipal);
    await eventually(async () => (await refusedOf()).length >= 2);
    for (const record of await refusedOf()) {
      expect(record.status).toBe('failed');
      const detail = record.detail as { execution: { outcome: string; classification: { code: string } }; edge: { refused_at: string } };
      expect(detail.execution.classification.code).toBe('INSUFFICIENT_SCOPE');
      expect(detail.execution.outcome).toBe('not_run');
      expect(detail.edge.refused_at).toBe('http_door');
    }
    const notes = await (await clientAs(await tokenFor('alice'))).callTool({ name: 'list_notes', arguments: {} });
    expect(JSON.stringify(notes.content)).not.toContain('"x"');
  });

  it("serves a handle to its owner in another session and refuses it to another user", async () => {
    const first = await clientAs(await tokenFor('alice'));
    const uri = await reportHandle(first);
    // Alice again, a new session with a fresh token: the handle is hers.
    const again = await clientAs(await tokenFor('alice'));
    const read = await again.readResource({ uri });
    expect(JSON.stringify(read.contents)).toContain('report line');
    const bob = await clientAs(await tokenFor('bob'));
    await expect(bob.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
  });

  it("refuses another user's token on a session id: 404, as an unknown session", async () => {
    const alice = await clientAs(await tokenFor('alice'));
    const sid = (alice.transport as StreamableHTTPClientTransport).sessionId as string;
    const list = { jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} };
    const hijack = await post(list, { ...bearer(await tokenFor('bob')), 'mcp-session-id': sid });
    expect(hijack.status).toBe(404);
    expect(await hijack.text()).toContain('Session not found');
    const owner = await post(list, { ...bearer(await tokenFor('alice')), 'mcp-session-id': sid });
    expect(owner.status).toBe(200);
    await owner.body?.cancel();
    // A session's token is checked on every request: an expired one is refused with the challenge.
    const expired = await post(list, { ...bearer(await tokenFor('alice', 'mcp', { exp: Math.floor(Date.now() / 1000) - 60 })), 'mcp-session-id': sid });
    expect(expired.status).toBe(401);
  });

  it("binds an idempotency key to its principal: the owner's repeat is replayed, another user's use is refused", async () => {
    const key = { [IDEMPOTENCY_META_KEY]: `key-${Date.now()}` };
    const alice = await clientAs(await tokenFor('alice'));
    const first = await alice.callTool({ name: 'add_note', arguments: { text: 'once' }, _meta: key });
    const repeat = await alice.callTool({ name: 'add_note', arguments: { text: 'once' }, _meta: key });
    const envOf = (r: Record<string, unknown>) => (r['_meta'] as Record<string, { status: string; warnings: { code: string }[]; error?: { code: string } }>)[ENVELOPE_META_KEY];
    expect(envOf(first)?.status).toBe('succeeded');
    expect(envOf(repeat)?.warnings.map((w) => w.code)).toContain('IDEMPOTENT_REPLAY');
    const bob = await clientAs(await tokenFor('bob'));
    const stolen = await bob.callTool({ name: 'add_note', arguments: { text: 'once' }, _meta: key });
    expect(envOf(stolen)?.error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // One effect upstream: the note was added once.
    const listed = await alice.callTool({ name: 'list_notes', arguments: {} });
    expect(JSON.stringify(listed.content).split('once').length - 1).toBe(1);
  });

  it('with a tenant claim: the same subject in two tenants is two principals, and a token without a tenant is refused', async () => {
    const g = await serveHttp({ config: configFor(issuer.url, { tenant_claim: 'org_id' }), store: createMemoryStore() }, { port: 0 });
    try {
      const as = async (org: string | undefined) => {
        const client = new Client({ name: 'tenant', version: '1' }, { capabilities: {} });
        const token = await tokenFor('alice', 'mcp reports', org === undefined ? {} : { org_id: org });
        await client.connect(new StreamableHTTPClientTransport(new URL(g.url), { requestInit: { headers: bearer(token) } }));
        open.push(client);
        return client;
      };
      const acme = await as('acme');
      const uri = await reportHandle(acme);
      expect(JSON.stringify((await (await as('acme')).readResource({ uri })).contents)).toContain('report line');
      await expect((await as('globex')).readResource({ uri })).rejects.toMatchObject({ code: -32002 });
      await expect(as(undefined)).rejects.toThrow(/no tenant/u);
    } finally {
      await g.close();
    }
  });

  it('2026-07-28 stateless clients: the principal comes from each request\'s token', async () => {
    const alice2025 = await clientAs(await tokenFor('alice'));
    const uri = await reportHandle(alice2025);
    const aliceModern = await modernAs(await tokenFor('alice'));
    expect(aliceModern.getProtocolEra()).toBe('modern');
    expect(JSON.stringify((await aliceModern.readResource({ uri })).contents)).toContain('report line');
    const bobModern = await modernAs(await tokenFor('bob'));
    await expect(bobModern.readResource({ uri })).rejects.toThrow(/not available/u);
    // Scopes hold for stateless requests too.
    const readerModern = await modernAs(await tokenFor('reader', 'mcp'));
    await expect(readerModern.callTool({ name: 'add_note', arguments: { text: 'x' } })).rejects.toThrow(/Insufficient scope: required "mcp notes:write"/u);
  });
});

describe('stateless principals on one gateway', () => {
  it('get an inner session each, capped: the least recently used idle one closes with its upstream and reopens on its next request', async () => {
    const g = await serveHttp({ config: configFor(issuer.url), store: createMemoryStore() }, { port: 0, maxSessions: 2 });
    try {
      const as = async (sub: string) => {
        const client = new ClientV2({ name: 'cap', version: '2' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
        await client.connect(new HttpV2(new URL(g.url), { requestInit: { headers: bearer(await tokenFor(sub)) } }));
        open.push(client);
        return client;
      };
      const pidOf = async (c: ClientV2) => Number(/pid=(\d+)/u.exec(JSON.stringify((await c.callTool({ name: 'server_pid', arguments: {} })).content))?.[1]);
      const [alice, bob] = [await as('alice'), await as('bob')];
      const [pa, pb] = [await pidOf(alice), await pidOf(bob)];
      expect(pa).not.toBe(pb);
      // A third principal: alice's (least recently used) inner session and upstream process close.
      const carol = await as('carol');
      await pidOf(carol);
      await eventually(() => !alive(pa), 15_000);
      expect(alive(pb)).toBe(true);
      const again = await pidOf(alice);
      expect(again).not.toBe(pa);
      expect(alive(again)).toBe(true);
    } finally {
      await g.close();
    }
  }, 60_000);
});

describe('keys and discovery', () => {
  it('picks up a rotated signing key: the new kid makes the gateway fetch the JWKS again', async () => {
    const before = issuer.jwksFetches;
    expect(before).toBeGreaterThan(0);
    const kid = await issuer.rotate();
    const token = await tokenFor('alice');
    expect(JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()).kid).toBe(kid);
    const client = await clientAs(token);
    expect((await client.listTools()).tools.length).toBe(4);
    expect(issuer.jwksFetches).toBeGreaterThan(before);
  });

  it('falls back to OpenID discovery, and answers 503 while the issuer cannot be reached', async () => {
    const oidc = await startIssuer({ openIdOnly: true });
    const g = await serveHttp({ config: configFor(oidc.url), store: createMemoryStore() }, { port: 0 });
    try {
      const client = new Client({ name: 'oidc', version: '1' }, { capabilities: {} });
      await client.connect(new StreamableHTTPClientTransport(new URL(g.url), { requestInit: { headers: bearer(await oidc.token({ sub: 'carol', aud: RESOURCE, scope: 'mcp' })) } }));
      expect((await client.listTools()).tools.length).toBe(4);
      await client.close();
    } finally {
      await g.close();
    }
    const token = await oidc.token({ sub: 'carol', aud: RESOURCE, scope: 'mcp' });
    await oidc.close();
    const down = await serveHttp({ config: configFor(oidc.url), store: createMemoryStore() }, { port: 0 });
    try {
      const res = await fetch(down.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(token) }, body: JSON.stringify(INIT) });
      expect(res.status).toBe(503);
    } finally {
      await down.close();
    }
  });

  it('refuses to start with both a shared token and OAuth, and off loopback with neither', async () => {
    await expect(serveHttp({ config: configFor(issuer.url), store: createMemoryStore() }, { port: 0, token: 'secret' })).rejects.toMatchObject({ code: 'GATEWAY_HTTP_AUTH_CONFLICT' });
    await expect(serveHttp({ config: { upstreams: [] }, store: createMemoryStore() }, { port: 0, host: '0.0.0.0' })).rejects.toMatchObject({ code: 'GATEWAY_HTTP_NEEDS_TOKEN' });
  });
});

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

async function eventuallyAudited(tool: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await store.listAudit({ tool })).length > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

// Three `trc gateway --http` processes on one PostgreSQL store behind nginx (round robin),
// with real SDK clients of both protocol generations, each carrying a real signed token of one
// of two users (the test issuer on loopback, test/helpers/oauth-issuer.ts).
import { randomBytes } from 'node:crypto';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ENVELOPE_META_KEY, RUN_ID_META_KEY } from '../../src/gateway/index.js';
import { eventually } from '../gateway/helpers.js';
import { startIssuer, type IssuerHandle, type TokenClaims } from '../helpers/oauth-issuer.js';
import { startDeployment, type Deployment } from './harness.js';

const pgUrl = inject('trcPgUrl') ?? process.env.TRC_PG_URL ?? '';
let deployment: Deployment;
let issuer: IssuerHandle;
const open: { close(): Promise<unknown> }[] = [];
beforeAll(async () => {
  issuer = await startIssuer();
  deployment = await startDeployment({ pgUrl, instances: 3, oauth: { issuer: issuer.url } });
}, 120_000);
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await deployment?.close();
  await issuer?.close();
}, 60_000);

/** A token of `sub` for the deployment (its audience is nginx's public URL). */
const tokenOf = (sub: string, claims: TokenClaims = {}, foreignKey = false) =>
  issuer.token({ sub, aud: deployment.url, ...claims }, { foreignKey });
const authorization = async (sub: string) => ({ authorization: `Bearer ${await tokenOf(sub)}` });

/** A fetch that remembers which instance nginx sent each request to. */
function countingFetch(servedBy: string[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const by = res.headers.get('x-served-by');
    if (by !== null) servedBy.push(by);
    return res;
  };
}

async function stateless(servedBy: string[], user = 'alice'): Promise<ClientV2> {
  const client = new ClientV2({ name: 'deploy-v2', version: '1' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new HttpV2(new URL(deployment.url), { fetch: countingFetch(servedBy), requestInit: { headers: await authorization(user) } }));
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
    // Every instance wrote its records as the token's principal (issuer + subject).
    const store = await deployment.store();
    // The audit is written behind: wait for all nine.
    const charges = async () => store.listAudit({ tool: 'charge' });
    await eventually(async () => (await charges()).length >= 9);
    const records = await charges();
    expect(new Set(records.map((r) => r.principal))).toEqual(new Set([`oauth:${encodeURIComponent(issuer.url)}:alice`]));
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

    // Another user's token, through the same nginx: every instance refuses the handle.
    const bobServed: string[] = [];
    const bob = await stateless(bobServed, 'bob');
    const refusers = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const before = bobServed.length;
      await expect(bob.readResource({ uri: uri as string })).rejects.toThrow(/not available/u);
      refusers.add(bobServed[before] ?? '');
    }
    refusers.delete(minted ?? '');
    expect(refusers.size, 'refusals by an instance other than the minting one').toBeGreaterThan(0);
  });

  it('holds, on every instance, a write carrying untrusted text another instance read in the same named run', async () => {
    const servedBy: string[] = [];
    const client = await stateless(servedBy);
    const run = { [RUN_ID_META_KEY]: `run-${randomBytes(4).toString('hex')}` };
    const read = await client.callTool({ name: 'report', arguments: { rows: 2 }, _meta: run });
    expect(envelope(read)?.status).toBe('succeeded');
    const reader = servedBy.at(-1);
    // The op is text of the report (untrusted, upstream data): each try lands on the next instance.
    const op = 'row 1: lorem ipsum lorem';
    const total = async () => [...(await deployment.effects()).values()].reduce((a, b) => a + b, 0);
    const effectsBefore = await total();
    const holders = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const before = servedBy.length;
      const r = await client.callTool({ name: 'charge', arguments: { amount: 5, op }, _meta: run });
      expect(envelope(r)).toMatchObject({ status: 'needs_input', error: { code: 'T3.tainted-argument' } });
      holders.add(servedBy[before] ?? '');
    }
    holders.delete(reader ?? '');
    expect(holders.size, 'held by an instance other than the one that read the text').toBeGreaterThan(0);
    expect(await total(), 'no held call reached the upstream').toBe(effectsBefore);
    // The same arguments outside that run are not tainted: the hold came from the run.
    const free = await client.callTool({ name: 'charge', arguments: { amount: 5, op: `free-${randomBytes(4).toString('hex')}` }, _meta: { [RUN_ID_META_KEY]: `run-${randomBytes(4).toString('hex')}` } });
    expect(envelope(free)?.status).toBe('succeeded');
    expect(await total()).toBe(effectsBefore + 1);
  });

  it('keeps a 2025-generation session on its instance by routing on the session id prefix', async () => {
    const servedBy: string[] = [];
    const client = new ClientV1({ name: 'deploy-v1', version: '1' }, { capabilities: {} });
    const transport = new HttpV1(new URL(deployment.url), { fetch: countingFetch(servedBy), requestInit: { headers: await authorization('alice') } });
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
    const list = (url: string, user: string) => authorization(user).then((auth) => fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18', ...auth },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    }));
    expect((await list(`${other?.url ?? ''}/mcp`, 'alice')).status).toBe(404);
    // On its own instance, the session answers only its user: bob's token on alice's session id is an unknown session.
    expect((await list(deployment.url, 'bob')).status).toBe(404);
  });

  it('refuses an expired, a wrongly signed and a wrong-audience token with 401 and the challenge, on every instance', async () => {
    const metadata = deployment.url.replace(/\/mcp$/u, '/.well-known/oauth-protected-resource/mcp');
    const now = Math.floor(Date.now() / 1000);
    const bad: [string, () => Promise<string>, RegExp][] = [
      ['expired', () => tokenOf('alice', { exp: now - 120 }), /expired/u],
      ['signed with a key the issuer does not publish', () => tokenOf('alice', {}, true), /signature/u],
      ['for another audience', () => issuer.token({ sub: 'alice', aud: 'http://127.0.0.1:1/mcp' }), /not issued for this resource/u],
    ];
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    for (const [name, make, why] of bad) {
      const servedBy = new Set<string>();
      // Three requests each: round robin puts one on every instance.
      for (let i = 0; i < 3; i++) {
        const res = await fetch(deployment.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${await make()}` },
          body: JSON.stringify(init),
        });
        expect(res.status, name).toBe(401);
        const challenge = res.headers.get('www-authenticate') ?? '';
        expect(challenge, name).toMatch(new RegExp(`^Bearer resource_metadata="${metadata}", error="invalid_token", error_description="[^"]*"`, 'u'));
        expect(challenge, name).toMatch(why);
        servedBy.add(res.headers.get('x-served-by') ?? '');
        await res.body?.cancel();
      }
      expect(servedBy.size, `${name}: refused by every instance`).toBe(3);
    }
    const none = await fetch(deployment.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}"`);
    // The metadata the challenge names is served through nginx and names nginx's URL as the resource.
    const prm = (await (await fetch(metadata)).json()) as { resource: string; authorization_servers: string[] };
    expect(prm).toMatchObject({ resource: deployment.url, authorization_servers: [issuer.url] });
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

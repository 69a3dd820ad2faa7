/**
 * The HTTP gateway on a PostgreSQL store that goes away and comes back (a real cluster behind a
 * TCP proxy the test cuts): every request that needs the store is answered 503 with
 * Retry-After — a load balancer's cue to try another instance or later — never 500, and the
 * gateway serves again once the database is back.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ENVELOPE_META_KEY, RUN_ID_META_KEY, serveHttp, type HttpGateway } from '../../src/gateway/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/index.js';
import { startCuttableProxy, type CuttableProxy } from '../helpers/cuttable-proxy.js';
import { startIssuer, type IssuerHandle } from '../helpers/oauth-issuer.js';
import { eventually } from './helpers.js';

const url = inject('trcPgUrl') ?? process.env.TRC_PG_URL ?? '';
const schema = `trc_outage_${randomBytes(5).toString('hex')}`;
const notes = fileURLToPath(new URL('./fixtures/notes-server.mjs', import.meta.url));
const RESOURCE = 'http://localhost/mcp';

let proxy: CuttableProxy;
let store: Store;
let gw: HttpGateway;
let issuer: IssuerHandle;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  const target = new URL(url);
  proxy = await startCuttableProxy(target.hostname, Number(target.port || 5432));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  store = await openPostgresStore({ connectionString: proxied.toString(), schema });
  issuer = await startIssuer();
  gw = await serveHttp({
    config: {
      upstreams: [{ name: 'notes', command: process.execPath, args: [notes], tools: { add_note: { effect: 'write' } } }],
      defaults: { effect: 'read' },
      auth: { issuer: issuer.url, resource: RESOURCE, required_scopes: ['mcp'], write_scope: 'notes:write', jwks_cooldown_seconds: 0 },
    },
    store,
  }, { port: 0 });
}, 60_000);
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
  await gw?.close();
  await store?.close().catch(() => undefined);
  await proxy?.close();
  await issuer?.close();
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

const tokenFor = (sub: string, scope = 'mcp notes:write') => issuer.token({ sub, aud: RESOURCE, scope });
const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const post = (body: unknown, headers: Record<string, string>) =>
  fetch(gw.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers }, body: JSON.stringify(body) });

async function clientAs(token: string): Promise<Client> {
  const client = new Client({ name: 'outage-test', version: '1' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  open.push(client);
  return client;
}

type Result = Awaited<ReturnType<Client['callTool']>>;
const envelopeOf = (r: Result) => (r._meta as Record<string, { status: string; error?: { code: string; retryable?: boolean }; side_effect?: { occurred: boolean }; warnings: { code: string; message: string }[] }>)[ENVELOPE_META_KEY];
const ready = async () => (await fetch(gw.url.replace(/\/mcp$/u, '/readyz'))).status;
const notesText = (r: Result) => JSON.stringify(r.content);

describe('a PostgreSQL store that goes away', { timeout: 120_000 }, () => {
  it('answers reads, refuses writes with an envelope and nothing sent, and serves writes again once it is back', async () => {
    // alice's session has vetted the tools (their pins read) before the outage; erin's has not.
    const alice = await clientAs(await tokenFor('alice'));
    await alice.listTools();
    expect(envelopeOf(await alice.callTool({ name: 'list_notes', arguments: {} }))?.status).toBe('succeeded');
    const erin = await clientAs(await tokenFor('erin'));
    const readOnly = await tokenFor('bob', 'mcp');
    const init = await post(INIT, { authorization: `Bearer ${readOnly}` });
    const sid = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    expect(await ready()).toBe(200);

    await proxy.cut();
    expect(await ready()).toBe(503);
    // A read is answered; its audit record waits for the store (write-behind).
    const read = await alice.callTool({ name: 'list_notes', arguments: {} });
    expect(envelopeOf(read)?.status).toBe('succeeded');
    // A write needs the store before anything is sent: its ledger entry, or first the tool's pin.
    const ledgerless = await alice.callTool({ name: 'add_note', arguments: { text: 'during-outage-a' } });
    expect(ledgerless.isError).toBe(true);
    expect(envelopeOf(ledgerless)).toMatchObject({ status: 'failed', error: { code: 'LEDGER_UNAVAILABLE', retryable: true }, side_effect: { occurred: false } });
    const pinless = await erin.callTool({ name: 'add_note', arguments: { text: 'during-outage-e' } });
    expect(pinless.isError).toBe(true);
    expect(envelopeOf(pinless)).toMatchObject({ status: 'failed', error: { code: 'TOOL_PIN_UNAVAILABLE', retryable: true }, side_effect: { occurred: false } });
    // Their records could not be stored before they answered: the envelopes say so, and that
    // the records are kept to be tried again.
    for (const r of [ledgerless, pinless]) expect(envelopeOf(r)?.warnings).toContainEqual(expect.objectContaining({ code: 'AUDIT_WRITE_FAILED', message: expect.stringContaining('tried again') }));
    // A named run lives in the store: a call naming one it cannot read is refused too.
    const runless = await alice.callTool({ name: 'list_notes', arguments: {}, _meta: { [RUN_ID_META_KEY]: 'task-during-outage' } });
    expect(envelopeOf(runless)).toMatchObject({ status: 'failed', error: { code: 'RUN_NOT_STORED', retryable: true }, side_effect: { occurred: false } });
    // The door still refuses a token without the write scope, by its scopes alone.
    const refused = await post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'add_note', arguments: { text: 'x' } } }, { authorization: `Bearer ${readOnly}`, 'mcp-session-id': sid });
    expect(refused.status).toBe(403);
    await refused.text();

    await proxy.restore();
    await eventually(async () => (await ready()) === 200);
    const after = await erin.callTool({ name: 'add_note', arguments: { text: 'after-outage' } });
    expect(envelopeOf(after)?.status).toBe('succeeded');
    // Each session runs its own upstream: neither refused write reached its notes server.
    const listed = notesText(await erin.callTool({ name: 'list_notes', arguments: {} }));
    expect(listed).toContain('after-outage');
    expect(listed).not.toContain('during-outage');
    expect(notesText(await alice.callTool({ name: 'list_notes', arguments: {} }))).not.toContain('during-outage');
    // The records of the calls made during the outage were kept and stored once it was back.
    const during = [read, ledgerless, pinless, runless].map((r) => (r._meta as Record<string, { call: { call_id: string } }>)[ENVELOPE_META_KEY]?.call.call_id ?? '');

    await eventually(async () => (await Promise.all(during.map((id) => store.getAudit(id)))).every((rec) => rec !== null), 30_000);
  });
});

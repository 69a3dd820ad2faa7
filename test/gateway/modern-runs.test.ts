/**
 * The run of a stateless 2026-07-28 client: the host names it per request, with
 * `_meta["dev.tool-result-contract/run_id"]` or the `Mcp-Run-Id` HTTP header (docs/gateway.md,
 * "Runs"), exactly as a 2025 client does. Real v2 SDK clients pinned to 2026-07-28, real HTTP,
 * the mail fixture as a real upstream process.
 */
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/index.js';
import { CONFIRMATION_META_KEY, ENVELOPE_META_KEY, RUN_ID_META_KEY, serveHttp } from '../../src/gateway/index.js';
import { storedRunId } from '../../src/gateway/run-identity.js';
import { createMemoryStore } from '../../src/store/index.js';

const SERVER = fileURLToPath(new URL('./fixtures/mail-server.mjs', import.meta.url));
const ATTACKER = 'Billing.Desk@Mailbox-Relay.test';
const open: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
});

type Result = { content: unknown[]; _meta?: Record<string, unknown> };
const statusOf = (r: Result) => (r._meta?.[ENVELOPE_META_KEY] as Envelope).status;
const runIdOf = (r: Result) => (r._meta?.[CONFIRMATION_META_KEY] as { run_id?: string } | undefined)?.run_id;

async function gateway() {
  const gw = await serveHttp(
    { store: createMemoryStore(), config: { upstreams: [{ name: 'mail', command: process.execPath, args: [SERVER], tools: { read_inbox: { effect: 'read', source_type: 'email' }, send_email: { effect: 'write' } } }] } },
    { port: 0 },
  );
  open.push(gw);
  return gw;
}

/** A v2 client pinned to 2026-07-28 whose every HTTP request carries `headers`. */
async function pinned(url: string, headers: Record<string, string> = {}): Promise<ClientV2> {
  const client = new ClientV2({ name: 'v2-runs', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new HttpV2(new URL(url), { requestInit: { headers } }));
  open.push(client);
  return client;
}

describe('the run of a 2026-07-28 client', () => {
  it('is the run its Mcp-Run-Id header names, not one run shared by every stateless client', async () => {
    const gw = await gateway();
    const alpha = await pinned(gw.url, { 'Mcp-Run-Id': 'run-alpha' });
    const beta = await pinned(gw.url, { 'Mcp-Run-Id': 'run-beta' });
    await alpha.callTool({ name: 'read_inbox', arguments: {} });
    // The planted address was read in run-alpha: a write carrying it there is held, in that run.
    const held = (await alpha.callTool({ name: 'send_email', arguments: { to: ATTACKER, body: 'hello' } })) as Result;
    expect(statusOf(held)).toBe('needs_input');
    expect(runIdOf(held)).toBe(storedRunId('local', 'run-alpha'));
    // run-beta never read it: the same write is not held there.
    const other = (await beta.callTool({ name: 'send_email', arguments: { to: ATTACKER, body: 'hello' } })) as Result;
    expect(statusOf(other)).not.toBe('needs_input');
  }, 60_000);

  it('is the run _meta names, which wins over the header', async () => {
    const gw = await gateway();
    const client = await pinned(gw.url, { 'Mcp-Run-Id': 'run-header' });
    await client.callTool({ name: 'read_inbox', arguments: {}, _meta: { [RUN_ID_META_KEY]: 'run-meta' } });
    const held = (await client.callTool({ name: 'send_email', arguments: { to: ATTACKER, body: 'hello' }, _meta: { [RUN_ID_META_KEY]: 'run-meta' } })) as Result;
    expect(runIdOf(held)).toBe(storedRunId('local', 'run-meta'));
    const unheld = (await client.callTool({ name: 'send_email', arguments: { to: ATTACKER, body: 'hello' } })) as Result;
    expect(statusOf(unheld)).not.toBe('needs_input');
  }, 60_000);
});

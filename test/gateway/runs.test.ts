import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/index.js';
import { CONFIRM_META_KEY, CONFIRMATION_META_KEY, ENVELOPE_META_KEY, RUN_ID_META_KEY, RUN_SCOPE_META_KEY, RUN_USER_TEXT_META_KEY, startSession, type GatewayConfig, type GatewayOptions } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { runOf, storedRunId } from '../../src/gateway/run-identity.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { gatewayExecutor } from '../../src/gateway/index.js';
import type { SessionState } from '../../src/gateway/session-state.js';
import { tempDir } from './helpers.js';

const SERVER = fileURLToPath(new URL('./fixtures/mail-server.mjs', import.meta.url));
const ATTACKER = 'billing.desk@mailbox-relay.test';

type Result = { content: { type: string; text?: string }[]; _meta?: Record<string, unknown> };
const envelopeOf = (r: Result) => r._meta?.[ENVELOPE_META_KEY] as Envelope;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => { for (const o of open.splice(0)) await o.close(); });

function options(sentFile: string): GatewayOptions {
  const config: GatewayConfig = {
    principal: 'alice',
    upstreams: [{ name: 'mail', command: process.execPath, args: [SERVER], env: { SENT_FILE: sentFile }, tools: { read_inbox: { effect: 'read', source_type: 'email' }, send_email: { effect: 'write', risk: 'high' } } }],
  };
  return { config, store: createMemoryStore() };
}

async function connect(opts: GatewayOptions) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await startSession(opts, serverSide);
  const client = new Client({ name: 'runs-test', version: '1.0.0' });
  await client.connect(clientSide);
  open.push({ close: async () => { await client.close(); await session.close(); await session.done; } });
  return (name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}) => client.callTool({ name, arguments: args, _meta: meta }) as Promise<Result>;
}

const sent = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { to: string }) : []);

describe('gateway runs', () => {
  it('holds a write carrying an address from an earlier result of the session, naming argument and source', async () => {
    const file = join(tempDir(), 'sent.jsonl');
    const call = await connect(options(file));
    await call('read_inbox', {});
    const held = await call('send_email', { to: ATTACKER, body: 'invoices' });
    const env = envelopeOf(held);
    expect(env).toMatchObject({ status: 'needs_input', error: { code: 'T3.tainted-argument' } });
    // The body's "invoices" came from the message too: every tainted argument is named.
    expect((env.error?.details as { confirmation: { tainted: unknown[] } }).confirmation.tainted).toEqual([
      expect.objectContaining({ argument: '/to', source: 'email:mail/read_inbox', content_id: env.error === undefined ? '' : expect.stringMatching(/^uc_/) }),
      expect.objectContaining({ argument: '/body', source: 'email:mail/read_inbox' }),
    ]);
    const token = (held._meta?.[CONFIRMATION_META_KEY] as { token: string }).token;
    expect(token).toMatch(/^cft_/);
    // The token is for the host: the model's text never carries it.
    expect(JSON.stringify(held.content)).not.toContain(token);
    expect(JSON.stringify(env)).not.toContain(token);
    expect(sent(file)).toEqual([]);
  });

  it('runs the held call once with its token, and only with the same arguments', async () => {
    const file = join(tempDir(), 'sent.jsonl');
    const call = await connect(options(file));
    await call('read_inbox', {});
    const held = await call('send_email', { to: ATTACKER, body: 'invoices' });
    const token = (held._meta?.[CONFIRMATION_META_KEY] as { token: string }).token;
    expect(envelopeOf(await call('send_email', { to: ATTACKER, body: 'everything' }, { [CONFIRM_META_KEY]: token })).status).toBe('needs_input');
    expect(envelopeOf(await call('send_email', { to: ATTACKER, body: 'invoices' }, { [CONFIRM_META_KEY]: true })).status).toBe('needs_input');
    expect(envelopeOf(await call('send_email', { to: ATTACKER, body: 'invoices' }, { [CONFIRM_META_KEY]: token })).status).toBe('succeeded');
    expect(envelopeOf(await call('send_email', { to: ATTACKER, body: 'invoices' }, { [CONFIRM_META_KEY]: token })).status).toBe('needs_input');
    expect(sent(file)).toHaveLength(1);
  });

  it('confirms the same call made again with the new token its second hold carries, and never with the spent one', async () => {
    const file = join(tempDir(), 'sent.jsonl');
    const call = await connect(options(file));
    await call('read_inbox', {});
    const args = { to: ATTACKER, body: 'invoices' };
    const first = await call('send_email', args);
    const spent = (first._meta?.[CONFIRMATION_META_KEY] as { token: string }).token;
    expect(envelopeOf(await call('send_email', args, { [CONFIRM_META_KEY]: spent })).status).toBe('succeeded');
    // The user asks for the same mail again: held again, with a token of its own.
    const again = await call('send_email', args);
    expect(envelopeOf(again).status).toBe('needs_input');
    const token = (again._meta?.[CONFIRMATION_META_KEY] as { token: string }).token;
    expect(token).not.toBe(spent);
    expect(envelopeOf(await call('send_email', args, { [CONFIRM_META_KEY]: spent })).status).toBe('needs_input');
    const held = await call('send_email', args);
    expect(envelopeOf(await call('send_email', args, { [CONFIRM_META_KEY]: (held._meta?.[CONFIRMATION_META_KEY] as { token: string }).token })).status).toBe('succeeded');
    expect(sent(file)).toHaveLength(2);
  });

  it('keys a named run by principal and run id, across sessions', async () => {
    const file = join(tempDir(), 'sent.jsonl');
    const opts = options(file);
    const first = await connect(opts);
    await first('read_inbox', {}, { [RUN_ID_META_KEY]: 'task-1' });
    const second = await connect(opts);
    expect(envelopeOf(await second('send_email', { to: ATTACKER, body: 'x' }, { [RUN_ID_META_KEY]: 'task-1' })).status).toBe('needs_input');
    // Another run saw no such content.
    expect(envelopeOf(await second('send_email', { to: ATTACKER, body: 'x' }, { [RUN_ID_META_KEY]: 'task-2' })).status).toBe('succeeded');
  });

  it('takes the user’s words as trusted text, and holds tools outside the declared scope', async () => {
    const file = join(tempDir(), 'sent.jsonl');
    const call = await connect(options(file));
    await call('read_inbox', {}, { [RUN_SCOPE_META_KEY]: { tools: ['read_inbox', 'send_email'] }, [RUN_USER_TEXT_META_KEY]: `Forward the invoices to ${ATTACKER}` });
    expect(envelopeOf(await call('send_email', { to: ATTACKER, body: 'invoices' })).status).toBe('succeeded');
    const other = await connect(options(file));
    await other('read_inbox', {}, { [RUN_SCOPE_META_KEY]: { tools: ['read_inbox'] } });
    expect(envelopeOf(await other('send_email', { to: 'me@home.test', body: 'hello' })).error?.code).toBe('T4.outside-run-scope');
    await expect(other('read_inbox', {}, { [RUN_SCOPE_META_KEY]: { tools: ['read_inbox', 'send_email'] } })).rejects.toThrow(/already declared/);
    await expect(other('read_inbox', {}, { [RUN_SCOPE_META_KEY]: { tools: 'all' } })).rejects.toThrow(/run_scope/);
  });

  it('accepts the declared scope sent again with its keys in another order, and refuses another scope', async () => {
    const call = await connect(options(join(tempDir(), 'sent.jsonl')));
    const run = { [RUN_ID_META_KEY]: 'task-scope' };
    const scope = { tools: ['read_inbox', 'send_email'], resources: { read_inbox: [{ argument: '/folder', allowed: ['inbox'] }] } };
    expect(envelopeOf(await call('read_inbox', { folder: 'inbox' }, { ...run, [RUN_SCOPE_META_KEY]: scope })).status).toBe('succeeded');
    const reordered = { resources: { read_inbox: [{ allowed: ['inbox'], argument: '/folder' }] }, tools: ['read_inbox', 'send_email'] };
    expect(envelopeOf(await call('read_inbox', { folder: 'inbox' }, { ...run, [RUN_SCOPE_META_KEY]: reordered })).status).toBe('succeeded');
    await expect(call('read_inbox', { folder: 'inbox' }, { ...run, [RUN_SCOPE_META_KEY]: { ...scope, tools: ['read_inbox'] } })).rejects.toThrow(/already declared/);
  });

  it.each([42, '', ['task-1'], { id: 'task-1' }])('refuses a run id that is not a non-empty string (%j) instead of using the session\'s run', async (id) => {
    const call = await connect(options(join(tempDir(), 'sent.jsonl')));
    await expect(call('read_inbox', {}, { [RUN_ID_META_KEY]: id })).rejects.toThrow(/run id .* must be a non-empty string/);
    await expect(call('send_email', { to: ATTACKER, body: 'x' }, { [RUN_ID_META_KEY]: id })).rejects.toThrow(/-32602/);
  });

  it('reads the run id from the Mcp-Run-Id header when _meta names none', async () => {
    const opts = options(join(tempDir(), 'sent.jsonl'));
    const state = (sessionId: string) => ({ options: opts, principal: 'alice', sessionId }) as unknown as SessionState;
    const executor = gatewayExecutor(opts);
    const viaHeader = await runOf(state('s1'), executor, {}, { requestInfo: { headers: { 'mcp-run-id': 'job-7' } } });
    expect(viaHeader.id).toBe(storedRunId('alice', 'job-7'));
    expect(await runOf(state('s2'), executor, {}, { requestInfo: { headers: { 'mcp-run-id': 'job-7' } } })).toBe(viaHeader);
    expect((await runOf(state('s2'), executor, { [RUN_ID_META_KEY]: 'job-8' }, { requestInfo: { headers: { 'mcp-run-id': 'job-7' } } })).id).toBe(storedRunId('alice', 'job-8'));
    expect((await runOf(state('s3'), executor, {}, {})).id).toBe('session:s3');
  });

  it('refuses a call whose named run the store cannot open with an envelope, without the driver\'s message', async () => {
    const opts = options(join(tempDir(), 'sent.jsonl'));
    const store = opts.store;
    const broken = { ...opts, store: Object.assign(Object.create(store) as typeof store, { listRunEvents: async () => { throw new Error('connect ECONNREFUSED postgres://admin:hunter2@db:5432'); } }) };
    const call = await connect(broken);
    // Refused by the pipeline: an envelope (and a record), nothing sent, retryable.
    const refused = envelopeOf(await call('read_inbox', {}, { [RUN_ID_META_KEY]: 'task-x' }));
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'RUN_NOT_STORED', retryable: true }, side_effect: { occurred: false } });
    expect(JSON.stringify(refused)).not.toContain('hunter2');
    // A call in the session's own run does not need the store's run log.
    expect(envelopeOf(await call('read_inbox', {})).status).toBe('succeeded');
  });

  it('keeps a named run in the store, so another gateway on the same store holds the tainted write', async () => {
    const file = join(tempDir(), 'sent.jsonl');
    const path = join(tempDir(), 'shared.sqlite');
    // Two gateways (two processes' worth of state: executors, run caches) on one store file.
    const gateway = async () => {
      const store = await openSqliteStore({ path });
      open.push({ close: async () => store.close?.() });
      return { ...options(file), store };
    };
    const a = await connect(await gateway());
    const b = await connect(await gateway());
    await a('read_inbox', {}, { [RUN_ID_META_KEY]: 'task-9' });
    const held = await b('send_email', { to: ATTACKER, body: 'x' }, { [RUN_ID_META_KEY]: 'task-9' });
    expect(envelopeOf(held)).toMatchObject({ status: 'needs_input', error: { code: 'T3.tainted-argument' } });
    // The confirmation made through b is honoured by a: the run's key is in the shared log.
    const token = (held._meta?.[CONFIRMATION_META_KEY] as { token: string }).token;
    expect(envelopeOf(await a('send_email', { to: ATTACKER, body: 'x' }, { [RUN_ID_META_KEY]: 'task-9', [CONFIRM_META_KEY]: token })).status).toBe('succeeded');
    expect(envelopeOf(await b('send_email', { to: ATTACKER, body: 'x' }, { [RUN_ID_META_KEY]: 'task-9', [CONFIRM_META_KEY]: token })).status).toBe('needs_input');
    expect(sent(file)).toHaveLength(1);
    // Another principal naming the same run id has a run of its own.
    const mallory = await connect({ ...(await gateway()), config: { ...options(file).config, principal: 'mallory' } });
    expect(envelopeOf(await mallory('send_email', { to: ATTACKER, body: 'y' }, { [RUN_ID_META_KEY]: 'task-9' })).status).toBe('succeeded');
  });
});

/**
 * Writes whose upstream died or hung after the request was sent are reconciled through the
 * gateway (SPEC W2, W3): the configured lookup tool is called on the (restarted) upstream with
 * the idempotency key, and the outcome is confirmed, resent under the same key (only when the
 * service honours keys), or `unknown` with reconciliation — never `failed`, never a duplicate.
 * The upstream is a real MCP server (SDK `McpServer`) committing charges to SQLite.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY, IDEMPOTENCY_META_KEY } from '../../src/gateway/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { connectStdio, gatewayArgv, tempDir, type TestClient } from './helpers.js';
import { openSqliteDatabase } from '../../src/store/sqlite/index.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const dir = tempDir('trc-gw-rec-');
const open: TestClient[] = [];
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
});

interface Env {
  status: string;
  call: { idempotency_key?: string; attempt: number };
  error?: { code: string; action: string };
  side_effect: { occurred: boolean; possibly_occurred?: boolean; external_id?: string; idempotency_key?: string | null };
  reconciliation?: { required: boolean; state?: string; idempotency_key?: string; query_tool?: string; query_args?: Record<string, unknown> };
  warnings: { code: string }[];
}
function envelope(result: Record<string, unknown>): Env {
  const env = (result['_meta'] as Record<string, unknown>)[ENVELOPE_META_KEY];
  expect(validate(env).findings.filter((f) => f.severity === 'error')).toEqual([]);
  return env as Env;
}

async function gateway(name: string, config: string) {
  const db = join(dir, `${name}.charges.sqlite`);
  const store = join(dir, `${name}.trc.sqlite`);
  const c = await connectStdio('v1', gatewayArgv([], ['--store', store, '--config', join(fixtures, config)]).slice(0, -1), { env: { CHARGES_DB: db } });
  open.push(c);
  const charges = (key?: string): { id: string; key: string | null }[] => {
    const conn = openSqliteDatabase(db, { readonly: true });
    try {
      return (key === undefined ? conn.prepare('SELECT id, key FROM charges').all() : conn.prepare('SELECT id, key FROM charges WHERE key = ?').all(key)) as { id: string; key: string | null }[];
    } finally {
      conn.close();
    }
  };
  const charge = async (args: Record<string, unknown>, key?: string) =>
    envelope(await c.request('tools/call', { name: 'charge', arguments: args, ...(key === undefined ? {} : { _meta: { [IDEMPOTENCY_META_KEY]: key } }) }, { timeout: 30_000 }));
  return { c, store, charges, charge };
}

function noDuplicates(rows: { key: string | null }[]): void {
  const keys = rows.map((r) => r.key);
  expect(new Set(keys).size).toBe(keys.length);
}

describe('a write whose upstream dies after committing', () => {
  it('is confirmed by the lookup on the restarted upstream: succeeded, occurred, with the external id', async () => {
    const g = await gateway('die-after', 'reconcile.yaml');
    const env = await g.charge({ amount: 12, then: 'die_after_commit' });
    expect(env.status).toBe('succeeded');
    const key = env.call.idempotency_key as string;
    expect(key).toMatch(/^idem_[0-9a-f]{40}$/);
    const rows = g.charges(key);
    expect(rows).toHaveLength(1);
    expect(env.side_effect).toMatchObject({ occurred: true, external_id: rows[0]?.id, idempotency_key: key });
    expect(env.warnings.map((w) => w.code)).toContain('RECONCILED');
    // The same key again replays the confirmed result: still one charge.
    const again = await g.charge({ amount: 12, then: 'die_after_commit' }, key);
    expect(again.side_effect.external_id).toBe(rows[0]?.id);
    expect(g.charges()).toHaveLength(1);
    await g.c.close();
    const s = await openSqliteStore({ path: g.store });
    expect((await s.ledgerGet(key))?.state).toBe('succeeded');
    const audit = await s.listAudit({ tool: 'charge' });
    expect(audit.map((a) => (a.detail as { execution: { reconciliation_state: string | null } }).execution.reconciliation_state)).toContain('confirmed_present');
    await s.close();
  });
});

describe('a write whose upstream hangs after committing', () => {
  it('is confirmed by the lookup after the deadline, without a second charge', async () => {
    const g = await gateway('hang-after', 'reconcile-hang.yaml');
    const env = await g.charge({ amount: 7, then: 'hang_after_commit' }, 'order-7');
    expect(env.status).toBe('succeeded');
    expect(env.side_effect).toMatchObject({ occurred: true, idempotency_key: 'order-7', external_id: g.charges('order-7')[0]?.id });
    expect(g.charges()).toHaveLength(1);
  });
});

describe('a write whose upstream dies before committing', () => {
  it('is unknown with reconciliation (confirmed absent) when the service does not honour keys: no blind resend', async () => {
    const g = await gateway('die-before', 'reconcile.yaml');
    const env = await g.charge({ amount: 3, then: 'die_before_commit_once' }, 'order-3');
    expect(env.status).toBe('unknown');
    expect(env.side_effect).toMatchObject({ occurred: false, possibly_occurred: true });
    expect(env.reconciliation).toMatchObject({ required: true, state: 'confirmed_absent', idempotency_key: 'order-3', query_tool: 'find_charge', query_args: { idempotency_key: 'order-3' } });
    expect(g.charges()).toHaveLength(0);
  });

  it('is resent once under the same key when the service honours keys, and succeeds with one charge', async () => {
    const g = await gateway('die-before-honours', 'reconcile-honours.yaml');
    const env = await g.charge({ amount: 4, then: 'die_before_commit_once', honour_key: true }, 'order-4');
    expect(env.status).toBe('succeeded');
    expect(env.call.attempt).toBe(2);
    const rows = g.charges('order-4');
    expect(rows).toHaveLength(1);
    expect(env.side_effect).toMatchObject({ occurred: true, external_id: rows[0]?.id, idempotency_key: 'order-4' });
  });
});

describe('a write whose outcome cannot be looked up', () => {
  it('is unknown with reconciliation (unknowable) naming the configured lookup, never failed', async () => {
    const g = await gateway('broken-lookup', 'reconcile-broken.yaml');
    const env = await g.charge({ amount: 9, then: 'die_after_commit' }, 'order-9');
    expect(env.status).toBe('unknown');
    expect(env.error).toMatchObject({ code: 'COMMIT_STATUS_UNKNOWN', action: 'query_by_idempotency_key' });
    expect(env.reconciliation).toMatchObject({ required: true, state: 'unknowable', idempotency_key: 'order-9', query_tool: 'broken_lookup' });
    expect(g.charges()).toHaveLength(1);
  });

  it('looks an unknown key up again when the client repeats the call, and never resends it', async () => {
    const g = await gateway('repeat-unknown', 'reconcile.yaml');
    const first = await g.charge({ amount: 5, then: 'die_before_commit_once' }, 'order-5');
    expect(first.reconciliation?.state).toBe('confirmed_absent');
    const again = await g.charge({ amount: 5, then: 'die_before_commit_once' }, 'order-5');
    expect(again.status).toBe('unknown');
    expect(again.reconciliation).toMatchObject({ state: 'confirmed_absent', idempotency_key: 'order-5' });
    expect(g.charges()).toHaveLength(0);
  });
});

describe('concurrent calls with one idempotency key', () => {
  it('charge once: the others replay the result or are refused as in flight, with an envelope', async () => {
    const g = await gateway('concurrent', 'reconcile.yaml');
    const settled = await Promise.all([1, 2, 3, 4].map(() => g.charge({ amount: 6 }, 'order-6')));
    for (const env of settled) {
      // Refused as in flight: the charge it asks for may be committing, so never "failed".
      if (env.status !== 'succeeded') expect(env).toMatchObject({ status: 'unknown', error: { code: 'IDEMPOTENCY_KEY_IN_FLIGHT' }, side_effect: { possibly_occurred: true }, reconciliation: { state: 'pending' } });
    }
    expect(settled.some((env) => env.status === 'succeeded')).toBe(true);
    expect(g.charges('order-6')).toHaveLength(1);
    noDuplicates(g.charges());
  });
});

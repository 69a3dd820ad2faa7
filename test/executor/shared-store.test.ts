// Two executors on one PostgreSQL store, each with its own pool, as two gateway processes
// would have: the ledger's leases decide who runs a write and who reconciles a dead one's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createExecutor, type Executor } from '../../src/executor/index.js';
import { idempotencyKey } from '../../src/effects/index.js';
import type { Store } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { chargeTool, openPaymentService, type Fault, type PaymentService } from './helpers/payment-service.js';

const url = inject('trcPgUrl') ?? process.env.TRC_PG_URL ?? '';
const admin = new pg.Pool({ connectionString: url, max: 1 });
const dir = mkdtempSync(join(tmpdir(), 'trc-shared-store-'));
afterAll(async () => {
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
});

const principal = { id: 'user_1' };
const args = (n: number) => ({ customer: `cus_${n}`, amount: 100 + n });
const keyOf = (n: number) => idempotencyKey({ tool: 'payment_charge', args: args(n), principal: principal.id, scope: null });

interface Pair {
  readonly schema: string;
  readonly stores: Store[];
  readonly service: PaymentService;
  close(): Promise<void>;
}

/** One schema, two stores (two pools), one payment service that counts charges per key. */
async function pair(): Promise<Pair> {
  const schema = `trc_shared_${randomBytes(5).toString('hex')}`;
  const stores = [await openPostgresStore({ connectionString: url, schema, max: 4 }), await openPostgresStore({ connectionString: url, schema, max: 4 })];
  const service = openPaymentService(join(dir, `${schema}.db`), { honoursKey: false });
  return {
    schema,
    stores,
    service,
    async close() {
      await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
      service.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  };
}

function executorOn(store: Store, service: PaymentService, id: string, faults: () => Fault, ttlMs = 400, timeoutMs = 20_000): Executor {
  return createExecutor({ tools: [chargeTool(service, { honoursKey: false, timeoutMs, faults })], store, lease: { instanceId: id, ttlMs } });
}

const call = (e: Executor, n: number, callId: string, signal?: AbortSignal) =>
  e.call({ call_id: callId, tool_name: 'payment_charge', args: args(n) }, principal, signal === undefined ? {} : { signal });

const waitFor = async (check: () => Promise<boolean>, what: string): Promise<void> => {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('executors sharing one PostgreSQL store', () => {
  it('runs each write once when two live instances get the same key at the same time', async () => {
    const p = await pair();
    try {
      const [a, b] = [executorOn(p.stores[0]!, p.service, 'gw-a', () => 'ok'), executorOn(p.stores[1]!, p.service, 'gw-b', () => 'ok')];
      const results = await Promise.all(Array.from({ length: 12 }, (_, n) => Promise.all([call(a, n, `a-${n}`), call(b, n, `b-${n}`)])));
      for (let n = 0; n < 12; n++) {
        expect(p.service.countByKey(keyOf(n))).toBe(1);
        const statuses = results[n]!.map((env) => env.status === 'succeeded' ? 'succeeded' : env.error?.code);
        // One ran; the other saw it in flight or replayed its recorded result.
        expect(statuses.filter((s) => s === 'succeeded').length).toBeGreaterThanOrEqual(1);
        expect(statuses.every((s) => s === 'succeeded' || s === 'IDEMPOTENCY_KEY_IN_FLIGHT')).toBe(true);
      }
    } finally {
      await p.close();
    }
  });

  it('keeps refusing a write that runs longer than its lease while the owner renews it', async () => {
    const p = await pair();
    try {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      const base = chargeTool(p.service, { honoursKey: false, timeoutMs: 20_000, faults: () => 'ok' });
      const gated = { ...base, run: async (a: Parameters<typeof base.run>[0], c: Parameters<typeof base.run>[1]) => { await gate; return base.run(a, c); } };
      const slow = createExecutor({ store: p.stores[0]!, lease: { instanceId: 'gw-slow', ttlMs: 300 }, tools: [gated] });
      const other = executorOn(p.stores[1]!, p.service, 'gw-other', () => 'ok', 300);
      const first = call(slow, 1, 'slow-1');
      await waitFor(async () => (await p.stores[1]!.ledgerGet(keyOf(1)))?.lease !== undefined, 'the slow write to begin');
      // Three lease lengths: without renewal the other instance would take the entry over.
      for (let i = 0; i < 6; i++) {
        await new Promise((r) => setTimeout(r, 150));
        const env = await call(other, 1, `other-${i}`);
        expect(env.error?.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
      }
      release();
      expect((await first).status).toBe('succeeded');
      expect(p.service.countByKey(keyOf(1))).toBe(1);
    } finally {
      await p.close();
    }
  });

  it('reconciles a dead instance\'s write on the next instance once its lease expired, and records the dead call', async () => {
    const p = await pair();
    const controller = new AbortController();
    try {
      // Instance A charges, then never answers; then it "dies": its pool is gone, its lease is not renewed.
      const a = executorOn(p.stores[0]!, p.service, 'gw-a', () => 'commit_then_timeout');
      const dying = call(a, 7, 'call-on-a', controller.signal).catch(() => null);
      await waitFor(async () => p.service.countByKey(keyOf(7)) === 1, 'the charge on A');
      await p.stores[0]!.close();
      const b = executorOn(p.stores[1]!, p.service, 'gw-b', () => 'ok');
      const early = await call(b, 7, 'call-on-b-early');
      expect(early.error?.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
      await new Promise((r) => setTimeout(r, 600));
      const env = await call(b, 7, 'call-on-b');
      expect(env.status).toBe('succeeded');
      expect(env.side_effect.occurred).toBe(true);
      expect(p.service.countByKey(keyOf(7))).toBe(1);
      const entry = await p.stores[1]!.ledgerGet(keyOf(7));
      expect(entry).toMatchObject({ state: 'succeeded', callId: 'call-on-a' });
      expect(entry).not.toHaveProperty('lease');
      // The dead call's own record, made from its ledger entry by the call that reconciled it.
      const dead = await p.stores[1]!.getAudit('call-on-a');
      expect(dead).toMatchObject({ status: 'succeeded', detail: { execution: { outcome: 'reconciled', idempotency_key: keyOf(7) } } });
      expect(await p.stores[1]!.getAudit('call-on-b')).toMatchObject({ status: 'succeeded' });
      controller.abort();
      await dying;
    } finally {
      await p.close();
    }
  });

  it('takes a write over at once on the restarted instance of the same id, not after the dead lease expires', async () => {
    const p = await pair();
    const controller = new AbortController();
    try {
      // Instance gw-a charges, then never answers, and dies with a minute left on its lease.
      const a = executorOn(p.stores[0]!, p.service, 'gw-a', () => 'commit_then_timeout', 60_000);
      const dying = call(a, 8, 'call-on-a', controller.signal).catch(() => null);
      await waitFor(async () => p.service.countByKey(keyOf(8)) === 1, 'the charge on A');
      await p.stores[0]!.close();
      controller.abort();
      await dying;
      expect((await p.stores[1]!.ledgerGet(keyOf(8)))?.lease?.owner).toBe('gw-a/call-on-a');
      // Another instance still waits for the lease …
      const other = executorOn(p.stores[1]!, p.service, 'gw-b', () => 'ok', 60_000);
      expect((await call(other, 8, 'call-on-b')).error?.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
      // … the restarted gw-a knows it holds no such call, so its predecessor left it: reconciled now.
      const restarted = executorOn(p.stores[1]!, p.service, 'gw-a', () => 'ok', 60_000);
      const env = await call(restarted, 8, 'call-on-a-again');
      expect(env.status).toBe('succeeded');
      expect(env.side_effect.occurred).toBe(true);
      expect(p.service.countByKey(keyOf(8))).toBe(1);
    } finally {
      await p.close();
    }
  });

  it('never takes over a write a live call of the same instance is running', async () => {
    const p = await pair();
    const controller = new AbortController();
    try {
      const a = executorOn(p.stores[0]!, p.service, 'gw-a', () => 'hang', 60_000);
      const running = call(a, 9, 'long-call', controller.signal).catch(() => null);
      await waitFor(async () => (await p.stores[0]!.ledgerGet(keyOf(9)))?.state === 'in_flight', 'the write on A');
      const again = await call(a, 9, 'same-key-again');
      expect(again.error?.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
      expect(p.service.countByKey(keyOf(9))).toBe(0);
      controller.abort();
      await running;
    } finally {
      await p.close();
    }
  });

  it('reports a dead instance\'s write unknown, never failed, when the lookup cannot find it', async () => {
    const p = await pair();
    const controller = new AbortController();
    try {
      const a = executorOn(p.stores[0]!, p.service, 'gw-a', () => 'hang');
      const dying = call(a, 3, 'hang-on-a', controller.signal).catch(() => null);
      await waitFor(async () => (await p.stores[1]!.ledgerGet(keyOf(3)))?.state === 'in_flight', 'the write on A');
      await p.stores[0]!.close();
      await new Promise((r) => setTimeout(r, 600));
      // B's lookup finds nothing: it may retry under the same key (the tool is not idempotent: it must not).
      const b = executorOn(p.stores[1]!, p.service, 'gw-b', () => 'ok');
      const env = await call(b, 3, 'call-on-b');
      expect(env.status).toBe('unknown');
      expect(p.service.countByKey(keyOf(3))).toBe(0);
      expect(await p.stores[1]!.getAudit('hang-on-a')).toMatchObject({ status: 'unknown' });
      controller.abort();
      await dying;
    } finally {
      await p.close();
    }
  });

  it('recovers on start-up only the entries of dead instances, leaving a live one\'s alone', async () => {
    const p = await pair();
    const controller = new AbortController();
    try {
      const live = executorOn(p.stores[0]!, p.service, 'gw-live', () => 'hang', 300);
      const running = call(live, 5, 'live-call', controller.signal).catch(() => null);
      await waitFor(async () => (await p.stores[1]!.ledgerGet(keyOf(5)))?.state === 'in_flight', 'the live write');
      await new Promise((r) => setTimeout(r, 500));
      const starting = executorOn(p.stores[1]!, p.service, 'gw-new', () => 'ok', 300);
      const reports = await starting.recoverInFlight();
      expect(reports.map((r) => r.result)).toEqual(['held']);
      expect((await p.stores[1]!.ledgerGet(keyOf(5)))?.lease?.owner).toBe('gw-live/live-call');
      controller.abort();
      await running;
    } finally {
      await p.close();
    }
  });
});

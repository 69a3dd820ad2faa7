import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate, type Envelope } from '../../src/contract/index.js';
import { createExecutor } from '../../src/executor/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/types.js';
import { chargeTool, openPaymentService, type Fault, type PaymentService } from './helpers/payment-service.js';

const AMBIGUOUS: ReadonlySet<Fault> = new Set(['commit_then_timeout', 'commit_then_reset', 'reset_before_commit', 'hang', 'commit_late']);
const FAULTS: readonly Fault[] = ['ok', 'commit_then_timeout', 'commit_then_reset', 'fail_before_commit', 'reset_before_commit', 'hang', 'commit_late'];

let dir: string;
let store: Store;
const services: PaymentService[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trc-fault-'));
  store = await openSqliteStore({ path: join(dir, 'trc.db'), synchronous: 'NORMAL' });
});
afterAll(async () => {
  await store.close();
  for (const s of services) s.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  readonly key: string;
  readonly honoursKey: boolean;
  readonly faultsUsed: Fault[];
  readonly env: Envelope;
  readonly service: PaymentService;
}

describe('fault injection on a fake payment service (in process, real SQLite)', () => {
  it('never charges twice and never reports an ambiguous write as failed, over 1,000 randomized runs', async () => {
    const honouring = openPaymentService(join(dir, 'pay-honours.db'), { honoursKey: true, lateCommitMs: 12 });
    const plain = openPaymentService(join(dir, 'pay-plain.db'), { honoursKey: false, lateCommitMs: 12 });
    services.push(honouring, plain);
    const runs: Run[] = [];
    let n = 0;
    const scenario = fc.record({
      honoursKey: fc.boolean(),
      idempotent: fc.boolean(),
      reconcile: fc.constantFrom('sqlite', 'sqlite', 'sqlite', 'sqlite', 'broken', 'none'),
      faults: fc.array(fc.constantFrom(...FAULTS), { minLength: 1, maxLength: 4 }),
      amount: fc.integer({ min: 1, max: 10_000 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        n++;
        const service = s.honoursKey ? honouring : plain;
        const queue = [...s.faults];
        const faultsUsed: Fault[] = [];
        const tool = chargeTool(service, {
          honoursKey: s.honoursKey,
          // Claiming idempotence is only honest when the downstream deduplicates.
          idempotent: s.honoursKey && s.idempotent,
          timeoutMs: 8,
          reconcile: s.reconcile as 'sqlite' | 'broken' | 'none',
          faults: () => {
            const f = queue.shift() ?? 'ok';
            faultsUsed.push(f);
            return f;
          },
        });
        const executor = createExecutor({ tools: [tool], store });
        const scope = `run_${n}_${Math.random().toString(36).slice(2)}`;
        const env = await executor.call({ call_id: `call_${scope}`, tool_name: 'payment_charge', args: { customer: 'cus_1', amount: s.amount }, scope }, { id: 'user_1' });
        const key = env.call.idempotency_key as string;
        runs.push({ key, honoursKey: s.honoursKey, faultsUsed, env, service });

        expect(validate(env).valid).toBe(true);
        expect(service.countByKey(key)).toBeLessThanOrEqual(1);
        const ambiguous = faultsUsed.some((f) => AMBIGUOUS.has(f));
        if (ambiguous) expect(['succeeded', 'unknown']).toContain(env.status);
        if (env.status === 'succeeded') {
          expect(env.side_effect.occurred).toBe(true);
          expect(env.side_effect.external_id).toBe(service.findByKey(key)?.id);
        }
        if (env.status === 'unknown') {
          expect(env.reconciliation?.required).toBe(true);
          expect(env.reconciliation?.idempotency_key).toBe(key);
          expect(env.side_effect.possibly_occurred).toBe(true);
          expect(env.error?.retryable).toBe(false);
        }
        if (env.status === 'failed') {
          expect(faultsUsed.every((f) => f === 'fail_before_commit')).toBe(true);
          expect(service.countByKey(key)).toBe(0);
        }
        // A write is never retried blindly: a second attempt only after a confirmed absence on a key-honouring downstream.
        if (faultsUsed.length > 1) expect(s.honoursKey).toBe(true);
      }),
      { numRuns: 1000, seed: 20261130 },
    );
    expect(runs).toHaveLength(1000);
    expect(runs.filter((r) => r.faultsUsed.some((f) => AMBIGUOUS.has(f))).length).toBeGreaterThan(500);

    // Late commits land after the executor gave up; reconciliation then confirms them, never duplicates.
    await new Promise((r) => setTimeout(r, 60));
    const reports = await createExecutor({ tools: [chargeTool(plain, { honoursKey: false, timeoutMs: 50, faults: () => 'ok' })], store }).reconcilePending();
    for (const r of runs) expect(r.service.countByKey(r.key)).toBeLessThanOrEqual(1);
    const byKey = new Map(reports.map((r) => [r.key, r]));
    for (const r of runs.filter((x) => !x.honoursKey && x.env.status === 'unknown')) {
      const report = byKey.get(r.key);
      const charged = r.service.countByKey(r.key) === 1;
      expect(report?.result).toBe(charged ? 'confirmed_present' : 'confirmed_absent');
      expect((await store.ledgerGet(r.key))?.state).toBe(charged ? 'succeeded' : 'unknown');
    }
  }, 120_000);
});

/**
 * A fake payment service for fault injection. Its state is an SQLite file, so a separate process
 * (a killed executor, a fresh one) sees the same charges. Charges are deliberately NOT unique per
 * idempotency key unless `honoursKey` is on: a duplicate charge is visible as two rows.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { defineTool, type ToolContext } from '../../../src/executor/index.js';

/** How one attempt behaves. */
export type Fault =
  | 'ok'
  | 'commit_then_timeout' // commits, then never answers (response lost)
  | 'commit_then_reset' // commits, then the connection resets
  | 'fail_before_commit' // connection refused before anything was sent
  | 'reset_before_commit' // the request was sent, the connection reset, nothing committed
  | 'hang' // never commits, never answers
  | 'commit_late'; // answers nothing; commits only after the executor gave up

export interface PaymentService {
  readonly path: string;
  charge(key: string, amount: number, ctx: ToolContext, fault: Fault): Promise<{ id: string; amount: number; created_at: string }>;
  findByKey(key: string): { id: string; created_at: string; amount: number } | null;
  countByKey(key: string): number;
  total(): number;
  close(): void;
}

export function openPaymentService(path: string, options: { honoursKey: boolean; lateCommitMs?: number; onStage?: (stage: 'sent' | 'committed') => void }): PaymentService {
  const db = new Database(path, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE IF NOT EXISTS charges (id TEXT PRIMARY KEY, idem_key TEXT NOT NULL, amount INTEGER NOT NULL, created_at TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO charges (id, idem_key, amount, created_at) VALUES (?, ?, ?, ?)');
  const byKey = db.prepare('SELECT id, created_at, amount FROM charges WHERE idem_key = ? ORDER BY created_at LIMIT 1');
  const count = db.prepare('SELECT COUNT(*) AS n FROM charges WHERE idem_key = ?');
  const all = db.prepare('SELECT COUNT(*) AS n FROM charges');
  const commit = (key: string, amount: number) => {
    if (options.honoursKey) {
      const existing = byKey.get(key) as { id: string; created_at: string; amount: number } | undefined;
      if (existing !== undefined) return existing;
    }
    const row = { id: `ch_${randomUUID()}`, amount, created_at: new Date().toISOString() };
    insert.run(row.id, key, amount, row.created_at);
    return row;
  };
  const never = (signal: AbortSignal) =>
    new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
  const netError = (code: string) => Object.assign(new Error(`${code} (injected)`), { code });
  const pendingLate: NodeJS.Timeout[] = [];
  return {
    path,
    async charge(key, amount, ctx, fault) {
      if (fault === 'fail_before_commit') throw netError('ECONNREFUSED');
      ctx.markSent();
      options.onStage?.('sent');
      await Promise.resolve();
      switch (fault) {
        case 'ok':
          return commit(key, amount);
        case 'commit_then_timeout':
          commit(key, amount);
          options.onStage?.('committed');
          return never(ctx.signal);
        case 'commit_then_reset':
          commit(key, amount);
          throw netError('ECONNRESET');
        case 'reset_before_commit':
          throw netError('ECONNRESET');
        case 'hang':
          return never(ctx.signal);
        case 'commit_late':
          pendingLate.push(setTimeout(() => commit(key, amount), options.lateCommitMs ?? 5));
          return never(ctx.signal);
      }
    },
    findByKey: (key) => (byKey.get(key) as { id: string; created_at: string; amount: number } | undefined) ?? null,
    countByKey: (key) => (count.get(key) as { n: number }).n,
    total: () => (all.get() as { n: number }).n,
    close: () => {
      for (const t of pendingLate) clearTimeout(t);
      db.close();
    },
  };
}

/** The `charge` tool over a service; `faults` yields the behaviour of each successive attempt. */
export function chargeTool(service: PaymentService, options: { idempotent?: boolean; honoursKey: boolean; timeoutMs: number; faults: () => Fault; reconcile?: 'sqlite' | 'broken' | 'none' }) {
  return defineTool({
    name: 'payment_charge',
    description: 'Charge a customer',
    effect: 'write',
    operation: 'charge',
    risk: 'medium',
    idempotent: options.idempotent ?? false,
    honoursKey: options.honoursKey,
    reportsSend: true,
    timeoutMs: options.timeoutMs,
    source: { type: 'api', id: 'payments.fake' },
    input: {
      type: 'object',
      properties: { customer: { type: 'string' }, amount: { type: 'integer', minimum: 1 } },
      required: ['customer', 'amount'],
      additionalProperties: false,
    },
    output: { type: 'object', required: ['charge_id', 'amount'], properties: { charge_id: { type: 'string' }, amount: { type: 'integer' } } },
    ...(options.reconcile === 'none'
      ? {}
      : {
          reconcile: async (key: string) => {
            if (options.reconcile === 'broken') throw new Error('lookup service down');
            const found = service.findByKey(key);
            return found === null ? { state: 'absent' as const } : { state: 'found' as const, external_id: found.id, committed_at: found.created_at, data: { charge_id: found.id, amount: found.amount } };
          },
        }),
    run: async (args: { customer: string; amount: number }, ctx) => {
      const row = await service.charge(ctx.idempotencyKey ?? 'none', args.amount, ctx, options.faults());
      return { data: { charge_id: row.id, amount: row.amount }, external_id: row.id, committed_at: row.created_at };
    },
  });
}

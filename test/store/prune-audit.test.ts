import { describe, expect, it } from 'vitest';
import { AUDIT_PRUNE_BATCH, createMemoryStore, pruneAuditBefore, type Store } from '../../src/store/index.js';

describe('pruning the audit trail in batches', () => {
  it('lets other work run between two batches and reports each full one', async () => {
    const order: string[] = [];
    const answers = [AUDIT_PRUNE_BATCH, AUDIT_PRUNE_BATCH, 7];
    const store = Object.assign(createMemoryStore(), {
      pruneAudit: async (): Promise<number> => { order.push('batch'); return answers.shift() ?? 0; },
    }) as Store;
    setImmediate(() => order.push('other work'));
    const seen: number[] = [];
    expect(await pruneAuditBefore(store, '2026-01-01T00:00:00Z', (n) => seen.push(n))).toBe(2 * AUDIT_PRUNE_BATCH + 7);
    expect(order).toEqual(['batch', 'other work', 'batch', 'batch']);
    expect(seen).toEqual([AUDIT_PRUNE_BATCH, 2 * AUDIT_PRUNE_BATCH]);
  });

  it('answers null for a store that cannot prune', async () => {
    const store: Store = createMemoryStore();
    delete (store as { pruneAudit?: unknown }).pruneAudit;
    expect(await pruneAuditBefore(store, '2026-01-01T00:00:00Z')).toBeNull();
  });
});

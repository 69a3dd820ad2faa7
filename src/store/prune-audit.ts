/**
 * Deleting old audit records in short batches, for `trc sweep --audit-before` and the gateway's
 * retention (`audit_retention_days`): one store transaction per batch, so writers sharing the
 * store never wait for a long one.
 */
import type { Store } from './types.js';

/** Records deleted per batch. */
export const AUDIT_PRUNE_BATCH = 10_000;

/**
 * Delete the audit records of calls started before `before` (RFC 3339), a batch at a time, and
 * return how many went; `onBatch` hears the running total after each full batch. Returns null
 * when the store cannot prune (its `pruneAudit` is optional).
 * @example await pruneAuditBefore(store, '2026-01-01T00:00:00Z') // 12345
 */
export async function pruneAuditBefore(store: Store, before: string, onBatch: (deleted: number) => void = () => undefined): Promise<number | null> {
  const prune = store.pruneAudit?.bind(store);
  if (prune === undefined) return null;
  let deleted = 0;
  for (let batch = AUDIT_PRUNE_BATCH; batch === AUDIT_PRUNE_BATCH;) {
    batch = await prune(before, AUDIT_PRUNE_BATCH);
    deleted += batch;
    if (batch < AUDIT_PRUNE_BATCH) break;
    onBatch(deleted);
    // SQLite deletes synchronously: let the calls of a running gateway in between two batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return deleted;
}

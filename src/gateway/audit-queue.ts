/**
 * Write-behind audit for the gateway: a call's record is queued and the queue is drained once
 * per event-loop turn, after the responses of that turn were written, so the insert is off the
 * response path, and inserted with `appendAuditBatch` (one transaction, one commit per turn
 * rather than per call: the per-call SQLite commit was ~15 % of the gateway's CPU). Sessions flush the queue before they report
 * done, and the CLI closes the store only after that: a clean shutdown (client closes, SIGINT,
 * SIGTERM) loses no record. A crash (SIGKILL, power loss) can lose the records of the current
 * turn that were not yet inserted — at most the calls answered in the last few milliseconds;
 * writes are not exposed to that, their record is inserted before their answer is sent.
 */
import type { AuditRecord, Store } from '../store/index.js';

interface Queue {
  records: AuditRecord[];
  scheduled: boolean;
  draining: Promise<void>;
}

const queues = new WeakMap<Store, Queue>();

/**
 * Queue one audit record for `store`; it is inserted within this event-loop turn's drain.
 * @example enqueueAudit(store, record);
 */
export function enqueueAudit(store: Store, record: AuditRecord): void {
  let q = queues.get(store);
  if (q === undefined) {
    q = { records: [], scheduled: false, draining: Promise.resolve() };
    queues.set(store, q);
  }
  q.records.push(record);
  if (!q.scheduled) {
    q.scheduled = true;
    const queue = q;
    // The answers of this turn are flushed by setImmediate callbacks queued after this one
    // (coalesced stdio writes): draining one turn later lets them go out first.
    setImmediate(() =>
      setImmediate(() => {
        queue.scheduled = false;
        queue.draining = queue.draining.then(() => drain(store, queue));
      }),
    );
  }
}

/**
 * Wait until every queued record of `store` was inserted (or failed to be; audit failures never
 * fail a call).
 * @example await flushAudit(store); await store.close();
 */
export async function flushAudit(store: Store): Promise<void> {
  const q = queues.get(store);
  if (q === undefined) return;
  // Records queued while draining are picked up by the loop.
  while (q.records.length > 0 || q.scheduled) {
    q.scheduled = false;
    q.draining = q.draining.then(() => drain(store, q));
    await q.draining;
  }
  await q.draining;
}

async function drain(store: Store, q: Queue): Promise<void> {
  const batch = q.records.splice(0);
  if (batch.length === 0) return;
  await store.appendAuditBatch(batch).catch(() => undefined);
}

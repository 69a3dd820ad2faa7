/**
 * Write-behind audit for the gateway: a call's record is queued and the queue is drained at most
 * every few milliseconds (or at once when a batch is full), after the responses were written, so
 * the insert is off the response path, and inserted with `appendAuditBatch` — one transaction,
 * one commit per batch rather than per call (the per-call SQLite commit was ~15 % of the
 * gateway's CPU; at 2,000 calls/s a 5 ms window batches ~10). Sessions flush the queue before
 * they report done, and the CLI closes the store only after that: a clean shutdown (client
 * closes, SIGINT, SIGTERM) loses no record. A crash (SIGKILL, power loss) can lose the records not
 * yet inserted — the read calls answered in the last window (~5 ms); writes are not exposed to
 * that, their record is inserted before their answer is sent.
 */
import type { AuditRecord, Store } from '../store/index.js';

/** How long a queued record may wait for others to share its transaction. */
export const AUDIT_WINDOW_MS = 5;
/** A batch this large is inserted without waiting for the window to end. */
export const AUDIT_MAX_BATCH = 256;

interface Queue {
  records: AuditRecord[];
  scheduled: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  draining: Promise<void>;
}

const queues = new WeakMap<Store, Queue>();

/**
 * Queue one audit record for `store`; it is inserted within {@link AUDIT_WINDOW_MS}.
 * @example enqueueAudit(store, record);
 */
export function enqueueAudit(store: Store, record: AuditRecord): void {
  let q = queues.get(store);
  if (q === undefined) {
    q = { records: [], scheduled: false, timer: null, draining: Promise.resolve() };
    queues.set(store, q);
  }
  q.records.push(record);
  if (q.records.length >= AUDIT_MAX_BATCH) {
    // A full batch goes now (the answers of this turn still leave first: see below).
    if (q.timer !== null) {
      clearTimeout(q.timer);
      q.timer = null;
      q.scheduled = false;
    }
    if (!q.scheduled) schedule(store, q, 0);
  } else if (!q.scheduled) {
    schedule(store, q, AUDIT_WINDOW_MS);
  }
}

function schedule(store: Store, queue: Queue, ms: number): void {
  queue.scheduled = true;
  const run = () => {
    queue.timer = null;
    queue.scheduled = false;
    queue.draining = queue.draining.then(() => drain(store, queue));
  };
  // The answers of a turn are flushed by setImmediate callbacks (coalesced stdio writes):
  // draining a turn later lets them go out first.
  if (ms === 0) setImmediate(() => setImmediate(run));
  else queue.timer = setTimeout(run, ms);
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
    if (q.timer !== null) clearTimeout(q.timer);
    q.timer = null;
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

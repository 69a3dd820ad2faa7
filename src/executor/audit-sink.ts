/**
 * Where the pipeline's audit records go: one `AuditSink`, one record shape, whichever edge the
 * call came in through. The store sink inserts each record before the call answers. The
 * write-behind sink (the gateway's) queues records of read calls and inserts them in batches —
 * at most every few milliseconds, or at once when a batch is full, after the responses of the
 * turn were written — with `appendAuditBatch`: one transaction, one commit per batch rather than
 * per call (the per-call SQLite commit was ~15 % of the gateway's CPU). Records of writes are
 * always inserted before the call answers, so no side effect is ever unrecorded. `flush()`
 * drains the queue: a clean shutdown loses no record; a crash (SIGKILL, power loss) can lose the
 * read calls of the last window (~5 ms).
 */
import type { AuditEncoding, AuditRecord, LedgerEntry, LedgerPatch, Store } from '../store/types.js';

/** One record and, when the caller can serialize it cheaply, its detail as JSON text (made on demand). */
export interface AuditEntry {
  readonly record: AuditRecord;
  readonly detailJson?: () => string;
}

function encodingOf(entry: AuditEntry): AuditEncoding | undefined {
  return entry.detailJson === undefined ? undefined : { detailJson: entry.detailJson() };
}

/** Where audit records go. */
export interface AuditSink {
  /**
   * Record one call. `durable`: the record must be stored before the call answers (writes).
   * Rejects when a durable record could not be stored.
   */
  append(entry: AuditEntry, options: { readonly durable: boolean }): Promise<void> | void;
  /**
   * Store a write's record and settle entry `key` of the ledger in `ledger` with `patch` in one
   * atomic step (one commit): both or neither. Rejects like {@link AuditSink.append}, having
   * settled nothing. Returns undefined, doing nothing, when it cannot (records kept in another
   * store than that ledger): the pipeline then appends, and settles through the store.
   */
  appendAndSettle?(entry: AuditEntry, ledger: Store, key: string, patch: LedgerPatch): Promise<LedgerEntry | null> | undefined;
  /** Wait until every queued record was stored (or failed to be). */
  flush(): Promise<void>;
}

/**
 * Insert every record before the call answers.
 * @example createExecutor({ tools, store, audit: storeAuditSink(store) })
 */
export function storeAuditSink(store: Store): AuditSink {
  return withSettle(store, {
    append: (entry) => store.appendAudit(entry.record, encodingOf(entry)),
    flush: async () => undefined,
  });
}

/** `sink` with {@link AuditSink.appendAndSettle} when the store can append and settle at once. */
function withSettle(store: Store, sink: AuditSink): AuditSink {
  if (store.appendAuditAndSettle === undefined) return sink;
  return { ...sink, appendAndSettle: (entry, ledger, key, patch) => (ledger === store ? store.appendAuditAndSettle?.(entry.record, encodingOf(entry), key, patch) : undefined) };
}

/** How long a queued record may wait for others to share its transaction. */
export const AUDIT_WINDOW_MS = 5;
/** A batch this large is inserted without waiting for the window to end. */
export const AUDIT_MAX_BATCH = 256;

interface Queue {
  /** Records with, when cheap, their detail text: made at drain time, after the answers left. */
  entries: AuditEntry[];
  scheduled: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  draining: Promise<void>;
}

const queues = new WeakMap<Store, Queue>();

function queueOf(store: Store): Queue {
  let q = queues.get(store);
  if (q === undefined) {
    q = { entries: [], scheduled: false, timer: null, draining: Promise.resolve() };
    queues.set(store, q);
  }
  return q;
}

/**
 * Queue one audit record for `store`; it is inserted within {@link AUDIT_WINDOW_MS}. `detailJson`
 * (from `buildAuditEntry`) is called when the batch is inserted, so the envelope is not serialized again.
 * @example enqueueAudit(store, record);
 */
export function enqueueAudit(store: Store, record: AuditRecord, detailJson?: () => string): void {
  const q = queueOf(store);
  q.entries.push(detailJson === undefined ? { record } : { record, detailJson });
  if (q.entries.length >= AUDIT_MAX_BATCH) {
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
  while (q.entries.length > 0 || q.scheduled) {
    if (q.timer !== null) clearTimeout(q.timer);
    q.timer = null;
    q.scheduled = false;
    q.draining = q.draining.then(() => drain(store, q));
    await q.draining;
  }
  await q.draining;
}

async function drain(store: Store, q: Queue): Promise<void> {
  const batch = q.entries.splice(0);
  if (batch.length === 0) return;
  const encodings = batch.map((entry) => {
    try {
      return encodingOf(entry);
    } catch {
      return undefined; // the store serializes that record itself, and says what it cannot
    }
  });
  await store.appendAuditBatch(batch.map((e) => e.record), encodings).catch(() => undefined);
}

/**
 * Write-behind audit over `store`: reads are queued and batched, writes inserted at once.
 * All sinks of one store share one queue.
 * @example createExecutor({ tools, store, audit: writeBehindAuditSink(store) })
 */
export function writeBehindAuditSink(store: Store): AuditSink {
  return withSettle(store, {
    append: (entry, appendOptions) => {
      if (appendOptions.durable) return store.appendAudit(entry.record, encodingOf(entry));
      enqueueAudit(store, entry.record, entry.detailJson);
      return undefined;
    },
    flush: () => flushAudit(store),
  });
}

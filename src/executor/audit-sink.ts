/**
 * Where the pipeline's audit records go: one `AuditSink`, one record shape, whichever edge the
 * call came in through. The store sink inserts each record before the call answers. The
 * write-behind sink (the gateway's) queues records of read calls and inserts them in batches —
 * at most every few milliseconds, or at once when a batch is full, after the responses of the
 * turn were written — with `appendAuditBatch`: one transaction, one commit per batch rather than
 * per call (the per-call SQLite commit was ~15 % of the gateway's CPU). Records of writes are
 * always inserted before the call answers, so no side effect is ever unrecorded. `flush()`
 * drains the queue: a clean shutdown loses no record; a crash (SIGKILL, power loss) can lose the
 * read calls of the last window (~50 ms). A batch the store refuses is kept and tried again,
 * and records given up are reported (`onTrouble`), never dropped in silence.
 */
import type { AuditEncoding, AuditRecord, LedgerEntry, LedgerPatch, Store } from '../store/types.js';
import { TrcError } from '../contract/index.js';
import { appendRepeat, isAuditExists } from './audit-append.js';

/**
 * One record and, when the caller can serialize it cheaply, its detail as JSON text (made on
 * demand). For a sink with {@link AuditSink.lateRecords} the pipeline makes `record` itself on
 * first read (a getter), so a sink that reads it only when it stores the batch builds it then.
 */
export interface AuditEntry {
  readonly record: AuditRecord;
  readonly detailJson?: () => string;
}

/**
 * An entry whose record (and detail text) `build` makes on first read, once.
 * @example const entry = lateAuditEntry(() => buildAuditEntry(input)); entry.record.callId
 */
export function lateAuditEntry(build: () => { record: AuditRecord; detailJson: () => string }): AuditEntry {
  let built: { record: AuditRecord; detailJson: () => string } | undefined;
  const made = () => (built ??= build());
  return {
    get record() {
      return made().record;
    },
    detailJson: () => made().detailJson(),
  };
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
  /**
   * The sink reads a non-durable entry's `record` only when it stores it, after the call has
   * answered: the pipeline then makes those records late (see {@link lateAuditEntry}), off the
   * answer's path, from the envelope as it is at that time. Only for a caller that never changes
   * an envelope it got back (the gateway renders it and lets it go).
   */
  readonly lateRecords?: boolean;
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

/**
 * How long a queued record may wait for others to share its transaction. A gateway serving one
 * client's sequential calls (~1 ms apart) put ~5 records in each 5 ms window; a commit costs a
 * fixed ~60–90 µs of CPU (WAL frames for the table and its three indexes, locks, syscalls), paid
 * again every few calls, and SQLite's code ran cold each time. At 50 ms the same calls share
 * ~50 records a commit.
 */
export const AUDIT_WINDOW_MS = 50;
/** A batch this large is inserted without waiting for the window to end. */
export const AUDIT_MAX_BATCH = 256;
/**
 * Queued records past which the queue is drained on a microtask. The window and a full batch
 * wait for the event loop's next turn; a caller that runs calls in a loop that never yields to
 * it (tools without I/O, awaited one after another) would otherwise queue every record, and
 * keep every envelope, until the loop ends.
 */
export const AUDIT_HIGH_WATER = 8 * AUDIT_MAX_BATCH;

/** How often a batch the store refused is tried again before its records are given up. */
export const AUDIT_MAX_TRIES = 8;
/** Records kept for a store that refuses them (an outage); past this, the oldest are given up. */
export const AUDIT_MAX_RETAINED = 4 * AUDIT_HIGH_WATER;
/** Waits between tries of a refused batch: doubling from the first to the last. */
const RETRY_FIRST_MS = 100;
const RETRY_LAST_MS = 5_000;

/** What a write-behind sink reports when its store refuses a batch. */
export interface AuditTrouble {
  /** Records in the batch that failed (kept to be tried again, unless given up). */
  readonly records: number;
  /** Records given up for good by this failure: tried {@link AUDIT_MAX_TRIES} times, or past {@link AUDIT_MAX_RETAINED}. */
  readonly givenUp: number;
  /** When the next try is, in ms (none when nothing is left to try). */
  readonly retryInMs: number | null;
}

interface Queue {
  /** Records with, when cheap, their detail text: made at drain time, after the answers left. */
  entries: AuditEntry[];
  /** Tries so far of entries the store refused, by entry. */
  tries: WeakMap<AuditEntry, number>;
  /** The wait before the next try after a refusal (0 while the store takes batches). */
  backoffMs: number;
  onTrouble?: ((error: unknown, trouble: AuditTrouble) => void) | undefined;
  scheduled: boolean;
  /** A drain is chained on a microtask and has not started yet. */
  urgent: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  draining: Promise<void>;
}

const queues = new WeakMap<Store, Queue>();

function queueOf(store: Store): Queue {
  let q = queues.get(store);
  if (q === undefined) {
    q = { entries: [], tries: new WeakMap(), backoffMs: 0, scheduled: false, urgent: false, timer: null, draining: Promise.resolve() };
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
  enqueueEntry(store, detailJson === undefined ? { record } : { record, detailJson });
}

/** Queue one entry as it is: its `record` is read when the batch is stored. */
function enqueueEntry(store: Store, entry: AuditEntry): void {
  const q = queueOf(store);
  q.entries.push(entry);
  // While the store refuses batches, only the retry timer drains: no batch goes early.
  if (q.backoffMs > 0) {
    if (!q.scheduled) schedule(store, q, q.backoffMs);
  } else if (q.entries.length >= AUDIT_HIGH_WATER && !q.urgent) {
    // The event loop has not turned for this many calls: drain without waiting for it. A timer
    // already set stays; it finds what is queued by then.
    q.urgent = true;
    q.draining = q.draining.then(() => {
      q.urgent = false;
      return drain(store, q);
    });
  } else if (q.entries.length >= AUDIT_MAX_BATCH) {
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
  // A retry after a refusal never keeps the process alive on its own.
  else queue.timer = queue.backoffMs > 0 ? setTimeout(run, ms).unref() : setTimeout(run, ms);
}

/**
 * Wait until every queued record of `store` was inserted (or failed to be; audit failures never
 * fail a call).
 * @example await flushAudit(store); await store.close();
 */
export async function flushAudit(store: Store): Promise<void> {
  const q = queues.get(store);
  if (q === undefined) return;
  // Records queued while draining are picked up by the loop; a store that refuses a batch ends
  // it (what is left waits for the retry timer, and is reported if it is given up).
  while (q.entries.length > 0 || q.scheduled) {
    if (q.timer !== null) clearTimeout(q.timer);
    q.timer = null;
    q.scheduled = false;
    q.draining = q.draining.then(() => drain(store, q));
    await q.draining;
    if (q.backoffMs > 0) break;
  }
  await q.draining;
}

async function drain(store: Store, q: Queue): Promise<void> {
  const entries = q.entries.splice(0);
  if (entries.length === 0) return;
  // A late entry's record is made here; one that cannot be made is lost like a failed insert
  // (audit failures never fail a call).
  const records: AuditRecord[] = [];
  const encodings: (AuditEncoding | undefined)[] = [];
  const built: AuditEntry[] = [];
  for (const entry of entries) {
    let record: AuditRecord;
    try {
      record = entry.record;
    } catch {
      continue;
    }
    records.push(record);
    built.push(entry);
    try {
      encodings.push(encodingOf(entry));
    } catch {
      encodings.push(undefined); // the store serializes that record itself, and says what it cannot
    }
  }
  if (records.length === 0) return;
  let skipped: readonly string[];
  try {
    skipped = await store.appendAuditBatch(records, encodings);
    q.backoffMs = 0;
  } catch (error) {
    refused(store, q, built, error);
    return;
  }
  await storeRepeats(store, q, records, skipped);
}

/**
 * The records a batch skipped because their call id was already recorded (or repeated in the
 * batch) are later runs of that id, not copies: each goes under its next repeat id
 * (`<call_id>#repeat-<n>`), as the pipeline stores a durable one. They were dropped in silence.
 */
async function storeRepeats(store: Store, q: Queue, records: readonly AuditRecord[], skipped: readonly string[]): Promise<void> {
  for (const id of new Set(skipped)) {
    // The batch stored the first of an id that was new; the later ones were skipped.
    const times = skipped.filter((s) => s === id).length;
    for (const record of records.filter((r) => r.callId === id).slice(-times)) {
      try {
        if ((await appendRepeat(store, record)) === null) throw new TrcError('AUDIT_REPEATS_EXHAUSTED', `call id ${id} has no free repeat id left`);
      } catch (error) {
        q.onTrouble?.(error, { records: 1, givenUp: 1, retryInMs: null });
      }
    }
  }
}

/**
 * The store refused a batch (an outage, a full disk): its entries go back to the front of the
 * queue and are tried again after a doubling wait, each at most {@link AUDIT_MAX_TRIES} times,
 * with at most {@link AUDIT_MAX_RETAINED} records kept. What is given up is reported, never
 * dropped in silence; a call never fails for its audit.
 */
function refused(store: Store, q: Queue, entries: readonly AuditEntry[], error: unknown): void {
  let givenUp = 0;
  const kept: AuditEntry[] = [];
  for (const entry of entries) {
    const tries = (q.tries.get(entry) ?? 0) + 1;
    if (tries >= AUDIT_MAX_TRIES) givenUp++;
    else {
      q.tries.set(entry, tries);
      kept.push(entry);
    }
  }
  q.entries.unshift(...kept);
  const over = q.entries.length - AUDIT_MAX_RETAINED;
  if (over > 0) {
    q.entries.splice(0, over);
    givenUp += over;
  }
  q.backoffMs = q.backoffMs === 0 ? RETRY_FIRST_MS : Math.min(RETRY_LAST_MS, q.backoffMs * 2);
  const retryInMs = q.entries.length === 0 ? null : q.backoffMs;
  q.onTrouble?.(error, { records: entries.length, givenUp, retryInMs });
  if (retryInMs !== null && !q.scheduled) schedule(store, q, retryInMs);
}

/**
 * A record that had to be stored before its call answered could not be (the store is down): the
 * call still answers (with `AUDIT_WRITE_FAILED`), and the record joins the queue as one the
 * store refused once, so an outage shorter than the retries loses nothing. The rejection says so.
 */
function retryDurable(store: Store, entry: AuditEntry, error: unknown): never {
  // A call id already recorded is no outage: trying again cannot help, and the pipeline stores
  // the record as the id's next repeat when it sees this refusal.
  if (isAuditExists(error)) throw error;
  const q = queueOf(store);
  q.tries.set(entry, 1);
  enqueueEntry(store, entry);
  const why = error instanceof Error ? error.message : String(error);
  throw new TrcError('AUDIT_DEFERRED', `${why}; the record is kept in memory and tried again (up to ${AUDIT_MAX_TRIES} tries)`, { cause: error });
}

/** Options of {@link writeBehindAuditSink}. */
export interface WriteBehindOptions {
  /**
   * Make the records of read calls when their batch is stored, not before the call answers
   * ({@link AuditSink.lateRecords}): for a caller that never changes a returned envelope.
   * Default false.
   */
  readonly lateRecords?: boolean;
  /**
   * Told when the store refuses a batch (the records are kept and tried again) and of records
   * given up; e.g. a line on stderr for the operator. All sinks of one store share the latest.
   */
  readonly onTrouble?: (error: unknown, trouble: AuditTrouble) => void;
}

/**
 * Write-behind audit over `store`: reads are queued and batched, writes inserted at once (a
 * write's record the store refuses is queued to be tried again, and its call warned). All sinks
 * of one store share one queue.
 * @example createExecutor({ tools, store, audit: writeBehindAuditSink(store) })
 */
export function writeBehindAuditSink(store: Store, options: WriteBehindOptions = {}): AuditSink {
  if (options.onTrouble !== undefined) queueOf(store).onTrouble = options.onTrouble;
  return withSettle(store, {
    append: (entry, appendOptions) => {
      if (appendOptions.durable) return store.appendAudit(entry.record, encodingOf(entry)).catch((error: unknown) => retryDurable(store, entry, error));
      enqueueEntry(store, entry);
      return undefined;
    },
    flush: () => flushAudit(store),
    ...(options.lateRecords === true ? { lateRecords: true } : {}),
  });
}

import { randomId } from '../contract/random-id.js';
import type {
  AuditFilter, AuditRecord, HandleRecord, LedgerBegin, LedgerEntry, LedgerLease, LedgerState, ResourceMeta, ResourceWriter, StateEntry, RunEventEntry, Store,
} from './types.js';
import { createChunkedWriter } from './chunked-writer.js';
import { STORE_ERROR_CODES, storeError } from './errors.js';
import { chunkStart, startByte } from './chunk-start.js';
import { decodeJson, encodeAuditRecord, encodeJson } from './json-column.js';
import { checkLimit, checkPruneLimit, timestampMs } from './timestamps.js';
import { memoryRetention, type MemoryEviction } from './memory-retention.js';
import { oldestFirst } from './oldest-first.js';
import { createSlabPacker, type Packed } from './slab-packer.js';
import { refusingUnstorableText } from './text-columns.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Size of stored chunks in bytes (default 1 MiB). */
  readonly chunkBytes?: number;
  /**
   * Most audit records kept (default 10,000); each one past it drops the oldest written.
   * `Infinity` keeps every record for the life of the store.
   */
  readonly maxAuditRecords?: number;
  /**
   * Most bytes of committed resources kept (default 64 MiB); committing past it drops the
   * oldest resources and the handles that point at them (reading one then answers
   * `HANDLE_UNKNOWN`). The newest resource is always kept. `Infinity` keeps all.
   */
  readonly maxResourceBytes?: number;
  /**
   * Hears each drop. The default emits one process warning per kind
   * (`TRC_MEMORY_STORE_EVICTING`) the first time this store drops something.
   */
  readonly onEvict?: (event: MemoryEviction) => void;
}

/** One audit record, kept as UTF-8 bytes. */
interface AuditRow {
  readonly callId: string;
  readonly record: Packed;
  readonly startedMs: number;
}

/** One committed resource. */
interface StoredResource {
  readonly meta: ResourceMeta;
  readonly chunks: Uint8Array[];
}

/** A JSON round trip, so the memory store returns exactly what a database would. */
const roundTrip = <T>(value: T, pointer: string): T => decodeJson(encodeJson(value, pointer)) as T;

// Audit texts of every memory store in the process, in slabs used again once emptied.
const auditTexts = createSlabPacker();

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A lease as the SQL stores give it back (expiry at millisecond precision, in UTC). */
const normalLease = (lease: LedgerLease): LedgerLease => ({ owner: lease.owner, until: new Date(timestampMs(lease.until, '/lease/until')).toISOString() });

/**
 * An in-memory {@link Store}: no persistence, no native dependencies. Behaves like the SQLite
 * and PostgreSQL stores (same suite), including JSON round trips of stored values.
 *
 * @example
 * const store = createMemoryStore();
 * const w = await store.createResource({ principal: 'u1', tool: 'search', mimeType: 'application/json', expiresAt: null });
 * await w.write(new TextEncoder().encode('[1,2,3]'));
 * const meta = await w.commit();
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  const retention = memoryRetention(options);
  const resources = new Map<string, StoredResource>();
  // Written order, for dropping the oldest (none kept when nothing is ever dropped).
  const resourceOrder = retention.maxResourceBytes === Infinity ? undefined : oldestFirst<StoredResource>();
  let resourceBytes = 0;
  const handles = new Map<string, string>();
  const handlesOf = new Map<string, string[]>(); // resource id → ids of the handles that point at it
  const ledger = new Map<string, LedgerEntry>();
  // Audit records are kept as UTF-8 bytes: a byte buffer lives outside the JS heap, so the
  // garbage collector does not copy or trace every record ever written (thousands per second
  // under load). JSON.stringify escapes lone surrogates, so the text survives UTF-8 exactly.
  const audit = new Map<string, AuditRow>();
  const auditOrder = retention.maxAuditRecords === Infinity ? undefined : oldestFirst<AuditRow>();
  const isLiveAudit = (row: AuditRow): boolean => audit.get(row.callId) === row;
  const isLiveResource = (r: StoredResource): boolean => resources.get(r.meta.id) === r;
  const state = new Map<string, StateEntry>();
  const runLogs = new Map<string, RunEventEntry[]>();
  let closed = false;
  let lastStartedAt: unknown;
  let lastStartedMs = 0;

  const open = (): void => {
    if (closed) throw storeError(STORE_ERROR_CODES.closed, 'store is closed');
  };
  const copyEntry = (entry: LedgerEntry): LedgerEntry => ({ ...entry, envelope: roundTrip(entry.envelope, '/envelope') });

  const dropResource = (id: string): void => {
    const found = resources.get(id);
    if (found === undefined) return;
    resources.delete(id);
    resourceBytes -= found.meta.bytes;
    for (const handle of handlesOf.get(id) ?? []) handles.delete(handle);
    handlesOf.delete(id);
  };
  const keepResourcesWithinLimit = (): void => {
    while (resourceBytes > retention.maxResourceBytes && resources.size > 1) {
      const oldest = resourceOrder?.takeOldest(isLiveResource);
      if (oldest === undefined) return;
      dropResource(oldest.meta.id);
      retention.onEvict({ kind: 'resource', id: oldest.meta.id, limit: retention.maxResourceBytes });
    }
  };
  const dropAudit = (row: AuditRow): void => {
    audit.delete(row.callId);
    auditTexts.release(row.record);
  };
  const putAudit = (callId: string, text: string, startedMs: number): void => {
    const row: AuditRow = { callId, record: auditTexts.pack(text), startedMs };
    audit.set(callId, row);
    auditOrder?.add(row);
    if (audit.size <= retention.maxAuditRecords) return;
    const oldest = auditOrder?.takeOldest(isLiveAudit);
    if (oldest === undefined) return;
    dropAudit(oldest);
    retention.onEvict({ kind: 'audit', id: oldest.callId, limit: retention.maxAuditRecords });
  };

  const store: Store = {
    async createResource(input): Promise<ResourceWriter> {
      open();
      // An expiry that is no instant could never be swept: the result would be kept for good.
      if (input.expiresAt !== null) timestampMs(input.expiresAt, '/expiresAt');
      const id = randomId();
      const createdAt = new Date().toISOString();
      let chunks: Uint8Array[] = [];
      return createChunkedWriter(id, {
        writeChunk(_seq, data) {
          open();
          chunks.push(data.slice()); // the view is reused by the writer after this returns
        },
        commit(totals) {
          open();
          const meta: ResourceMeta = {
            id, principal: input.principal, tool: input.tool, mimeType: input.mimeType,
            bytes: totals.bytes, sha256: totals.sha256, createdAt, expiresAt: input.expiresAt,
          };
          const stored: StoredResource = { meta, chunks };
          resources.set(id, stored);
          resourceOrder?.add(stored);
          resourceBytes += meta.bytes;
          keepResourcesWithinLimit();
          return { ...meta };
        },
        discard() {
          chunks = [];
        },
      }, options.chunkBytes);
    },

    async getResourceMeta(id) {
      open();
      const found = resources.get(id);
      return found === undefined ? null : { ...found.meta };
    },

    async *readResource(id, from) {
      open();
      const found = resources.get(id);
      if (found === undefined) throw storeError(STORE_ERROR_CODES.resourceNotFound, `no committed resource ${id}`, { id });
      const start = chunkStart(found.chunks.map((c) => c.length), startByte(from));
      for (let seq = start.seq; seq < found.chunks.length; seq += 1) {
        open();
        yield (found.chunks[seq] as Uint8Array).slice(seq === start.seq ? start.skip : 0);
      }
    },

    async putHandle(handle) {
      open();
      if (handles.has(handle.id)) throw storeError(STORE_ERROR_CODES.handleExists, 'handle id already exists');
      timestampMs(handle.expiresAt, '/expiresAt');
      handles.set(handle.id, encodeJson(handle, '/'));
      const siblings = handlesOf.get(handle.target.resourceId);
      if (siblings === undefined) handlesOf.set(handle.target.resourceId, [handle.id]);
      else siblings.push(handle.id);
    },

    async getHandle(id) {
      open();
      const text = handles.get(id);
      return text === undefined ? null : (decodeJson(text) as HandleRecord);
    },

    async sweepExpired(now) {
      open();
      const nowMs = timestampMs(now, '/now');
      let swept = 0;
      for (const [id, text] of handles) {
        const record = decodeJson(text) as HandleRecord;
        if (Date.parse(record.expiresAt) < nowMs) {
          handles.delete(id);
          const siblings = handlesOf.get(record.target.resourceId);
          const at = siblings?.indexOf(id) ?? -1;
          if (at >= 0) siblings?.splice(at, 1);
          if (siblings?.length === 0) handlesOf.delete(record.target.resourceId);
          swept++;
        }
      }
      let dropped = 0;
      for (const [id, r] of resources) {
        if (r.meta.expiresAt !== null && Date.parse(r.meta.expiresAt) < nowMs) {
          resources.delete(id);
          resourceBytes -= r.meta.bytes;
          handlesOf.delete(id); // its handles stay until they expire, as before; eviction need not find them
          dropped++;
        }
      }
      if (dropped > 0) resourceOrder?.keepOnly(isLiveResource);
      return { handles: swept, resources: dropped };
    },

    async ledgerBegin(input): Promise<LedgerBegin> {
      open();
      const existing = ledger.get(input.key);
      if (existing !== undefined) return { created: false, entry: copyEntry(existing) };
      const entry: LedgerEntry = {
        key: input.key, tool: input.tool, principal: input.principal, argsDigest: input.argsDigest,
        state: 'in_flight', attempts: 0, callId: input.callId, createdAt: input.now, updatedAt: input.now, envelope: null,
        ...(input.lease === undefined ? {} : { lease: normalLease(input.lease) }),
      };
      ledger.set(input.key, entry);
      return { created: true, entry: copyEntry(entry) };
    },

    async ledgerUpdate(key, patch) {
      open();
      const existing = ledger.get(key);
      if (existing === undefined) return null;
      const { lease, ...rest } = existing;
      const next: LedgerEntry = {
        ...rest,
        state: patch.state ?? existing.state,
        attempts: patch.attempts ?? existing.attempts,
        envelope: patch.envelope === undefined ? existing.envelope : roundTrip(patch.envelope, '/envelope'),
        updatedAt: patch.now,
        ...(lease === undefined || patch.lease === null ? {} : { lease }),
      };
      ledger.set(key, next);
      return copyEntry(next);
    },

    async ledgerClaim(key, claim) {
      open();
      const existing = ledger.get(key);
      const nowMs = timestampMs(claim.now, '/now');
      if (existing === undefined || !claim.from.includes(existing.state)) return null;
      const held = existing.lease;
      const predecessor = claim.over !== undefined && held?.owner.startsWith(claim.over) === true;
      if (held !== undefined && held.owner !== claim.lease.owner && Date.parse(held.until) >= nowMs && !predecessor) return null;
      const next: LedgerEntry = {
        ...existing,
        state: claim.state ?? existing.state,
        attempts: claim.attempts ?? existing.attempts,
        updatedAt: claim.now,
        lease: normalLease(claim.lease),
      };
      ledger.set(key, next);
      return copyEntry(next);
    },

    async ledgerGet(key) {
      open();
      const entry = ledger.get(key);
      return entry === undefined ? null : copyEntry(entry);
    },

    async ledgerList(filter: { state?: LedgerState } = {}) {
      open();
      return [...ledger.values()]
        .filter((e) => filter.state === undefined || e.state === filter.state)
        .sort((a, b) => byText(a.createdAt, b.createdAt) || byText(a.key, b.key))
        .map(copyEntry);
    },

    async appendAudit(record, encoded) {
      open();
      // Consecutive records usually share a start time to the millisecond: parse each text once.
      if (record.startedAt !== lastStartedAt) {
        lastStartedMs = timestampMs(record.startedAt, '/startedAt');
        lastStartedAt = record.startedAt;
      }
      const startedMs = lastStartedMs;
      if (audit.has(record.callId)) {
        throw storeError(STORE_ERROR_CODES.auditExists, `audit record for call ${record.callId} already exists`, { callId: record.callId });
      }
      putAudit(record.callId, encodeAuditRecord(record, encoded), startedMs);
    },

    async appendAuditAndSettle(record, encoded, key, patch) {
      // appendAudit refuses before anything changes; the update below cannot fail after it.
      await store.appendAudit(record, encoded);
      return store.ledgerUpdate(key, patch);
    },

    async appendAuditBatch(records, encodings) {
      open();
      const startedMs = records.map((r, i) => timestampMs(r.startedAt, `/${i}/startedAt`));
      const skipped: string[] = [];
      records.forEach((record, i) => {
        if (audit.has(record.callId)) skipped.push(record.callId);
        else putAudit(record.callId, encodeAuditRecord(record, encodings?.[i], `/${i}`), startedMs[i] as number);
      });
      return skipped;
    },

    async getAudit(callId) {
      open();
      const found = audit.get(callId);
      return found === undefined ? null : (decodeJson(found.record.bytes.toString('utf8')) as AuditRecord);
    },

    async listAudit(filter: AuditFilter = {}) {
      open();
      const limit = checkLimit(filter.limit);
      const sinceMs = filter.since === undefined ? undefined : timestampMs(filter.since, '/since');
      const untilMs = filter.until === undefined ? undefined : timestampMs(filter.until, '/until');
      const rows = [...audit.values()]
        .map((row) => ({ ...row, parsed: decodeJson(row.record.bytes.toString('utf8')) as AuditRecord }))
        .filter((row) => (filter.tool === undefined || row.parsed.tool === filter.tool) && (sinceMs === undefined || row.startedMs >= sinceMs) && (untilMs === undefined || row.startedMs < untilMs))
        .sort((a, b) => a.startedMs - b.startedMs || byText(a.parsed.startedAt, b.parsed.startedAt) || byText(a.parsed.callId, b.parsed.callId))
        .map((row) => row.parsed);
      if (filter.newest === true) rows.reverse();
      return limit === undefined ? rows : rows.slice(0, limit);
    },

    async pruneAudit(before, limit) {
      open();
      const beforeMs = timestampMs(before, '/before');
      const max = checkPruneLimit(limit);
      const old = [...audit.entries()].filter(([, row]) => row.startedMs < beforeMs).sort((a, b) => a[1].startedMs - b[1].startedMs).slice(0, max);
      for (const [, row] of old) dropAudit(row);
      // The queue would otherwise hold the pruned records' bytes until they came up for dropping.
      if (old.length > 0) auditOrder?.keepOnly(isLiveAudit);
      return old.length;
    },

    async getState(key) {
      open();
      const entry = state.get(key);
      return entry === undefined ? null : roundTrip(entry, '/');
    },

    async putState(input) {
      open();
      const current = state.get(input.key) ?? null;
      if ((current?.version ?? null) !== input.baseVersion) {
        return { conflict: current === null ? null : roundTrip(current, '/') };
      }
      const next: StateEntry = {
        key: input.key,
        version: (current?.version ?? 0) + 1,
        value: roundTrip(input.value, '/value'),
        source: roundTrip(input.source, '/source'),
        updatedAt: input.now,
      };
      state.set(input.key, next);
      return roundTrip(next, '/');
    },

    async appendRunEvents(input) {
      open();
      const log = runLogs.get(input.runId) ?? [];
      if (log.length !== input.afterSeq) return { conflict: true as const };
      const entries = input.events.map((e, i) => ({ seq: input.afterSeq + i + 1, event: roundTrip(e, `/events/${i}`), at: input.now }));
      log.push(...entries);
      runLogs.set(input.runId, log);
      return { lastSeq: log.length };
    },

    async listRunEvents(runId, afterSeq = 0) {
      open();
      return (runLogs.get(runId) ?? []).slice(afterSeq).map((e) => roundTrip(e, '/'));
    },

    async close() {
      closed = true;
    },
  };
  return refusingUnstorableText(store);
}

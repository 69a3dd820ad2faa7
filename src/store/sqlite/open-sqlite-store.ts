import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AuditFilter, HandleRecord, LedgerLease, LedgerPatch, LedgerState, Store } from '../types.js';
import { randomId } from '../../contract/random-id.js';
import { asStoreError, guardStore } from '../backend-guard.js';
import { decodeAuditRow, type AuditRow } from '../audit-row.js';
import { createChunkedWriter } from '../chunked-writer.js';
import { chunkStart, startByte } from '../chunk-start.js';
import { STORE_ERROR_CODES, storeError } from '../errors.js';
import { decodeJson, encodeAuditRecord, encodeJson } from '../json-column.js';
import { checkLimit, checkPruneLimit, timestampMs } from '../timestamps.js';
import { leaseMs, toEntry, toMeta, toState, type LedgerRow, type ResourceRow, type StateRow } from '../sql-rows.js';
import { openSqliteDatabase, type SqlDatabase, type SqlValue, type SqliteDriverName } from './driver.js';
import { migrateSqlite, refuseForeignSqlite } from './migrations.js';
import { refuseOptions, sqliteOptionProblem } from '../store-options.js';
import { currentWriter, removeAbandonedResources } from './writer-owner.js';

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** Database file, or `:memory:` for a private in-memory database. */
  readonly path: string;
  /** How long a statement waits for another process's lock before failing (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  /**
   * `FULL` (default) survives power loss after every commit — the ledger depends on it;
   * `NORMAL` is faster and still survives a process crash.
   */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** Size of stored chunks in bytes (default 1 MiB). */
  readonly chunkBytes?: number;
  /** Uncommitted resources untouched this long are removed on open even if their writer may live (default 1 h, at least 1 s). */
  readonly staleWriterMs?: number;
  /**
   * `auto` (default, or `$TRC_SQLITE_DRIVER`): better-sqlite3 when installed, else Node's
   * built-in `node:sqlite` (Node 22.13+). Both read and write the same files.
   */
  readonly driver?: SqliteDriverName | 'auto';
}

/**
 * Open (creating and migrating if needed) an SQLite {@link Store} with better-sqlite3 (an
 * optional peer) or, without it, Node's built-in `node:sqlite`; with neither, a
 * `STORE_DRIVER_MISSING` error names the package to install.
 * Files use WAL and a busy timeout, so several processes may share one file; uncommitted
 * resources left by a crashed writer are removed on open.
 *
 * @example
 * import { openSqliteStore } from 'tool-result-contract/store/sqlite';
 * const store = await openSqliteStore({ path: './trc.db' });
 * await store.close();
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  if (typeof options.path !== 'string' || options.path === '') {
    throw storeError(STORE_ERROR_CODES.badOptions, 'openSqliteStore needs a non-empty `path` (use ":memory:" for a private database)', { pointer: '/path' });
  }
  refuseOptions('openSqliteStore', sqliteOptionProblem(options as unknown as Record<string, unknown>));
  const staleWriterMs = options.staleWriterMs ?? 60 * 60 * 1000;
  // SQLite creates the file, not its directory (".trc/trc.sqlite" in a fresh checkout).
  if (options.path !== ':memory:' && !options.path.startsWith('file:')) {
    try {
      mkdirSync(dirname(resolve(options.path)), { recursive: true });
    } catch (cause) {
      throw storeError(STORE_ERROR_CODES.backend, `cannot create the directory of ${options.path}`, { path: options.path }, cause);
    }
  }
  let db: SqlDatabase;
  try {
    db = openSqliteDatabase(options.path, { busyTimeoutMs: options.busyTimeoutMs ?? 5000, ...(options.driver === undefined ? {} : { driver: options.driver }) });
  } catch (cause) {
    if ((cause as { code?: unknown }).code === STORE_ERROR_CODES.driverMissing) throw cause;
    throw storeError(STORE_ERROR_CODES.backend, `cannot open SQLite database ${options.path}`, { path: options.path }, cause);
  }
  try {
    // Before anything writes (even the switch to WAL): another program's file is left as it was.
    if (options.path !== ':memory:') refuseForeignSqlite(db, options.path);
    // SQLite's default 4 KiB pages, on purpose: bigger pages spool large resources faster but make
    // every small commit (ledger, audit) write more WAL bytes; measured in docs/store.md.
    if (options.path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    db.pragma('foreign_keys = ON');
    // Resources stream through in chunks and are rarely re-read: a 2 MB page cache (not the 16 MB
    // default) keeps a 100 MB spool within the streaming memory budget.
    db.pragma('cache_size = -2000');
    migrateSqlite(db, options.path);
    removeAbandonedResources(db, staleWriterMs);
  } catch (cause) {
    db.close();
    throw asStoreError(cause, `opening SQLite database ${options.path}`);
  }
  return guardStore(sqliteStore(db, options.chunkBytes, options.synchronous !== 'NORMAL' && options.path !== ':memory:'));
}

/** The parameters of the ledger update statement for `patch`. */
function updateArgs(key: string, patch: LedgerPatch): SqlValue[] {
  const envelope = patch.envelope === undefined ? null : encodeJson(patch.envelope, '/envelope');
  const release = patch.lease === null ? 1 : 0;
  return [patch.state ?? null, patch.attempts ?? null, envelope, patch.now, release, release, key];
}

function sqliteStore(db: SqlDatabase, chunkBytes: number | undefined, fullSync: boolean): Store {
  let closed = false;
  // Uncommitted resources of this connection, removed on close (a live pid would otherwise keep them).
  const openWriters = new Set<string>();
  const open = (): void => {
    if (closed) throw storeError(STORE_ERROR_CODES.closed, 'store is closed');
  };
  const q = {
    insertResource: db.prepare(`INSERT INTO resources (id, principal, tool, mime_type, created_at, expires_at, writer, touched_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    insertChunk: db.prepare('INSERT INTO resource_chunks (resource_id, seq, data) VALUES (?, ?, ?)'),
    touchResource: db.prepare('UPDATE resources SET touched_ms = ? WHERE id = ? AND committed = 0'),
    // RETURNING: the row as committed, even if another process's sweep deletes it the next moment.
    commitResource: db.prepare(`UPDATE resources SET committed = 1, bytes = ?, sha256 = ?, chunks = ? WHERE id = ? AND committed = 0 RETURNING *`),
    discardResource: db.prepare('DELETE FROM resources WHERE id = ? AND committed = 0'),
    getResource: db.prepare('SELECT * FROM resources WHERE id = ? AND committed = 1'),
    getChunk: db.prepare('SELECT data FROM resource_chunks WHERE resource_id = ? AND seq = ?').pluck(),
    chunkLengths: db.prepare('SELECT length(data) FROM resource_chunks WHERE resource_id = ? ORDER BY seq').pluck(),
    insertHandle: db.prepare('INSERT INTO handles (id, record, expires_ms) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING'),
    getHandle: db.prepare('SELECT record FROM handles WHERE id = ?').pluck(),
    beginLedger: db.prepare(`INSERT INTO ledger (key, tool, principal, args_digest, state, attempts, call_id, created_at, updated_at, envelope, lease_owner, lease_until_ms)
      VALUES (?, ?, ?, ?, 'in_flight', 0, ?, ?, ?, 'null', ?, ?) ON CONFLICT (key) DO NOTHING RETURNING *`),
    getLedger: db.prepare('SELECT * FROM ledger WHERE key = ?'),
    updateLedger: db.prepare(`UPDATE ledger SET state = COALESCE(?, state), attempts = COALESCE(?, attempts),
      envelope = COALESCE(?, envelope), updated_at = ?, lease_owner = CASE WHEN ? THEN NULL ELSE lease_owner END,
      lease_until_ms = CASE WHEN ? THEN NULL ELSE lease_until_ms END WHERE key = ? RETURNING *`),
    claimLedger: db.prepare(`UPDATE ledger SET lease_owner = ?, lease_until_ms = ?, updated_at = ?, state = COALESCE(?, state),
      attempts = COALESCE(?, attempts) WHERE key = ? AND state IN (SELECT value FROM json_each(?))
      AND (lease_owner IS NULL OR lease_owner = ? OR lease_until_ms < ? OR (? IS NOT NULL AND substr(lease_owner, 1, length(?)) = ?)) RETURNING *`),
    listLedger: db.prepare('SELECT * FROM ledger ORDER BY created_at, key'),
    listLedgerByState: db.prepare('SELECT * FROM ledger WHERE state = ? ORDER BY created_at, key'),
    insertAudit: db.prepare('INSERT INTO audit (call_id, tool, started_ms, started_at, record) VALUES (?, ?, ?, ?, ?) ON CONFLICT (call_id) DO NOTHING'),
    getAudit: db.prepare('SELECT call_id, tool, started_at, record FROM audit WHERE call_id = ?'),
    getState: db.prepare('SELECT * FROM state WHERE key = ?'),
    insertState: db.prepare(`INSERT INTO state (key, version, value, source, updated_at) VALUES (?, 1, ?, ?, ?)
      ON CONFLICT (key) DO NOTHING RETURNING *`),
    updateState: db.prepare(`UPDATE state SET version = version + 1, value = ?, source = ?, updated_at = ?
      WHERE key = ? AND version = ? RETURNING *`),
    lastRunSeq: db.prepare('SELECT MAX(seq) FROM run_events WHERE run_id = ?').pluck(),
    insertRunEvent: db.prepare('INSERT INTO run_events (run_id, seq, event, at) VALUES (?, ?, ?, ?)'),
    listRunEvents: db.prepare('SELECT seq, event, at FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq'),
  };
  const appendRunEvents = db.transaction((runId: string, afterSeq: number, events: readonly string[], now: string) => {
    if (((q.lastRunSeq.get(runId) as number | null) ?? 0) !== afterSeq) return { conflict: true as const };
    events.forEach((e, i) => q.insertRunEvent.run(runId, afterSeq + i + 1, e, now));
    return { lastSeq: afterSeq + events.length };
  });
  const writeChunkTx = db.transaction((id: string, seq: number, data: Buffer) => {
    q.insertChunk.run(id, seq, data);
    q.touchResource.run(Date.now(), id);
  });
  const insertAuditBatch = db.transaction((rows: readonly (readonly [string, string, number, string, string])[]) => {
    const skipped: string[] = [];
    for (const row of rows) if (q.insertAudit.run(...row).changes === 0) skipped.push(row[0]);
    return skipped;
  });
  // One commit for a write's audit record and its ledger settle; a refused record settles nothing.
  const auditAndSettle = db.transaction((audit: readonly [string, string, number, string, string], update: readonly SqlValue[]) => {
    if (q.insertAudit.run(...audit).changes === 0) {
      throw storeError(STORE_ERROR_CODES.auditExists, `audit record for call ${audit[0]} already exists`, { callId: audit[0] });
    }
    return q.updateLedger.get(...update) as LedgerRow | undefined;
  });
  // Expiry of resources is the writer's ISO text: compared as instants in JS, not as strings.
  const sweep = db.transaction((nowMs: number) => {
    const handles = db.prepare('DELETE FROM handles WHERE expires_ms < ?').run(nowMs).changes;
    const expiring = db.prepare('SELECT id, expires_at FROM resources WHERE committed = 1 AND expires_at IS NOT NULL').all() as { id: string; expires_at: string }[];
    const remove = db.prepare('DELETE FROM resources WHERE id = ?');
    let resources = 0;
    for (const r of expiring) if (Date.parse(r.expires_at) < nowMs) resources += remove.run(r.id).changes;
    return { handles, resources };
  });
  const ledgerBegin = db.transaction((i: { key: string; tool: string; principal: string; argsDigest: string; callId: string; now: string; lease?: LedgerLease }) => {
    const inserted = q.beginLedger.get(i.key, i.tool, i.principal, i.argsDigest, i.callId, i.now, i.now, i.lease?.owner ?? null, leaseMs(i.lease)) as LedgerRow | undefined;
    if (inserted !== undefined) return { created: true as const, entry: toEntry(inserted) };
    return { created: false as const, entry: toEntry(q.getLedger.get(i.key) as LedgerRow) };
  });
  const putState = db.transaction((key: string, base: number | null, value: string, source: string, now: string) => {
    const row = (base === null ? q.insertState.get(key, value, source, now) : q.updateState.get(value, source, now, key, base)) as StateRow | undefined;
    if (row !== undefined) return toState(row);
    const current = q.getState.get(key) as StateRow | undefined;
    return { conflict: current === undefined ? null : toState(current) };
  });

  return {
    async createResource(input) {
      open();
      // An expiry that is no instant could never be swept: the result would be kept for good.
      if (input.expiresAt !== null) timestampMs(input.expiresAt, '/expiresAt');
      const id = randomId();
      const writer = currentWriter();
      q.insertResource.run(id, input.principal, input.tool, input.mimeType, new Date().toISOString(), input.expiresAt, writer, Date.now());
      openWriters.add(id);
      return createChunkedWriter(id, {
        writeChunk(seq, data) {
          open();
          // Each chunk commits on its own: a write transaction held across awaits would lock out other processes.
          // Chunks need no fsync of their own: in WAL mode the FULL commit() syncs every earlier frame too.
          if (fullSync) db.pragma('synchronous = NORMAL');
          try {
            writeChunkTx.immediate(id, seq, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
          } finally {
            if (fullSync) db.pragma('synchronous = FULL');
          }
        },
        commit(totals) {
          open();
          const row = q.commitResource.get(totals.bytes, totals.sha256, totals.chunks, id) as ResourceRow | undefined;
          openWriters.delete(id);
          if (row === undefined) throw storeError(STORE_ERROR_CODES.backend, `resource ${id} vanished before commit (removed as abandoned?)`, { id });
          return toMeta(row);
        },
        discard() {
          openWriters.delete(id);
          if (!closed) q.discardResource.run(id);
        },
      }, chunkBytes);
    },

    async getResourceMeta(id) {
      open();
      const row = q.getResource.get(id) as ResourceRow | undefined;
      return row === undefined ? null : toMeta(row);
    },

    async *readResource(id, from) {
      open();
      const row = q.getResource.get(id) as ResourceRow | undefined;
      if (row === undefined) throw storeError(STORE_ERROR_CODES.resourceNotFound, `no committed resource ${id}`, { id });
      // length() of a blob reads its size from the record header, not the blob itself.
      const byte = startByte(from);
      const start = byte === 0 ? { seq: 0, skip: 0 } : chunkStart(q.chunkLengths.all(id) as number[], byte);
      // One query per chunk: an open better-sqlite3 iterator would block the connection between yields.
      for (let seq = start.seq; seq < row.chunks; seq += 1) {
        open();
        const data = q.getChunk.get(id, seq) as Buffer | undefined;
        if (data === undefined) throw storeError(STORE_ERROR_CODES.backend, `resource ${id} is missing chunk ${seq}`, { id, seq });
        yield seq === start.seq && start.skip > 0 ? data.subarray(start.skip) : data;
      }
    },

    async putHandle(handle) {
      open();
      const expiresMs = timestampMs(handle.expiresAt, '/expiresAt');
      if (q.insertHandle.run(handle.id, encodeJson(handle, '/'), expiresMs).changes === 0) {
        throw storeError(STORE_ERROR_CODES.handleExists, 'handle id already exists');
      }
    },

    async getHandle(id) {
      open();
      const text = q.getHandle.get(id) as string | undefined;
      return text === undefined ? null : (decodeJson(text) as HandleRecord);
    },

    async sweepExpired(now) {
      open();
      return sweep(timestampMs(now, '/now'));
    },

    async ledgerBegin(input) {
      open();
      return ledgerBegin.immediate(input);
    },

    async ledgerUpdate(key, patch) {
      open();
      const row = q.updateLedger.get(...updateArgs(key, patch)) as LedgerRow | undefined;
      return row === undefined ? null : toEntry(row);
    },

    async appendAuditAndSettle(record, encoded, key, patch) {
      open();
      const audit = [record.callId, record.tool, timestampMs(record.startedAt, '/startedAt'), record.startedAt, encodeAuditRecord(record, encoded)] as const;
      const row = auditAndSettle.immediate(audit, updateArgs(key, patch));
      return row === undefined ? null : toEntry(row);
    },

    async ledgerClaim(key, claim) {
      open();
      const row = q.claimLedger.get(claim.lease.owner, leaseMs(claim.lease), claim.now, claim.state ?? null, claim.attempts ?? null, key,
        JSON.stringify(claim.from), claim.lease.owner, timestampMs(claim.now, '/now'), claim.over ?? null, claim.over ?? null, claim.over ?? null) as LedgerRow | undefined;
      return row === undefined ? null : toEntry(row);
    },

    async ledgerGet(key) {
      open();
      const row = q.getLedger.get(key) as LedgerRow | undefined;
      return row === undefined ? null : toEntry(row);
    },

    async ledgerList(filter: { state?: LedgerState } = {}) {
      open();
      const rows = (filter.state === undefined ? q.listLedger.all() : q.listLedgerByState.all(filter.state)) as LedgerRow[];
      return rows.map(toEntry);
    },

    async appendAudit(record, encoded) {
      open();
      const startedMs = timestampMs(record.startedAt, '/startedAt');
      if (q.insertAudit.run(record.callId, record.tool, startedMs, record.startedAt, encodeAuditRecord(record, encoded)).changes === 0) {
        throw storeError(STORE_ERROR_CODES.auditExists, `audit record for call ${record.callId} already exists`, { callId: record.callId });
      }
    },

    async appendAuditBatch(records, encodings) {
      open();
      const rows = records.map((r, i) => [r.callId, r.tool, timestampMs(r.startedAt, `/${i}/startedAt`), r.startedAt, encodeAuditRecord(r, encodings?.[i], `/${i}`)] as const);
      return insertAuditBatch(rows);
    },

    async getAudit(callId) {
      open();
      const row = q.getAudit.get(callId) as AuditRow | undefined;
      return row === undefined ? null : decodeAuditRow(row);
    },

    async pruneAudit(before, limit) {
      open();
      const beforeMs = timestampMs(before, '/before');
      const max = checkPruneLimit(limit);
      // One statement, one short transaction; the started_ms index finds the oldest.
      const sql = 'DELETE FROM audit WHERE call_id IN (SELECT call_id FROM audit WHERE started_ms < ? ORDER BY started_ms LIMIT ?)';
      return db.prepare(sql).run(beforeMs, max).changes;
    },

    async listAudit(filter: AuditFilter = {}) {
      open();
      const limit = checkLimit(filter.limit);
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (filter.tool !== undefined) {
        where.push('tool = ?');
        params.push(filter.tool);
      }
      if (filter.since !== undefined) {
        where.push('started_ms >= ?');
        params.push(timestampMs(filter.since, '/since'));
      }
      if (filter.until !== undefined) {
        where.push('started_ms < ?');
        params.push(timestampMs(filter.until, '/until'));
      }
      const dir = filter.newest === true ? ' DESC' : '';
      let sql = `SELECT call_id, tool, started_at, record FROM audit${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY started_ms${dir}, started_at${dir}, call_id${dir}`;
      if (limit !== undefined) {
        sql += ' LIMIT ?';
        params.push(limit);
      }
      const rows = db.prepare(sql).all(...params) as AuditRow[];
      return rows.map(decodeAuditRow);
    },

    async getState(key) {
      open();
      const row = q.getState.get(key) as StateRow | undefined;
      return row === undefined ? null : toState(row);
    },

    async putState(input) {
      open();
      const value = encodeJson(input.value, '/value');
      const source = encodeJson(input.source, '/source');
      return putState.immediate(input.key, input.baseVersion, value, source, input.now);
    },

    async appendRunEvents(input) {
      open();
      const events = input.events.map((e, i) => encodeJson(e, `/events/${i}`));
      return appendRunEvents.immediate(input.runId, input.afterSeq, events, input.now);
    },

    async listRunEvents(runId, afterSeq = 0) {
      open();
      const rows = q.listRunEvents.all(runId, afterSeq) as { seq: number; event: string; at: string }[];
      return rows.map((r) => ({ seq: r.seq, event: decodeJson(r.event), at: r.at }));
    },

    async close() {
      if (closed) return;
      closed = true;
      // Best effort: with another process holding the write lock past the busy timeout, the rows
      // stay, and the next open removes them once this process is gone. The connection is closed
      // either way (a failed delete used to leave it open for good, and close() then did nothing).
      try {
        for (const id of openWriters) q.discardResource.run(id);
      } catch {
        // Left to the next open's cleanup of abandoned resources.
      } finally {
        openWriters.clear();
        db.close();
      }
    },
  };
}

import type { AuditFilter, HandleRecord, LedgerState, StateEntry, Store } from '../types.js';
import { randomId } from '../../contract/random-id.js';
import { asStoreError, guardStore } from '../backend-guard.js';
import { decodeAuditRow, type AuditRow } from '../audit-row.js';
import { createChunkedWriter } from '../chunked-writer.js';
import { STORE_ERROR_CODES, storeError } from '../errors.js';
import { decodeJson, encodeAuditRecord, encodeJson } from '../json-column.js';
import { chunkStart, startByte } from '../chunk-start.js';
import { checkLimit, checkPruneLimit, timestampMs } from '../timestamps.js';
import { leaseMs, toEntry, toMeta, toState, type LedgerRow, type ResourceRow, type StateRow } from '../sql-rows.js';
import { migratePostgres } from './migrations.js';
import { loadPg, type PgPool } from './pg-driver.js';
import { LEDGER_SET, updateParams } from './ledger-patch.js';
import { insertAuditRows, type AuditInsertRow } from './audit-batch.js';
import { postgresOptionProblem, refuseOptions } from '../store-options.js';

/** Options of {@link openPostgresStore}: give a connection string, or your own pool. */
export type PostgresStoreOptions = (
  | {
    readonly connectionString: string; readonly pool?: undefined; readonly max?: number;
    /** How long a query may wait for its answer before it fails (default 60,000 ms); a pool you pass sets its own. */
    readonly queryTimeoutMs?: number;
  }
  | { readonly pool: PgPool; readonly connectionString?: undefined }
) & {
  /** Schema holding the store's tables, created if missing (default `trc`). */
  readonly schema?: string;
  /** Size of stored chunks in bytes (default 1 MiB). */
  readonly chunkBytes?: number;
};

/**
 * Open (creating and migrating if needed) a PostgreSQL {@link Store} with `pg` (an optional
 * peer: without it, `STORE_DRIVER_MISSING` names the package to install). A pool you pass
 * stays yours (`close()` does not end it); one made from `connectionString` is ended on close.
 *
 * @example
 * import { openPostgresStore } from 'tool-result-contract/store/postgres';
 * const store = await openPostgresStore({ connectionString: process.env.DATABASE_URL ?? '', schema: 'trc' });
 * await store.close();
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  refuseOptions('openPostgresStore', postgresOptionProblem(options as unknown as Record<string, unknown>));
  const schema = options.schema ?? 'trc';
  let pool: PgPool;
  let ownsPool: boolean;
  if (options.pool !== undefined) {
    pool = options.pool;
    ownsPool = false;
  } else if (typeof options.connectionString === 'string' && options.connectionString !== '') {
    // Bounded waits, for a connection (writers pin connections) and for an answer (a server that
    // froze, or a network that drops packets without a reset, would hang every call forever).
    const pg = await loadPg();
    const queryTimeout = options.queryTimeoutMs ?? 60_000;
    pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10, connectionTimeoutMillis: 30_000, query_timeout: queryTimeout });
    ownsPool = true;
  } else {
    throw storeError(STORE_ERROR_CODES.badOptions, 'openPostgresStore needs `connectionString` or `pool`', { pointer: '/connectionString' });
  }
  // An idle client's network error must not crash the process; queries report their own errors.
  if (ownsPool) pool.on('error', () => undefined);
  const quoted = `"${schema}"`;
  try {
    const client = await pool.connect();
    try {
      await migratePostgres(client, schema, quoted);
    } finally {
      client.release();
    }
  } catch (error) {
    if (ownsPool) await pool.end().catch(() => undefined);
    throw asStoreError(error, `opening PostgreSQL store (schema ${schema})`);
  }
  return guardStore(postgresStore(pool, ownsPool, quoted, options.chunkBytes));
}

function postgresStore(pool: PgPool, ownsPool: boolean, s: string, chunkBytes: number | undefined): Store {
  let closed = false;
  // Writers hold a pooled connection; close() rolls them back so pool.end() cannot wait forever.
  const openWriters = new Set<() => Promise<void>>();
  const open = (): void => {
    if (closed) throw storeError(STORE_ERROR_CODES.closed, 'store is closed');
  };
  const query = async <R,>(sql: string, params: unknown[] = []): Promise<R[]> => {
    open();
    return (await pool.query<R>(sql, params)).rows;
  };
  const sweepLock = `trc-sweep:${s}`;
  const getState = async (key: string): Promise<StateEntry | null> => {
    const rows = await query<StateRow>(`SELECT * FROM ${s}.state WHERE key = $1`, [key]);
    return rows[0] === undefined ? null : toState(rows[0]);
  };

  return {
    async createResource(input) {
      open();
      // An expiry that is no instant could never be swept: the result would be kept for good.
      if (input.expiresAt !== null) timestampMs(input.expiresAt, '/expiresAt');
      const id = randomId();
      // The writer owns one connection and one transaction: chunks are invisible until COMMIT,
      // and a crash (or a dropped connection) rolls everything back without any cleanup pass.
      const client = await pool.connect();
      // A checked-out client has no pool error listener: without ours, a connection dropped
      // between writes would be an uncaught exception. The next query reports the failure.
      const onClientError = (): void => undefined;
      client.on('error', onClientError);
      let released = false;
      const release = (error?: Error): void => {
        if (released) return;
        released = true;
        openWriters.delete(rollback);
        client.off('error', onClientError);
        client.release(error);
      };
      const rollback = async (): Promise<void> => {
        if (released) return;
        try {
          await client.query('ROLLBACK');
          release();
        } catch (error) {
          // A connection that cannot roll back is destroyed; the server discards the transaction.
          release(error instanceof Error ? error : new Error(String(error)));
        }
      };
      openWriters.add(rollback);
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO ${s}.resources (id, principal, tool, mime_type, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
          [id, input.principal, input.tool, input.mimeType, new Date().toISOString(), input.expiresAt],
        );
      } catch (error) {
        await rollback();
        throw error;
      }
      return createChunkedWriter(id, {
        async writeChunk(seq, data) {
          open();
          await client.query(`INSERT INTO ${s}.resource_chunks (resource_id, seq, data) VALUES ($1, $2, $3)`, [id, seq, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
        },
        async commit(totals) {
          open();
          const { rows } = await client.query<ResourceRow>(
            `UPDATE ${s}.resources SET bytes = $1, sha256 = $2, chunks = $3 WHERE id = $4 RETURNING *`,
            [totals.bytes, totals.sha256, totals.chunks, id],
          );
          await client.query('COMMIT');
          release();
          const row = rows[0];
          if (row === undefined) throw storeError(STORE_ERROR_CODES.backend, `resource ${id} vanished before commit`, { id });
          return toMeta(row);
        },
        discard: rollback,
      }, chunkBytes);
    },

    async getResourceMeta(id) {
      const rows = await query<ResourceRow>(`SELECT * FROM ${s}.resources WHERE id = $1`, [id]);
      return rows[0] === undefined ? null : toMeta(rows[0]);
    },

    async *readResource(id, from) {
      const rows = await query<ResourceRow>(`SELECT * FROM ${s}.resources WHERE id = $1`, [id]);
      const row = rows[0];
      if (row === undefined) throw storeError(STORE_ERROR_CODES.resourceNotFound, `no committed resource ${id}`, { id });
      // octet_length() of a TOASTed bytea reads its stored size, not the value.
      const byte = startByte(from);
      const start = byte === 0 ? { seq: 0, skip: 0 }
        : chunkStart((await query<{ n: number }>(`SELECT octet_length(data) AS n FROM ${s}.resource_chunks WHERE resource_id = $1 ORDER BY seq`, [id])).map((r) => Number(r.n)), byte);
      for (let seq = start.seq; seq < row.chunks; seq += 1) {
        const chunk = await query<{ data: Buffer }>(`SELECT data FROM ${s}.resource_chunks WHERE resource_id = $1 AND seq = $2`, [id, seq]);
        const data = chunk[0]?.data;
        if (data === undefined) throw storeError(STORE_ERROR_CODES.backend, `resource ${id} is missing chunk ${seq}`, { id, seq });
        yield seq === start.seq && start.skip > 0 ? data.subarray(start.skip) : data;
      }
    },

    async putHandle(handle) {
      const expiresMs = timestampMs(handle.expiresAt, '/expiresAt');
      const rows = await query(`INSERT INTO ${s}.handles (id, record, expires_ms) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [handle.id, encodeJson(handle, '/'), expiresMs]);
      if (rows.length === 0) throw storeError(STORE_ERROR_CODES.handleExists, 'handle id already exists');
    },

    async getHandle(id) {
      const rows = await query<{ record: string }>(`SELECT record FROM ${s}.handles WHERE id = $1`, [id]);
      return rows[0] === undefined ? null : (decodeJson(rows[0].record) as HandleRecord);
    },

    async sweepExpired(now) {
      const nowMs = timestampMs(now, '/now');
      open();
      // Many gateways share one database: the sweep runs once at a time, under a session
      // advisory lock; an instance that finds it taken skips this round (the holder sweeps).
      const client = await pool.connect();
      const onClientError = (): void => undefined;
      client.on('error', onClientError);
      let failure: Error | undefined;
      try {
        const lock = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [sweepLock]);
        if (lock.rows[0]?.got !== true) return { handles: 0, resources: 0, skipped: true };
        try {
          const handles = await client.query<{ id: string }>(`DELETE FROM ${s}.handles WHERE expires_ms < $1 RETURNING id`, [nowMs]);
          // Expiry of resources is the writer's ISO text: compared as instants in JS, not as strings.
          const expiring = await client.query<{ id: string; expires_at: string }>(`SELECT id, expires_at FROM ${s}.resources WHERE expires_at IS NOT NULL`);
          const gone = expiring.rows.filter((r) => Date.parse(r.expires_at) < nowMs).map((r) => r.id);
          const removed = gone.length === 0 ? 0 : (await client.query(`DELETE FROM ${s}.resources WHERE id = ANY($1::text[]) RETURNING id`, [gone])).rows.length;
          return { handles: handles.rows.length, resources: removed };
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [sweepLock]);
        }
      } catch (error) {
        // A connection that failed mid-sweep is destroyed, which also drops its advisory lock.
        failure = error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        client.off('error', onClientError);
        client.release(failure);
      }
    },

    async ledgerBegin(input) {
      // ON CONFLICT DO NOTHING waits for a concurrent inserter of the same key, so exactly one wins.
      const inserted = await query<LedgerRow>(
        `INSERT INTO ${s}.ledger (key, tool, principal, args_digest, state, attempts, call_id, created_at, updated_at, envelope, lease_owner, lease_until_ms)
         VALUES ($1, $2, $3, $4, 'in_flight', 0, $5, $6, $6, 'null', $7, $8) ON CONFLICT (key) DO NOTHING RETURNING *`,
        [input.key, input.tool, input.principal, input.argsDigest, input.callId, input.now, input.lease?.owner ?? null, leaseMs(input.lease)],
      );
      if (inserted[0] !== undefined) return { created: true, entry: toEntry(inserted[0]) };
      const existing = await query<LedgerRow>(`SELECT * FROM ${s}.ledger WHERE key = $1`, [input.key]);
      if (existing[0] === undefined) throw storeError(STORE_ERROR_CODES.backend, `ledger key ${input.key} conflicted but cannot be read`, { key: input.key });
      return { created: false, entry: toEntry(existing[0]) };
    },

    async ledgerUpdate(key, patch) {
      const rows = await query<LedgerRow>(`UPDATE ${s}.ledger SET ${LEDGER_SET} WHERE key = $5 RETURNING *`, updateParams(key, patch));
      return rows[0] === undefined ? null : toEntry(rows[0]);
    },

    async appendAuditAndSettle(record, encoded, key, patch) {
      // One statement, one round trip: the update runs only when the insert did (a statement is
      // atomic by itself, so a refused record settles nothing).
      const startedMs = timestampMs(record.startedAt, '/startedAt');
      const rows = await query<LedgerRow & { inserted: boolean }>(
        `WITH a AS (INSERT INTO ${s}.audit (call_id, tool, started_ms, started_at, record) VALUES ($7, $8, $9, $10, $11) ON CONFLICT (call_id) DO NOTHING RETURNING call_id),
              u AS (UPDATE ${s}.ledger SET ${LEDGER_SET} WHERE key = $5 AND EXISTS (SELECT 1 FROM a) RETURNING *)
         SELECT EXISTS (SELECT 1 FROM a) AS inserted, u.* FROM (SELECT 1) AS one LEFT JOIN u ON true`,
        [...updateParams(key, patch), record.callId, record.tool, startedMs, record.startedAt, encodeAuditRecord(record, encoded)],
      );
      const row = rows[0];
      if (row === undefined || !row.inserted) throw storeError(STORE_ERROR_CODES.auditExists, `audit record for call ${record.callId} already exists`, { callId: record.callId });
      if (row.key === null) return null;
      const { inserted: _inserted, ...entry } = row;
      return toEntry(entry);
    },

    async ledgerClaim(key, claim) {
      // One statement: a concurrent claimant waits on the row lock, then re-checks the lease it
      // now sees (READ COMMITTED re-evaluates the WHERE clause), so exactly one wins.
      const rows = await query<LedgerRow>(
        `UPDATE ${s}.ledger SET lease_owner = $1, lease_until_ms = $2, updated_at = $3, state = COALESCE($4, state), attempts = COALESCE($5, attempts)
         WHERE key = $6 AND state = ANY($7::text[])
           AND (lease_owner IS NULL OR lease_owner = $1 OR lease_until_ms < $8 OR ($9::text IS NOT NULL AND left(lease_owner, length($9)) = $9)) RETURNING *`,
        [claim.lease.owner, leaseMs(claim.lease), claim.now, claim.state ?? null, claim.attempts ?? null, key, [...claim.from], timestampMs(claim.now, '/now'), claim.over ?? null],
      );
      return rows[0] === undefined ? null : toEntry(rows[0]);
    },

    async ledgerGet(key) {
      const rows = await query<LedgerRow>(`SELECT * FROM ${s}.ledger WHERE key = $1`, [key]);
      return rows[0] === undefined ? null : toEntry(rows[0]);
    },

    async ledgerList(filter: { state?: LedgerState } = {}) {
      const order = 'ORDER BY created_at COLLATE "C", key COLLATE "C"';
      const rows = filter.state === undefined
        ? await query<LedgerRow>(`SELECT * FROM ${s}.ledger ${order}`)
        : await query<LedgerRow>(`SELECT * FROM ${s}.ledger WHERE state = $1 ${order}`, [filter.state]);
      return rows.map(toEntry);
    },

    async appendAudit(record, encoded) {
      const startedMs = timestampMs(record.startedAt, '/startedAt');
      const rows = await query(
        `INSERT INTO ${s}.audit (call_id, tool, started_ms, started_at, record) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (call_id) DO NOTHING RETURNING call_id`,
        [record.callId, record.tool, startedMs, record.startedAt, encodeAuditRecord(record, encoded)],
      );
      if (rows.length === 0) throw storeError(STORE_ERROR_CODES.auditExists, `audit record for call ${record.callId} already exists`, { callId: record.callId });
    },

    async appendAuditBatch(records, encodings) {
      const rows = records.map((r, i): AuditInsertRow => [r.callId, r.tool, timestampMs(r.startedAt, `/${i}/startedAt`), r.startedAt, encodeAuditRecord(r, encodings?.[i], `/${i}`)]);
      open();
      return insertAuditRows(pool, s, rows);
    },

    async getAudit(callId) {
      const rows = await query<AuditRow>(`SELECT call_id, tool, started_at, record FROM ${s}.audit WHERE call_id = $1`, [callId]);
      return rows[0] === undefined ? null : decodeAuditRow(rows[0]);
    },

    async pruneAudit(before, limit) {
      const args = [timestampMs(before, '/before'), checkPruneLimit(limit)];
      const oldest = `SELECT call_id FROM ${s}.audit WHERE started_ms < $1 ORDER BY started_ms LIMIT $2`;
      return (await query(`DELETE FROM ${s}.audit WHERE call_id IN (${oldest}) RETURNING call_id`, args)).length;
    },

    async listAudit(filter: AuditFilter = {}) {
      const limit = checkLimit(filter.limit);
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.tool !== undefined) {
        params.push(filter.tool);
        where.push(`tool = $${params.length}`);
      }
      if (filter.since !== undefined) {
        params.push(timestampMs(filter.since, '/since'));
        where.push(`started_ms >= $${params.length}`);
      }
      if (filter.until !== undefined) {
        params.push(timestampMs(filter.until, '/until'));
        where.push(`started_ms < $${params.length}`);
      }
      const dir = filter.newest === true ? ' DESC' : '';
      let sql = `SELECT call_id, tool, started_at, record FROM ${s}.audit${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
        ORDER BY started_ms${dir}, started_at COLLATE "C"${dir}, call_id COLLATE "C"${dir}`;
      if (limit !== undefined) {
        params.push(limit);
        sql += ` LIMIT $${params.length}`;
      }
      const rows = await query<AuditRow>(sql, params);
      return rows.map(decodeAuditRow);
    },

    getState,

    async putState(input) {
      const value = encodeJson(input.value, '/value');
      const source = encodeJson(input.source, '/source');
      // One statement decides: the version check and the write cannot be separated by another writer.
      const rows = input.baseVersion === null
        ? await query<StateRow>(`INSERT INTO ${s}.state (key, version, value, source, updated_at) VALUES ($1, 1, $2, $3, $4)
            ON CONFLICT (key) DO NOTHING RETURNING *`, [input.key, value, source, input.now])
        : await query<StateRow>(`UPDATE ${s}.state SET version = version + 1, value = $2, source = $3, updated_at = $4
            WHERE key = $1 AND version = $5 RETURNING *`, [input.key, value, source, input.now, input.baseVersion]);
      if (rows[0] !== undefined) return toState(rows[0]);
      return { conflict: await getState(input.key) };
    },

    async appendRunEvents(input) {
      const events = input.events.map((e, i) => encodeJson(e, `/events/${i}`));
      if (events.length === 0) {
        const rows = await query<{ n: number | null }>(`SELECT MAX(seq) AS n FROM ${s}.run_events WHERE run_id = $1`, [input.runId]);
        return (rows[0]?.n ?? 0) === input.afterSeq ? { lastSeq: input.afterSeq } : { conflict: true as const };
      }
      // One statement: entry afterSeq + 1 exists already exactly when another writer got there
      // first, and the primary key then refuses every row of it.
      const values = events.map((_, i) => `($1, $${i * 2 + 3}, $${i * 2 + 4}, $2)`).join(', ');
      const params: unknown[] = [input.runId, input.now];
      events.forEach((e, i) => params.push(input.afterSeq + i + 1, e));
      try {
        if (input.afterSeq > 0) {
          const rows = await query<{ n: number }>(`SELECT 1 AS n FROM ${s}.run_events WHERE run_id = $1 AND seq = $2`, [input.runId, input.afterSeq]);
          if (rows.length === 0) return { conflict: true as const };
        }
        await query(`INSERT INTO ${s}.run_events (run_id, seq, event, at) VALUES ${values}`, params);
      } catch (error) {
        if ((error as { code?: string }).code === '23505') return { conflict: true as const };
        throw error;
      }
      return { lastSeq: input.afterSeq + events.length };
    },

    async listRunEvents(runId, afterSeq = 0) {
      const rows = await query<{ seq: number; event: string; at: string }>(`SELECT seq, event, at FROM ${s}.run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq`, [runId, afterSeq]);
      return rows.map((r) => ({ seq: Number(r.seq), event: decodeJson(r.event), at: r.at }));
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...openWriters].map((rollback) => rollback()));
      if (ownsPool) await pool.end();
    },
  };
}

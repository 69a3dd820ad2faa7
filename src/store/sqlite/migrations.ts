import type { SqlDatabase } from './driver.js';
import { STORE_ERROR_CODES, storeError } from '../errors.js';
import { refuseForeignSchema, type SchemaTables } from '../schema-owner.js';

/**
 * Versioned schema of the SQLite store. Append new migrations; never edit a released one.
 * Timestamps are kept as the caller's ISO text plus, where we order or filter, epoch ms.
 */
export const SQLITE_MIGRATIONS: readonly { readonly version: number; readonly sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE resources (
        id TEXT PRIMARY KEY,
        principal TEXT NOT NULL,
        tool TEXT NOT NULL,
        mime_type TEXT NOT NULL,
        bytes INTEGER NOT NULL DEFAULT 0,
        sha256 TEXT,
        chunks INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        committed INTEGER NOT NULL DEFAULT 0,
        writer TEXT NOT NULL,
        touched_ms INTEGER NOT NULL
      );
      CREATE INDEX resources_uncommitted ON resources (committed) WHERE committed = 0;
      CREATE TABLE resource_chunks (
        resource_id TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (resource_id, seq)
      ) WITHOUT ROWID;
      CREATE TABLE handles (
        id TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        expires_ms INTEGER NOT NULL
      );
      CREATE TABLE ledger (
        key TEXT PRIMARY KEY,
        tool TEXT NOT NULL,
        principal TEXT NOT NULL,
        args_digest TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        call_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        envelope TEXT NOT NULL
      );
      CREATE INDEX ledger_state ON ledger (state, created_at, key);
      CREATE TABLE audit (
        call_id TEXT PRIMARY KEY,
        tool TEXT NOT NULL,
        started_ms INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        record TEXT NOT NULL
      );
      CREATE INDEX audit_started ON audit (started_ms, started_at, call_id);
      CREATE INDEX audit_tool_started ON audit (tool, started_ms);
      CREATE TABLE state (
        key TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        value TEXT NOT NULL,
        source TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    // Chunks of 1 MiB overflow any page: in a WITHOUT ROWID table every such row also drags its
    // key through the overflow chain, and a 100 MB spool took ~45 % longer than in a rowid table.
    version: 2,
    sql: `
      CREATE TABLE resource_chunks_v2 (
        resource_id TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (resource_id, seq)
      );
      INSERT INTO resource_chunks_v2 (resource_id, seq, data) SELECT resource_id, seq, data FROM resource_chunks;
      DROP TABLE resource_chunks;
      ALTER TABLE resource_chunks_v2 RENAME TO resource_chunks;
    `,
  },
  {
    // Leases (issue 17): which process runs an in-flight write, until when.
    version: 3,
    sql: `
      ALTER TABLE ledger ADD COLUMN lease_owner TEXT;
      ALTER TABLE ledger ADD COLUMN lease_until_ms INTEGER;
    `,
  },
  {
    // The event log of runs (taint, scope, confirmations), so they outlive a restart.
    version: 4,
    sql: `
      CREATE TABLE run_events (
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
    `,
  },
];

/** The tables of each schema version (for telling the store's file from another program's). */
const SQLITE_TABLES: readonly SchemaTables[] = [
  { version: 1, tables: ['resources', 'resource_chunks', 'handles', 'ledger', 'audit', 'state'] },
  { version: 4, tables: ['run_events'] },
];

/** The schema version this code writes. */
export const SQLITE_SCHEMA_VERSION = SQLITE_MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/**
 * Throw `STORE_SCHEMA_FOREIGN` when the database holds tables another program made (only reads);
 * else return the schema version recorded in it (0 for a fresh file). The opener calls it before
 * switching the file to WAL, which would already change another program's file.
 */
export function refuseForeignSqlite(db: SqlDatabase, path = 'the database'): number {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").pluck().all() as string[];
  const columns = tables.includes('schema_version') ? db.prepare("SELECT name FROM pragma_table_info('schema_version')").pluck().all() as string[] : null;
  const recorded = columns?.includes('version') === true ? db.prepare('SELECT MAX(version) FROM schema_version').pluck().get() : null;
  const current = typeof recorded === 'number' ? recorded : 0;
  refuseForeignSchema(`SQLite file ${path}`, tables, columns, current, SQLITE_TABLES);
  return current;
}

/**
 * Bring the database to {@link SQLITE_SCHEMA_VERSION} in one IMMEDIATE transaction, so two
 * processes opening a fresh file at once cannot both migrate. Refuses a newer schema, and a file
 * another program made (`STORE_SCHEMA_FOREIGN`, before anything is written to it).
 */
export function migrateSqlite(db: SqlDatabase, path = 'the database'): number {
  const run = db.transaction(() => {
    const current = refuseForeignSqlite(db, path);
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    if (current > SQLITE_SCHEMA_VERSION) {
      throw storeError(STORE_ERROR_CODES.schemaTooNew, `database schema version ${current} is newer than this library supports (${SQLITE_SCHEMA_VERSION})`, { version: current });
    }
    const record = db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)');
    for (const migration of SQLITE_MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, new Date().toISOString());
    }
    return SQLITE_SCHEMA_VERSION;
  });
  return run.immediate();
}

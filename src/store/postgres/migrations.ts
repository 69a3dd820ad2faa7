import type { PgPoolClient } from './pg-driver.js';
import { STORE_ERROR_CODES, storeError } from '../errors.js';
import { refuseForeignSchema, type SchemaTables } from '../schema-owner.js';

/**
 * Versioned schema of the PostgreSQL store, in the store's own schema (`$S` is replaced by the
 * quoted schema name). Append new migrations; never edit a released one. JSON is kept as text
 * so values come back exactly as written (jsonb would reorder keys and reformat numbers).
 * Uncommitted resources need no flag: a writer's chunks live in its own open transaction.
 */
const MIGRATIONS: readonly { readonly version: number; readonly sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE $S.resources (
        id TEXT PRIMARY KEY,
        principal TEXT NOT NULL,
        tool TEXT NOT NULL,
        mime_type TEXT NOT NULL,
        bytes BIGINT NOT NULL DEFAULT 0,
        sha256 TEXT,
        chunks INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        expires_at TEXT
      );
      CREATE TABLE $S.resource_chunks (
        resource_id TEXT NOT NULL REFERENCES $S.resources (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        data BYTEA NOT NULL,
        PRIMARY KEY (resource_id, seq)
      );
      CREATE TABLE $S.handles (
        id TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        expires_ms BIGINT NOT NULL
      );
      CREATE TABLE $S.ledger (
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
      CREATE INDEX ledger_state ON $S.ledger (state);
      CREATE TABLE $S.audit (
        call_id TEXT PRIMARY KEY,
        tool TEXT NOT NULL,
        started_ms BIGINT NOT NULL,
        started_at TEXT NOT NULL,
        record TEXT NOT NULL
      );
      CREATE INDEX audit_started ON $S.audit (started_ms);
      CREATE INDEX audit_tool_started ON $S.audit (tool, started_ms);
      CREATE TABLE $S.state (
        key TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        value TEXT NOT NULL,
        source TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    // Leases (issue 17): which instance runs an in-flight write, until when.
    version: 2,
    sql: `
      ALTER TABLE $S.ledger ADD COLUMN lease_owner TEXT, ADD COLUMN lease_until_ms BIGINT;
    `,
  },
  {
    // The event log of runs (taint, scope, confirmations), so they outlive a restart.
    version: 3,
    sql: `
      CREATE TABLE $S.run_events (
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
    `,
  },
];

/** The tables of each schema version (for telling the store's schema from another program's). */
const POSTGRES_TABLES: readonly SchemaTables[] = [
  { version: 1, tables: ['resources', 'resource_chunks', 'handles', 'ledger', 'audit', 'state'] },
  { version: 3, tables: ['run_events'] },
];

/** The schema version this code writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/**
 * Create the schema if needed and apply pending migrations in one transaction, serialized across
 * processes by an advisory lock on the schema name. Refuses a newer schema.
 */
export async function migratePostgres(client: PgPoolClient, schema: string, quoted: string): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`trc-store:${schema}`]);
    const current = await refuseForeignPostgres(client, schema, quoted);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${quoted}.schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
    if (current > POSTGRES_SCHEMA_VERSION) {
      throw storeError(STORE_ERROR_CODES.schemaTooNew, `schema ${schema} is at version ${current}, newer than this library supports (${POSTGRES_SCHEMA_VERSION})`, { version: current });
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query(migration.sql.replaceAll('$S', quoted));
      await client.query(`INSERT INTO ${quoted}.schema_version (version, applied_at) VALUES ($1, $2)`, [migration.version, new Date().toISOString()]);
    }
    await client.query('COMMIT');
    return POSTGRES_SCHEMA_VERSION;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * The version recorded in `schema` (0 when it is new or empty), after refusing a schema holding
 * tables another program made (`STORE_SCHEMA_FOREIGN`; `schema: 'public'` of an application's
 * database, say) before anything is created in it.
 */
async function refuseForeignPostgres(client: PgPoolClient, schema: string, quoted: string): Promise<number> {
  const tables = (await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`, [schema],
  )).rows.map((r) => r.name);
  const columns = tables.includes('schema_version')
    ? (await client.query<{ name: string }>(`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'schema_version'`, [schema])).rows.map((r) => r.name)
    : null;
  const recorded = columns?.includes('version') === true
    ? (await client.query<{ v: unknown }>(`SELECT MAX(version)::integer AS v FROM ${quoted}.schema_version`)).rows[0]?.v
    : null;
  const current = typeof recorded === 'number' ? recorded : 0;
  refuseForeignSchema(`PostgreSQL schema ${schema}`, tables, columns, current, POSTGRES_TABLES);
  return current;
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { STORE_ERROR_CODES } from '../../src/store/index.js';
import { openPostgresStore, POSTGRES_SCHEMA_VERSION } from '../../src/store/postgres/index.js';
import { startThrowawayPostgres } from '../../scripts/pg-cluster.js';
import { expectCode } from './store-helpers.js';
import { runStoreSuite } from './store-suite.js';

// The URL comes from test/store/pg-global-setup.ts (one cluster for the whole run) or TRC_PG_URL.
// Without either, this file starts its own throwaway cluster: PostgreSQL tests are never skipped.
const provided = inject('trcPgUrl') ?? process.env.TRC_PG_URL;
const ownCluster = provided === undefined || provided === '' ? await startThrowawayPostgres() : null;
const url = ownCluster?.url ?? provided ?? '';
const pgUrl = (): string => url;

const admin = new pg.Pool({ connectionString: pgUrl(), max: 2 });
const schemas = new WeakMap<Store, string>();
const freshSchema = (): string => `trc_test_${randomBytes(6).toString('hex')}`;
const dropSchema = async (schema: string): Promise<void> => {
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
};
afterAll(async () => {
  await admin.end();
  await ownCluster?.stop();
});

runStoreSuite('postgres', {
  async newStore() {
    const schema = freshSchema();
    const store = await openPostgresStore({ connectionString: pgUrl(), schema, max: 25 });
    schemas.set(store, schema);
    return store;
  },
  async cleanup(store) {
    const schema = schemas.get(store);
    if (schema !== undefined) await dropSchema(schema);
  },
  reopen: async (store) => openPostgresStore({ connectionString: pgUrl(), schema: schemas.get(store) ?? '' }),
  propertyRuns: 25,
});

describe('postgres store specifics', () => {
  it('rolls back a writer whose connection dies before commit', async () => {
    const schema = freshSchema();
    const pool = new pg.Pool({ connectionString: pgUrl(), max: 3, application_name: schema });
    pool.on('error', () => undefined);
    try {
      const store = await openPostgresStore({ pool, schema });
      const writer = await store.createResource({ principal: 'p', tool: 't', mimeType: 'text/plain', expiresAt: null });
      await writer.write(randomBytes(3 * 1024 * 1024));
      // Kill the writer's backend as a crash would, then check nothing of it remains.
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND state LIKE 'idle in transaction%'`, [schema]);
      await expectCode(writer.commit(), STORE_ERROR_CODES.backend);
      expect(await store.getResourceMeta(writer.id)).toBeNull();
      const left = await admin.query(`SELECT COUNT(*)::int AS n FROM "${schema}".resource_chunks`);
      expect(left.rows[0]).toEqual({ n: 0 });
      await store.close();
    } finally {
      await pool.end();
      await dropSchema(schema);
    }
  });

  it('leaves a pool it was given open on close', async () => {
    const schema = freshSchema();
    const pool = new pg.Pool({ connectionString: pgUrl(), max: 2 });
    try {
      const store = await openPostgresStore({ pool, schema });
      await store.close();
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
      await dropSchema(schema);
    }
  });

  it('closes promptly while a writer is still open, rolling it back', async () => {
    const schema = freshSchema();
    const store = await openPostgresStore({ connectionString: pgUrl(), schema });
    const writer = await store.createResource({ principal: 'p', tool: 't', mimeType: 'text/plain', expiresAt: null });
    await writer.write(new Uint8Array([1, 2, 3]));
    await store.close();
    const left = await admin.query(`SELECT COUNT(*)::int AS n FROM "${schema}".resources`);
    expect(left.rows[0]).toEqual({ n: 0 });
    await dropSchema(schema);
  });

  it('migrates once when several stores open a new schema at the same time', async () => {
    const schema = freshSchema();
    const stores = await Promise.all(Array.from({ length: 5 }, () => openPostgresStore({ connectionString: pgUrl(), schema, max: 2 })));
    await Promise.all(stores.map((s) => s.close()));
    const versions = await admin.query<{ version: number }>(`SELECT version FROM "${schema}".schema_version ORDER BY version`);
    expect(versions.rows.map((r) => r.version)).toEqual(Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1));
    await dropSchema(schema);
  });

  it('refuses a schema migrated by a newer version', async () => {
    const schema = freshSchema();
    await (await openPostgresStore({ connectionString: pgUrl(), schema })).close();
    await admin.query(`INSERT INTO "${schema}".schema_version (version, applied_at) VALUES ($1, now()::text)`, [POSTGRES_SCHEMA_VERSION + 1]);
    await expectCode(openPostgresStore({ connectionString: pgUrl(), schema }), STORE_ERROR_CODES.schemaTooNew);
    await dropSchema(schema);
  });

  it('refuses a schema holding another program\'s tables with STORE_SCHEMA_FOREIGN and creates nothing in it', async () => {
    const schema = freshSchema();
    await admin.query(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".ledger (id serial PRIMARY KEY, amount numeric); INSERT INTO "${schema}".ledger (amount) VALUES (12.5)`);
    await expectCode(openPostgresStore({ connectionString: pgUrl(), schema }), STORE_ERROR_CODES.schemaForeign);
    const tables = await admin.query<{ t: string }>('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1', [schema]);
    expect(tables.rows.map((r) => r.t)).toEqual(['ledger']);
    await dropSchema(schema);
  });

  it('stores a batch of more than 1,000 audit records all or none: a row PostgreSQL refuses leaves none of them', async () => {
    const schema = freshSchema();
    const store = await openPostgresStore({ connectionString: pgUrl(), schema });
    try {
      const at = '2026-01-01T00:00:00.000Z';
      const record = (callId: string) => ({ callId, tool: 't', principal: 'p', startedAt: at, finishedAt: at, status: 'succeeded' as const, argsDigest: 'sha256:aa', envelopeDigest: null, detail: {} });
      const batch = Array.from({ length: 1001 }, (_, i) => record(`c${i}`));
      // PostgreSQL text cannot hold NUL: the last row fails, in the second statement of the batch.
      batch[1000] = record('bad\u0000id');
      await expectCode(store.appendAuditBatch(batch), STORE_ERROR_CODES.backend);
      expect(await store.listAudit({ limit: 5 })).toEqual([]);
      batch[1000] = record('c1000');
      expect(await store.appendAuditBatch([...batch, record('c0')])).toEqual(['c0']);
      expect(await store.listAudit()).toHaveLength(1001);
    } finally {
      await store.close();
      await dropSchema(schema);
    }
  });

  it('refuses an unsafe schema name, a missing connection and an unreachable server with stable codes', async () => {
    await expectCode(openPostgresStore({ connectionString: pgUrl(), schema: 'x"; DROP TABLE y; --' }), STORE_ERROR_CODES.badOptions);
    await expectCode(openPostgresStore({ connectionString: '' }), STORE_ERROR_CODES.badOptions);
    await expectCode(openPostgresStore({ connectionString: 'postgres://nobody@127.0.0.1:1/none' }), STORE_ERROR_CODES.backend);
  });
});

// Two PostgreSQL stores on one schema, each with its own pool, as two gateway processes have.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { HANDLE_ERROR_CODES, mintHandle, openResource } from '../../src/budget/index.js';
import type { Store } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { collect, expectCode } from './store-helpers.js';

const url = inject('trcPgUrl') ?? process.env.TRC_PG_URL ?? '';
const admin = new pg.Pool({ connectionString: url, max: 2 });
afterAll(async () => {
  await admin.end();
});

async function twoStores(): Promise<{ a: Store; b: Store; schema: string; close: () => Promise<void> }> {
  const schema = `trc_inst_${randomBytes(5).toString('hex')}`;
  const [a, b] = await Promise.all([openPostgresStore({ connectionString: url, schema, max: 3 }), openPostgresStore({ connectionString: url, schema, max: 3 })]);
  return {
    a, b, schema,
    async close() {
      await Promise.all([a.close(), b.close()]);
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('PostgreSQL stores of several instances', () => {
  it('serves a handle minted by one instance to the same principal on another, and refuses others', async () => {
    const { a, b, close } = await twoStores();
    try {
      const writer = await a.createResource({ principal: 'alice', tool: 'search', mimeType: 'application/json', expiresAt: null });
      await writer.write(new TextEncoder().encode('[1,2,3]'));
      const meta = await writer.commit();
      const handle = await mintHandle(a, { kind: 'resource', principal: 'alice', tool: 'search', target: { resourceId: meta.id } });
      const opened = await openResource(b, handle.id, { principal: 'alice' });
      expect(Buffer.from(await collect(opened.chunks)).toString()).toBe('[1,2,3]');
      await expectCode(openResource(b, handle.id, { principal: 'mallory' }), HANDLE_ERROR_CODES.wrongPrincipal);
    } finally {
      await close();
    }
  });

  it('sweeps once at a time: an instance finding the sweep lock taken skips the round', async () => {
    const { a, b, schema, close } = await twoStores();
    const holder = await admin.connect();
    try {
      const past = iso(Date.now() - 60_000);
      for (let i = 0; i < 30; i++) {
        await a.putHandle({ id: `h${i}`, kind: 'resource', principal: 'alice', tool: 't', target: { resourceId: 'r' }, createdAt: past, expiresAt: past });
      }
      // Another process (here: a plain connection) holds the sweep lock of this schema.
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', [`trc-sweep:"${schema}"`]);
      expect(await b.sweepExpired(iso(Date.now()))).toEqual({ handles: 0, resources: 0, skipped: true });
      expect(await b.getHandle('h0')).not.toBeNull();
      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [`trc-sweep:"${schema}"`]);
      const results = await Promise.all([a.sweepExpired(iso(Date.now())), b.sweepExpired(iso(Date.now()))]);
      expect(results.reduce((n, r) => n + r.handles, 0)).toBe(30);
      expect(await a.getHandle('h0')).toBeNull();
    } finally {
      holder.release();
      await close();
    }
  });
});

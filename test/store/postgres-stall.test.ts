import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { STORE_ERROR_CODES } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { startThrowawayPostgres } from '../../scripts/pg-cluster.js';
import { startCuttableProxy } from '../helpers/cuttable-proxy.js';
import { expectCode, ledgerInput } from './store-helpers.js';

// The URL comes from test/store/pg-global-setup.ts or TRC_PG_URL; else a cluster of this file's own.
const provided = inject('trcPgUrl') ?? process.env.TRC_PG_URL;
const ownCluster = provided === undefined || provided === '' ? await startThrowawayPostgres() : null;
const url = new URL(ownCluster?.url ?? provided ?? '');
const admin = new pg.Pool({ connectionString: url.href, max: 1 });
afterAll(async () => {
  await admin.end();
  await ownCluster?.stop();
});

describe('a PostgreSQL server that stops answering', () => {
  it('fails each call with STORE_BACKEND_ERROR instead of hanging, and answers again once the server is back', async () => {
    const schema = `trc_test_${randomBytes(6).toString('hex')}`;
    const proxy = await startCuttableProxy(url.hostname, Number(url.port));
    const through = new URL(url.href);
    through.port = String(proxy.port);
    const store = await openPostgresStore({ connectionString: through.href, schema, queryTimeoutMs: 300, chunkBytes: 4 });
    try {
      // The writer pins the pool's one connection, the begin opens a second one and leaves it idle.
      const writer = await store.createResource({ principal: 'p', tool: 't', mimeType: 'text/plain', expiresAt: null });
      await store.ledgerBegin(ledgerInput('before'));
      // Connections stay open, but nothing comes back: without a bound, every call waits forever
      // (the test's own timeout would end it instead of the expected error). Each call here uses
      // a connection opened before the stall (a new one would wait for the connection timeout).
      proxy.stall();
      const [read, write] = await Promise.allSettled([store.ledgerGet('before'), writer.write(Buffer.from('eight by'))]);
      for (const outcome of [read, write]) expect(outcome).toMatchObject({ status: 'rejected', reason: { code: STORE_ERROR_CODES.backend } });
      await expectCode(writer.commit(), STORE_ERROR_CODES.writerClosed);
      await proxy.cut();
      await proxy.restore();
      expect(await store.ledgerGet('before')).toMatchObject({ key: 'before', state: 'in_flight' });
    } finally {
      await store.close();
      await proxy.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});

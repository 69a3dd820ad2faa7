/**
 * The store sweeper a running gateway uses to drop expired handles and stored results.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSweeper } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { connectStdio, eventually, gatewayArgv, SERVERS, tempDir } from './helpers.js';

describe('the store sweeper of a running gateway', () => {
  it('sweeps at once and then on its interval, until stopped; failures are reported, not thrown', async () => {
    const store = createMemoryStore();
    const handle = (id: string, expiresAt: string) => ({ id, kind: 'cursor' as const, principal: 'p', tool: 't', target: { resourceId: 'r' }, createdAt: '2020-01-01T00:00:00Z', expiresAt });
    await store.putHandle(handle('h_old', '2020-01-01T00:00:00Z'));
    const stop = startSweeper(store, () => undefined, 20);
    await eventually(async () => (await store.getHandle('h_old')) === null, 5_000);
    await store.putHandle(handle('h_soon', new Date(Date.now() + 30).toISOString()));
    await eventually(async () => (await store.getHandle('h_soon')) === null, 5_000);
    stop();
    await store.putHandle(handle('h_after_stop', '2020-01-01T00:00:00Z'));
    await new Promise((r) => setTimeout(r, 100));
    expect((await store.getHandle('h_after_stop'))?.id).toBe('h_after_stop');

    const errors: string[] = [];
    const broken = Object.assign(Object.create(store) as typeof store, { sweepExpired: () => Promise.reject(new Error('disk gone')) });
    startSweeper(broken, (e) => errors.push(e.message), 60_000)();
    await eventually(() => errors.length === 1, 5_000);
    expect(errors).toEqual(['disk gone']);
  });

  it('deletes the audit records past the retention with every sweep, and keeps them without one', async () => {
    const store = createMemoryStore();
    const day = 86_400_000;
    const record = (callId: string, ageMs: number) => {
      const at = new Date(Date.now() - ageMs).toISOString();
      return { callId, tool: 't', principal: 'p', startedAt: at, finishedAt: at, status: 'succeeded' as const, argsDigest: 'sha256:aa', envelopeDigest: null, detail: {} };
    };
    await store.appendAudit(record('c_old', 40 * day));
    await store.appendAudit(record('c_new', day));
    startSweeper(store, () => undefined, 60_000)();
    await new Promise((r) => setTimeout(r, 50));
    expect((await store.listAudit()).map((r) => r.callId)).toEqual(['c_old', 'c_new']);
    const errors: string[] = [];
    startSweeper(store, (e) => errors.push(e.message), 60_000, { auditRetentionMs: 30 * day })();
    await eventually(async () => (await store.listAudit()).length === 1, 5_000);
    expect((await store.listAudit()).map((r) => r.callId)).toEqual(['c_new']);
    expect(errors).toEqual([]);
  });

  it('prunes a store by the configured audit_retention_days when trc gateway starts', async () => {
    const dir = tempDir();
    const db = join(dir, 'trc.sqlite');
    const seeded = await openSqliteStore({ path: db });
    const at = (iso: string) => ({ tool: 't', principal: 'p', startedAt: iso, finishedAt: iso, status: 'succeeded' as const, argsDigest: 'sha256:aa', envelopeDigest: null, detail: {} });
    await seeded.appendAudit({ callId: 'c_2020', ...at('2020-01-01T00:00:00.000Z') });
    await seeded.appendAudit({ callId: 'c_recent', ...at(new Date().toISOString()) });
    await seeded.close();
    const config = join(dir, 'gateway.yaml');
    writeFileSync(config, 'audit_retention_days: 30\n');
    const client = await connectStdio('v1', gatewayArgv(SERVERS.memory, ['--config', config, '--store', db]));
    try {
      await client.listTools();
      await eventually(async () => {
        const s = await openSqliteStore({ path: db });
        try { return (await s.getAudit('c_2020')) === null; } finally { await s.close(); }
      }, 10_000);
    } finally {
      await client.close();
    }
    const after = await openSqliteStore({ path: db });
    expect((await after.getAudit('c_recent'))?.callId).toBe('c_recent');
    await after.close();
  }, 60_000);
});

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteDatabase, openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'trc-sqlite-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an SQLite resource removed right after its commit', () => {
  it('answers the commit with its metadata when another process sweeps the result at once', async () => {
    const path = join(dir, 'swept.db');
    const store = await openSqliteStore({ path });
    // Another process's sweep (the result expired already) deleting the row the moment the
    // commit flips it: a trigger puts that delete between the commit and anything read after it.
    const other = openSqliteDatabase(path);
    other.exec('CREATE TRIGGER swept AFTER UPDATE OF committed ON resources WHEN NEW.committed = 1 BEGIN DELETE FROM resources WHERE id = NEW.id; END');
    other.close();
    const writer = await store.createResource({ principal: 'p', tool: 't', mimeType: 'text/plain', expiresAt: '2026-01-01T00:00:00.000Z' });
    await writer.write(Buffer.from('short-lived'));
    const meta = await writer.commit();
    expect(meta).toMatchObject({ id: writer.id, bytes: 11, principal: 'p', expiresAt: '2026-01-01T00:00:00.000Z' });
    expect(await store.getResourceMeta(writer.id)).toBeNull();
    await store.close();
  });
});

describe('closing an SQLite store while another process holds the write lock', () => {
  it('closes the connection although its unfinished writer\'s rows cannot be removed yet', async () => {
    const path = join(dir, 'locked-close.db');
    const store = await openSqliteStore({ path, busyTimeoutMs: 0 });
    const writer = await store.createResource({ principal: 'p', tool: 't', mimeType: 'text/plain', expiresAt: null });
    await writer.write(Buffer.from('unfinished'));
    const other = openSqliteDatabase(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      await store.close();
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // The last connection to close removes the WAL file: the store's is closed too.
    expect(existsSync(`${path}-wal`)).toBe(false);
    const after = openSqliteDatabase(path, { readonly: true });
    expect(after.prepare('SELECT count(*) FROM resources WHERE committed = 0').pluck().get()).toBe(1);
    after.close();
  });
});

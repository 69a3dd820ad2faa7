import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STORE_ERROR_CODES } from '../../src/store/index.js';
import { openSqliteDatabase, openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'trc-sqlite-foreign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const digest = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A database file another program made with `sql`, in SQLite's default rollback-journal mode. */
function foreignFile(name: string, sql: string): string {
  const path = join(dir, name);
  const db = openSqliteDatabase(path);
  db.exec(sql);
  db.close();
  return path;
}

describe('an SQLite file another program made', () => {
  it.each([
    ['an application database', "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('bob')"],
    ['one with a table named like the store\'s', 'CREATE TABLE audit (id INTEGER PRIMARY KEY, message TEXT); INSERT INTO audit (message) VALUES (\'login\')'],
    ['one with its own schema_version table', "CREATE TABLE schema_version (version INTEGER, applied_at TEXT); INSERT INTO schema_version VALUES (2, 'x'); CREATE TABLE things (a)"],
    ['one whose schema_version has other columns', "CREATE TABLE schema_version (installed_rank INTEGER, script TEXT); INSERT INTO schema_version VALUES (1, 'V1__init.sql')"],
  ])('refuses %s with STORE_SCHEMA_FOREIGN and leaves it unchanged', async (name, sql) => {
    const path = foreignFile(`${name.replace(/\W+/gu, '-')}.db`, sql);
    const before = digest(path);
    const error = await openSqliteStore({ path }).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: STORE_ERROR_CODES.schemaForeign });
    expect((error as Error).message).toContain(path);
    expect(digest(path)).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('still opens its own files, and those where someone added a table beside the store\'s', async () => {
    const path = join(dir, 'own.db');
    const first = await openSqliteStore({ path });
    await first.ledgerBegin({ key: 'k', tool: 't', principal: 'p', argsDigest: 'd', callId: 'c', now: '2026-01-01T00:00:00.000Z' });
    await first.close();
    const raw = openSqliteDatabase(path);
    raw.exec('CREATE TABLE reports (id INTEGER PRIMARY KEY)');
    raw.close();
    const again = await openSqliteStore({ path });
    expect(await again.ledgerGet('k')).toMatchObject({ key: 'k' });
    await again.close();
  });
});

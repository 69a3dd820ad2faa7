import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { STORE_ERROR_CODES } from '../../src/store/index.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { openSqliteDatabase, openSqliteStore, SQLITE_SCHEMA_VERSION } from '../../src/store/sqlite/index.js';
import { collect, expectCode } from './store-helpers.js';
import { runStoreSuite } from './store-suite.js';

const dir = mkdtempSync(join(tmpdir(), 'trc-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const paths = new WeakMap<Store, string>();
let counter = 0;
const newFileStore = async (): Promise<Store> => {
  counter += 1;
  const path = join(dir, `suite-${counter}.db`);
  const store = await openSqliteStore({ path, synchronous: 'NORMAL' });
  paths.set(store, path);
  return store;
};

runStoreSuite('sqlite file', {
  newStore: newFileStore,
  reopen: async (store) => openSqliteStore({ path: paths.get(store) ?? '' }),
});
runStoreSuite('sqlite :memory:', { newStore: () => openSqliteStore({ path: ':memory:', chunkBytes: 4096 }), propertyRuns: 30 });

const CHILD = new URL('./fixtures/sqlite-crash-writer.ts', import.meta.url).pathname;

/** Run the crash-writer child until it reports `ready <id>`, then SIGKILL it. */
function killWriterMidResource(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (b: Buffer) => { err += b.toString(); });
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const match = /ready (\S+)\n/.exec(out);
      if (match?.[1] !== undefined) {
        const id = match[1];
        child.once('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(id) : reject(new Error(`child ended by ${String(signal)}`))));
        child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === null) reject(new Error(`crash writer exited early (${String(code)}): ${err}`));
    });
  });
}

describe('sqlite store on disk', () => {
  it('removes the chunks of a writer killed before commit when the file is reopened', async () => {
    const path = join(dir, 'crash.db');
    const before = await openSqliteStore({ path });
    const kept = await before.createResource({ principal: 'p', tool: 't', mimeType: 'text/plain', expiresAt: null });
    await kept.write(new TextEncoder().encode('survives'));
    const keptMeta = await kept.commit();
    await before.close();

    const orphan = await killWriterMidResource(path);
    const raw = openSqliteDatabase(path, { readonly: true });
    const leftover = raw.prepare('SELECT COUNT(*) FROM resource_chunks WHERE resource_id = ?').pluck().get(orphan) as number;
    raw.close();
    expect(leftover).toBeGreaterThan(0);

    const after = await openSqliteStore({ path });
    try {
      expect(await after.getResourceMeta(orphan)).toBeNull();
      expect(await after.getResourceMeta(keptMeta.id)).toEqual(keptMeta);
    } finally {
      await after.close();
    }
    const check = openSqliteDatabase(path, { readonly: true });
    expect(check.prepare('SELECT COUNT(*) FROM resource_chunks WHERE resource_id = ?').pluck().get(orphan)).toBe(0);
    expect(check.prepare('SELECT COUNT(*) FROM resources WHERE id = ?').pluck().get(orphan)).toBe(0);
    check.close();
  });

  it('keeps the uncommitted resource of a writer that is still alive in another connection', async () => {
    const path = join(dir, 'live.db');
    const first = await openSqliteStore({ path });
    const writer = await first.createResource({ principal: 'p', tool: 't', mimeType: 'text/plain', expiresAt: null });
    await writer.write(new Uint8Array([1, 2, 3]));
    const second = await openSqliteStore({ path });
    const meta = await writer.commit();
    expect(await second.getResourceMeta(writer.id)).toEqual(meta);
    await first.close();
    await second.close();
  });

  it('uses WAL, records the schema version and migrates only once', async () => {
    const path = join(dir, 'schema.db');
    await (await openSqliteStore({ path })).close();
    await (await openSqliteStore({ path })).close();
    const raw = openSqliteDatabase(path, { readonly: true });
    expect(raw.prepare('PRAGMA journal_mode').pluck().get()).toBe('wal');
    expect(raw.prepare('SELECT version FROM schema_version ORDER BY version').pluck().all()).toEqual(SQLITE_MIGRATIONS.map((m) => m.version));
    expect(SQLITE_MIGRATIONS.at(-1)?.version).toBe(SQLITE_SCHEMA_VERSION);
    raw.close();
  });

  it('migrates a version-1 database: stored resources keep every byte in a rowid chunk table', async () => {
    const path = join(dir, 'v1.db');
    const raw = openSqliteDatabase(path);
    raw.exec('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    raw.exec(SQLITE_MIGRATIONS[0]?.sql ?? '');
    raw.prepare('INSERT INTO schema_version VALUES (1, ?)').run(new Date().toISOString());
    const parts = [Buffer.from('[1,2,'), Buffer.from('3]')];
    const sha = createHash('sha256').update(Buffer.concat(parts)).digest('hex');
    raw.prepare(`INSERT INTO resources (id, principal, tool, mime_type, bytes, sha256, chunks, created_at, expires_at, committed, writer, touched_ms)
      VALUES ('r1', 'alice', 'export', 'application/json', 7, ?, 2, '2026-01-01T00:00:00Z', NULL, 1, 'gone', 0)`).run(sha);
    parts.forEach((data, seq) => raw.prepare('INSERT INTO resource_chunks VALUES (?, ?, ?)').run('r1', seq, data));
    raw.close();
    const store = await openSqliteStore({ path });
    expect((await store.getResourceMeta('r1'))?.sha256).toBe(sha);
    expect(Buffer.from(await collect(store.readResource('r1'))).toString()).toBe('[1,2,3]');
    await store.close();
    const after = openSqliteDatabase(path, { readonly: true });
    expect(after.prepare("SELECT sql FROM sqlite_master WHERE name = 'resource_chunks'").pluck().get()).not.toMatch(/WITHOUT ROWID/u);
    after.close();
  });

  it('refuses a database written by a newer schema version', async () => {
    const path = join(dir, 'future.db');
    await (await openSqliteStore({ path })).close();
    const raw = openSqliteDatabase(path);
    raw.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)').run(SQLITE_SCHEMA_VERSION + 1, new Date().toISOString());
    raw.close();
    await expectCode(openSqliteStore({ path }), STORE_ERROR_CODES.schemaTooNew);
  });

  it('refuses a missing path and an unopenable file with stable codes', async () => {
    await expectCode(openSqliteStore({ path: '' }), STORE_ERROR_CODES.badOptions);
    // A missing directory is created (openSqliteStore options below); a file in its way is not.
    const aFile = join(dir, 'a-file');
    writeFileSync(aFile, 'x');
    await expectCode(openSqliteStore({ path: join(aFile, 'x.db') }), STORE_ERROR_CODES.backend);
  });

  it('fails with a stable code instead of hanging when another process holds the write lock', async () => {
    const path = join(dir, 'busy.db');
    const store = await openSqliteStore({ path, busyTimeoutMs: 100 });
    const locker = openSqliteDatabase(path);
    locker.exec('BEGIN EXCLUSIVE');
    try {
      // With a 100 ms busy timeout the call fails with its code; a hang would end in the test's timeout.
      await expectCode(store.ledgerBegin({ key: 'k', tool: 't', principal: 'p', argsDigest: 'd', callId: 'c', now: '2026-01-01T00:00:00.000Z' }), STORE_ERROR_CODES.backend);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    expect((await store.ledgerBegin({ key: 'k', tool: 't', principal: 'p', argsDigest: 'd', callId: 'c', now: '2026-01-01T00:00:00.000Z' })).created).toBe(true);
    await store.close();
  });

  it('refuses a file that is not an SQLite database with a stable code', async () => {
    const path = join(dir, 'garbage.db');
    writeFileSync(path, 'this is not a database, just some text long enough to have a header'.repeat(100));
    await expectCode(openSqliteStore({ path }), STORE_ERROR_CODES.backend);
  });

  it('creates each ledger entry once when three processes begin the same keys at once', async () => {
    const path = join(dir, 'race.db');
    await (await openSqliteStore({ path })).close();
    const runner = new URL('./fixtures/sqlite-ledger-racer.ts', import.meta.url).pathname;
    const run = () => new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', runner, path], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`racer exited ${String(code)}`))));
    });
    const outputs = await Promise.all([run(), run(), run()]);
    const created = outputs.join('').split('\n').filter((line) => line.startsWith('created')).length;
    expect(created).toBe(50);
    const store = await openSqliteStore({ path });
    expect(await store.ledgerList()).toHaveLength(50);
    await store.close();
  });
});

describe('openSqliteStore options', () => {
  it.each([
    [{ synchronous: 'SOMETIMES' }, '/synchronous'],
    [{ driver: 'mysql' }, '/driver'],
    [{ chunkBytes: 0 }, '/chunkBytes'],
    [{ chunkBytes: 1.5 }, '/chunkBytes'],
  ])('refuses %j with STORE_BAD_OPTIONS and its pointer', async (bad, pointer) => {
    const error = await openSqliteStore({ path: ':memory:', ...(bad as object) }).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: STORE_ERROR_CODES.badOptions, data: { pointer } });
  });

  it('creates the directory of a new store file', async () => {
    const store = await openSqliteStore({ path: join(dir, 'fresh', 'nested', 'trc.sqlite') });
    await store.close();
  });
});

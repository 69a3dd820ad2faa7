/**
 * better-sqlite3 and pg are optional peers: a store whose driver is missing says which package
 * to install, and the SQLite store falls back to node:sqlite where Node has it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore, sqliteDriver } from '../../src/store/sqlite/index.js';
import { STORE_ERROR_CODES } from '../../src/store/index.js';
import { expectCode } from './store-helpers.js';

const CHILD = fileURLToPath(new URL('./fixtures/open-store-child.ts', import.meta.url));
const HIDE = fileURLToPath(new URL('./fixtures/hide-packages.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'trc-drivers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function child(kind: string, nodeArgs: readonly string[], env: Record<string, string> = {}): { ok?: boolean; driver?: string; code?: string; message?: string } {
  const r = spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', CHILD, kind], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  expect(line, r.stderr).not.toBe('');
  return JSON.parse(line) as { ok?: boolean; driver?: string; code?: string; message?: string };
}

let nodeSqlite = true;
try {
  sqliteDriver('node:sqlite');
} catch {
  nodeSqlite = false;
}

describe('optional store drivers', () => {
  it('without better-sqlite3 the SQLite store runs on node:sqlite, or names better-sqlite3 where Node has no node:sqlite', () => {
    // --no-addons: no native module can load, as if better-sqlite3 were not installed.
    const r = child('sqlite', ['--no-addons']);
    if (nodeSqlite) {
      expect(r).toEqual({ ok: true, driver: 'node:sqlite' });
    } else {
      expect(r.code).toBe(STORE_ERROR_CODES.driverMissing);
      expect(r.message).toContain('npm install better-sqlite3');
      expect(r.message).toContain('Node 22.13+');
    }
  });

  it('without pg the PostgreSQL store names the package to install', () => {
    const r = child('postgres', ['--import', HIDE], { TRC_TEST_HIDE: 'pg' });
    expect(r.code).toBe(STORE_ERROR_CODES.driverMissing);
    expect(r.message).toContain('npm install pg');
  });

  it('a driver asked for by name that cannot load is STORE_DRIVER_MISSING, not a crash', async () => {
    const unavailable = nodeSqlite ? undefined : 'node:sqlite';
    if (unavailable !== undefined) await expectCode(openSqliteStore({ path: ':memory:', driver: unavailable }), STORE_ERROR_CODES.driverMissing);
    const r = child('sqlite', ['--no-addons'], { TRC_SQLITE_DRIVER: 'better-sqlite3' });
    expect(r.code).toBe(STORE_ERROR_CODES.driverMissing);
    expect(r.message).toContain('npm install better-sqlite3');
  });

  it('the CLI says how to add better-sqlite3 to a global or npx install (Node 20 has no node:sqlite), not a require stack', () => {
    const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
    for (const command of [['gateway', '--store', join(dir, 'gw.sqlite'), '--', process.execPath, '-e', '0'], ['fit', '--store', join(dir, 'fit.sqlite'), '--max-tokens', '50']]) {
      const r = spawnSync(process.execPath, ['--no-addons', '--import', 'tsx', bin, ...command], { encoding: 'utf8', input: '{"rows":[1,2,3]}', env: { ...process.env, TRC_SQLITE_DRIVER: 'better-sqlite3' }, timeout: 60_000 });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain('npm install -g better-sqlite3@12');
      expect(r.stderr).toContain('npx -y -p tool-result-contract -p better-sqlite3@12 tool-result-contract');
      expect(r.stderr).not.toContain('Require stack');
    }
  });
});

if (nodeSqlite) {
  describe('the node:sqlite driver', () => {
    it('refuses a string with a NUL character instead of storing it cut short', async () => {
      const store = await openSqliteStore({ path: join(dir, 'nul.db'), driver: 'node:sqlite' });
      try {
        await expectCode(store.ledgerBegin({ key: 'k\u0000cut', tool: 't', principal: 'p', argsDigest: 'd', callId: 'c', now: '2026-01-01T00:00:00.000Z' }), STORE_ERROR_CODES.backend);
      } finally {
        await store.close();
      }
    });
  });
}

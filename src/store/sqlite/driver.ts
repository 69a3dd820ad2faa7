/**
 * The SQLite driver behind the store: better-sqlite3 when it is installed and loads, else
 * Node's built-in `node:sqlite` where the running Node has it (22.13+, 23.4+, 24+). Both are
 * synchronous; this is the small part of better-sqlite3's API the store and the demo use, so
 * neither knows which driver it runs on. better-sqlite3 is an optional peer: a user who never
 * opens an SQLite store never compiles it.
 */
import { createRequire } from 'node:module';
import { STORE_ERROR_CODES, storeError } from '../errors.js';

/** A value SQLite binds. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** A prepared statement. `pluck()` makes `get`/`all` return the first column's value. */
export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number };
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
  pluck(): SqlStatement;
}

/** A function run inside a transaction; `immediate` takes the write lock at BEGIN. */
export type SqlTransaction<A extends unknown[], R> = ((...args: A) => R) & { immediate(...args: A): R };

/** An open database. */
export interface SqlDatabase {
  /** Which driver opened it. */
  readonly driver: SqliteDriverName;
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  /** `pragma('journal_mode = WAL')`; returns nothing (the store never reads a pragma back). */
  pragma(text: string): void;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqlTransaction<A, R>;
  close(): void;
}

/** The drivers: `auto` is better-sqlite3 if it loads, else node:sqlite. */
export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite';

/** Options of {@link openSqliteDatabase}. */
export interface OpenSqliteOptions {
  /** How long a statement waits for another connection's lock (ms). */
  readonly busyTimeoutMs?: number;
  /** Default `auto` (or `$TRC_SQLITE_DRIVER`). */
  readonly driver?: SqliteDriverName | 'auto';
  /** Open read-only (the file must exist). */
  readonly readonly?: boolean;
}

const require = createRequire(import.meta.url);

interface BetterSqlite3Ctor {
  new (path: string, options?: { timeout?: number; readonly?: boolean }): {
    prepare(sql: string): SqlStatement;
    exec(sql: string): void;
    pragma(text: string): unknown;
    transaction<A extends unknown[], R>(fn: (...args: A) => R): SqlTransaction<A, R>;
    close(): void;
  };
}

interface NodeSqliteStatement {
  run(...params: SqlValue[]): { changes: number | bigint };
  get(...params: SqlValue[]): Record<string, unknown> | undefined;
  all(...params: SqlValue[]): Record<string, unknown>[];
}

interface NodeSqliteModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => { prepare(sql: string): NodeSqliteStatement; exec(sql: string): void; close(): void };
}

let betterSqlite3: BetterSqlite3Ctor | Error | undefined;
let nodeSqlite: NodeSqliteModule | Error | undefined;

function loadBetterSqlite3(): BetterSqlite3Ctor | Error {
  if (betterSqlite3 === undefined) {
    try {
      betterSqlite3 = require('better-sqlite3') as BetterSqlite3Ctor;
      // The native part loads on the first open; try it now so a build for another Node fails here.
      new betterSqlite3(':memory:').close();
    } catch (cause) {
      betterSqlite3 = cause as Error;
    }
  }
  return betterSqlite3;
}

function loadNodeSqlite(): NodeSqliteModule | Error {
  if (nodeSqlite === undefined) {
    try {
      // Node 22 prints an ExperimentalWarning for node:sqlite; that is Node's word, not ours.
      nodeSqlite = require('node:sqlite') as NodeSqliteModule;
    } catch (cause) {
      nodeSqlite = cause as Error;
    }
  }
  return nodeSqlite;
}

/**
 * Which driver `auto` picks in this process (loading it), or an error that names the package
 * to install.
 * @example sqliteDriver() // 'node:sqlite' on Node 24 without better-sqlite3
 */
export function sqliteDriver(wanted: SqliteDriverName | 'auto' = 'auto'): SqliteDriverName {
  const choice = wanted === 'auto' ? envDriver() : wanted;
  if (choice !== 'node:sqlite' && !(loadBetterSqlite3() instanceof Error)) return 'better-sqlite3';
  if (choice !== 'better-sqlite3' && !(loadNodeSqlite() instanceof Error)) return 'node:sqlite';
  const why = (choice === 'node:sqlite' ? loadNodeSqlite() : loadBetterSqlite3()) as Error;
  throw storeError(
    STORE_ERROR_CODES.driverMissing,
    choice === 'node:sqlite'
      ? `node:sqlite is not available in Node ${process.versions.node} (it needs Node 22.13+): ${why.message}`
      : `the SQLite store needs the package better-sqlite3 (npm install better-sqlite3)${choice === 'auto' ? `, or Node 22.13+ for node:sqlite (this is Node ${process.versions.node})` : ''}: ${why.message.split('\n')[0] ?? ''}`,
    { driver: choice },
    why,
  );
}

function envDriver(): SqliteDriverName | 'auto' {
  const value = process.env['TRC_SQLITE_DRIVER'];
  return value === 'better-sqlite3' || value === 'node:sqlite' ? value : 'auto';
}

/**
 * Open an SQLite database file (or `:memory:`) with the driver {@link sqliteDriver} picks.
 * @example const db = openSqliteDatabase('/tmp/x.sqlite'); db.prepare('SELECT 1 AS one').get()
 */
export function openSqliteDatabase(path: string, options: OpenSqliteOptions = {}): SqlDatabase {
  const driver = sqliteDriver(options.driver ?? 'auto');
  const timeout = options.busyTimeoutMs ?? 5000;
  if (driver === 'better-sqlite3') {
    const Ctor = loadBetterSqlite3() as BetterSqlite3Ctor;
    const db = new Ctor(path, { timeout, readonly: options.readonly === true });
    return {
      driver,
      prepare: (sql) => db.prepare(sql),
      exec: (sql) => db.exec(sql),
      pragma: (text) => void db.pragma(text),
      transaction: (fn) => db.transaction(fn),
      close: () => db.close(),
    };
  }
  const { DatabaseSync } = loadNodeSqlite() as NodeSqliteModule;
  const db = new DatabaseSync(path, options.readonly === true ? { readOnly: true } : {});
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(timeout))}`);
  return nodeSqliteDatabase(db);
}

/** Blobs come back as Uint8Array from node:sqlite; the store (like better-sqlite3) hands out Buffers. */
function value(v: unknown): unknown {
  return v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v;
}

function row(r: Record<string, unknown> | undefined): unknown {
  if (r === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(r)) out[key] = value(r[key]);
  return out;
}

function first(r: Record<string, unknown> | undefined): unknown {
  if (r === undefined) return undefined;
  for (const key in r) return value(r[key]);
  return undefined;
}

/**
 * node:sqlite binds a string only up to its first NUL (Node 22–24); refuse such a string rather
 * than store it cut short. JSON columns never hold one (JSON.stringify escapes it).
 */
function checked(params: SqlValue[]): SqlValue[] {
  for (const p of params) {
    if (typeof p === 'string' && p.includes('\u0000')) {
      throw storeError(STORE_ERROR_CODES.backend, 'node:sqlite cannot store a string holding a NUL character without cutting it; use better-sqlite3 for such values', { driver: 'node:sqlite' });
    }
  }
  return params;
}

function statement(s: NodeSqliteStatement, plucked: boolean): SqlStatement {
  return {
    run: (...params) => ({ changes: Number(s.run(...checked(params)).changes) }),
    get: (...params) => (plucked ? first(s.get(...checked(params))) : row(s.get(...checked(params)))),
    all: (...params) => s.all(...checked(params)).map(plucked ? first : row),
    pluck: () => statement(s, true),
  };
}

function nodeSqliteDatabase(db: { prepare(sql: string): NodeSqliteStatement; exec(sql: string): void; close(): void }): SqlDatabase {
  let depth = 0;
  const run = <A extends unknown[], R>(fn: (...args: A) => R, begin: string, args: A): R => {
    // Nested calls become savepoints, as in better-sqlite3.
    const name = `trc_sp_${depth}`;
    db.exec(depth === 0 ? begin : `SAVEPOINT ${name}`);
    depth++;
    try {
      const result = fn(...args);
      depth--;
      db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${name}`);
      return result;
    } catch (error) {
      depth--;
      db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`);
      throw error;
    }
  };
  return {
    driver: 'node:sqlite',
    prepare: (sql) => statement(db.prepare(sql), false),
    exec: (sql) => db.exec(sql),
    pragma: (text) => db.exec(`PRAGMA ${text}`),
    transaction: <A extends unknown[], R>(fn: (...args: A) => R): SqlTransaction<A, R> =>
      Object.assign((...args: A) => run(fn, 'BEGIN', args), { immediate: (...args: A) => run(fn, 'BEGIN IMMEDIATE', args) }),
    close: () => db.close(),
  };
}

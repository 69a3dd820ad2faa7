/**
 * SQLite store: `tool-result-contract/store/sqlite` — better-sqlite3 (optional peer) when
 * installed, else Node's built-in `node:sqlite`.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { openSqliteStore } from './open-sqlite-store.js';
export type { SqliteStoreOptions } from './open-sqlite-store.js';
export { SQLITE_SCHEMA_VERSION } from './migrations.js';
export { openSqliteDatabase, sqliteDriver } from './driver.js';
export type { SqlDatabase, SqlStatement, SqlTransaction, SqlValue, SqliteDriverName, OpenSqliteOptions } from './driver.js';

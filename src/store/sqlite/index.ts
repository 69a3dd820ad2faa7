/**
 * SQLite store (better-sqlite3): `tool-result-contract/store/sqlite`.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { openSqliteStore } from './open-sqlite-store.js';
export type { SqliteStoreOptions } from './open-sqlite-store.js';
export { SQLITE_SCHEMA_VERSION } from './migrations.js';

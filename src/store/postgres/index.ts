/**
 * PostgreSQL store (`pg`, an optional peer): `tool-result-contract/store/postgres`.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { openPostgresStore } from './open-postgres-store.js';
export type { PostgresStoreOptions } from './open-postgres-store.js';
export { POSTGRES_SCHEMA_VERSION } from './migrations.js';
export type { PgPool, PgPoolClient, PgResult } from './pg-driver.js';

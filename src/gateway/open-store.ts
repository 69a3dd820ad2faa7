/**
 * Opening the gateway's store: SQLite at `--store PATH`, else `TRC_STORE`, else the config's
 * `store`, else `trc.sqlite` in the platform's user data directory (created on first use).
 * Never the working directory by default: an MCP host may start the gateway with cwd `/`.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { defaultStorePath, isPostgresUrl, type DataDirContext, type Store } from '../store/index.js';

/** A store location fit for logs: a PostgreSQL URL without its password. */
export function describeStoreLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/**
 * Open the store at the first location given, else {@link defaultStorePath} for `context`:
 * a `postgres://` / `postgresql://` URL opens the PostgreSQL store (schema `TRC_PG_SCHEMA` of
 * `context.env`, default `trc`) that many gateway instances can share; anything else is a
 * SQLite file, a relative path resolved against `cwd`.
 * @example const { store } = await openGatewayStore(process.cwd(), [flags.store, process.env.TRC_STORE, config.store]);
 */
export async function openGatewayStore(
  cwd: string,
  candidates: readonly (string | undefined)[],
  sync: 'full' | 'normal' = 'normal',
  context: DataDirContext = {},
): Promise<{ store: Store; path: string }> {
  const chosen = candidates.find((c) => c !== undefined && c !== '') ?? defaultStorePath(context);
  if (isPostgresUrl(chosen)) {
    const { openPostgresStore } = await import('../store/postgres/index.js');
    const schema = context.env?.['TRC_PG_SCHEMA'];
    return { store: await openPostgresStore({ connectionString: chosen, ...(schema === undefined || schema === '' ? {} : { schema }) }), path: describeStoreLocation(chosen) };
  }
  const path = chosen === ':memory:' ? chosen : resolve(cwd, chosen);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const { openSqliteStore } = await import('../store/sqlite/index.js');
  // NORMAL (WAL) survives a crash of the gateway or an upstream — the faults the ledger is for —
  // without an fsync per call; `store_sync: full` adds power-loss durability at that cost.
  return { store: await openSqliteStore({ path, synchronous: sync === 'full' ? 'FULL' : 'NORMAL' }), path };
}

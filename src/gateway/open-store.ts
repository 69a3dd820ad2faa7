/**
 * Opening the gateway's store: SQLite at `--store PATH`, else the config's `store`, else
 * `./.trc/trc.sqlite` under the working directory (created on first use).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Store } from '../store/index.js';

/** The default store path, relative to the working directory. */
export const DEFAULT_STORE_PATH = '.trc/trc.sqlite';

/**
 * Open the SQLite store at the first path given (or the default).
 * @example const { store } = await openGatewayStore(process.cwd(), [flags.store, config.store]);
 */
export async function openGatewayStore(cwd: string, candidates: readonly (string | undefined)[], sync: 'full' | 'normal' = 'normal'): Promise<{ store: Store; path: string }> {
  const chosen = candidates.find((c) => c !== undefined && c !== '') ?? DEFAULT_STORE_PATH;
  const path = chosen === ':memory:' ? chosen : resolve(cwd, chosen);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const { openSqliteStore } = await import('../store/sqlite/index.js');
  // NORMAL (WAL) survives a crash of the gateway or an upstream — the faults the ledger is for —
  // without an fsync per call; `store_sync: full` adds power-loss durability at that cost.
  return { store: await openSqliteStore({ path, synchronous: sync === 'full' ? 'FULL' : 'NORMAL' }), path };
}

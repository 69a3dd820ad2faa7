/**
 * The store of the CLI commands: where it is (`--store PATH`, else `TRC_STORE`, else
 * `trc.sqlite` in the platform's user data directory), and opening it. A `postgres://` URL is
 * the PostgreSQL store many gateway instances share (schema `TRC_PG_SCHEMA`, default `trc`), so
 * the operator's commands read what the gateways wrote. Commands that only read a SQLite store
 * (or clean one up) refuse a missing one instead of creating it; `trc fit` and the gateway
 * create theirs.
 */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { describeStoreLocation } from '../gateway/open-store.js';
import { defaultStorePath, isPostgresUrl, type Store } from '../store/index.js';
import { InputError } from './input.js';
import type { CliIO } from './io.js';

/**
 * Why a store did not open, in a user's words: a missing SQLite driver says how to add it to
 * this CLI (a package beside a global or npx install resolves; one in a project does not);
 * otherwise the driver's own reason ("file is not a database").
 * @example whyStoreFailed(error) // 'the SQLite store needs the package better-sqlite3 …'
 */
export function whyStoreFailed(cause: unknown): string {
  const missing = [cause, (cause as { cause?: unknown }).cause].find((e) => (e as { code?: unknown } | undefined)?.code === 'STORE_DRIVER_MISSING');
  if (missing !== undefined) {
    const message = (missing as Error).message;
    return message.includes('better-sqlite3')
      ? `${message.replace(/\.+$/u, '')}. For this CLI, install it beside the package: npm install -g better-sqlite3@12 (with a global install), or npx -y -p tool-result-contract -p better-sqlite3@12 tool-result-contract …`
      : message;
  }
  return (cause as { cause?: Error }).cause?.message ?? (cause as Error).message;
}

/** How `--help` names the default store. */
export const DEFAULT_STORE_HELP = '$TRC_STORE, else trc.sqlite in the user data directory';

/**
 * The default store of this invocation: `trc.sqlite` in the user data directory of `io.env`
 * (`XDG_DATA_HOME`, `HOME`, `LOCALAPPDATA`). Never relative to the working directory.
 * @example cliDefaultStore(io) // '/home/ada/.local/share/tool-result-contract/trc.sqlite'
 */
export function cliDefaultStore(io: Pick<CliIO, 'env'>, file = 'trc.sqlite'): string {
  return defaultStorePath({ env: io.env }, file);
}

/**
 * The store path of a command: `--store PATH`, else `$TRC_STORE`, else {@link cliDefaultStore}.
 * A relative `--store` or `TRC_STORE` is resolved against the working directory
 * (`--store .trc/trc.sqlite` asks for a project-local store).
 * @example storePath(undefined, io) // '/home/ada/.local/share/tool-result-contract/trc.sqlite'
 */
export function storePath(flag: string | undefined, io: CliIO): string {
  const env = io.env['TRC_STORE'];
  const chosen = flag !== undefined && flag !== '' ? flag : env !== undefined && env !== '' ? env : cliDefaultStore(io);
  return chosen === ':memory:' || isPostgresUrl(chosen) ? chosen : resolve(io.cwd, chosen);
}

async function openPostgres(url: string, env: Readonly<Record<string, string | undefined>>): Promise<Store> {
  const { openPostgresStore } = await import('../store/postgres/index.js');
  const schema = env['TRC_PG_SCHEMA'];
  try {
    return await openPostgresStore({ connectionString: url, ...(schema === undefined || schema === '' ? {} : { schema }) });
  } catch (cause) {
    throw new InputError(`cannot open the store ${describeStoreLocation(url)}: ${whyStoreFailed(cause)}`);
  }
}

async function open(path: string): Promise<Store> {
  const { openSqliteStore } = await import('../store/sqlite/index.js');
  try {
    return await openSqliteStore({ path });
  } catch (cause) {
    throw new InputError(`cannot open the store ${path}: ${whyStoreFailed(cause)}`);
  }
}

/**
 * Open an existing store; a missing SQLite file is an {@link InputError}, never created. A
 * PostgreSQL URL opens that store (`env` gives `TRC_PG_SCHEMA`).
 * @example const store = await openExistingStore(storePath(values.store, io));
 */
export async function openExistingStore(path: string, env: Readonly<Record<string, string | undefined>> = {}): Promise<Store> {
  if (isPostgresUrl(path)) return openPostgres(path, env);
  if (path !== ':memory:') {
    let isDirectory = false;
    try {
      isDirectory = (await stat(path)).isDirectory();
    } catch {
      throw new InputError(`no store at ${path} (use --store PATH or TRC_STORE)`);
    }
    if (isDirectory) throw new InputError(`the store ${path} is a directory, not an SQLite file`);
    // Opening migrates: a command that only reads must not turn a user's file (or another
    // program's database) into a trc store. Looked at read-only first. An empty file is an
    // empty store, read as one without writing the schema into it.
    if ((await stat(path)).size === 0) return open(':memory:');
    const why = await notTrcStore(path);
    if (why !== null) throw new InputError(`${path} is not a trc store: ${why}`);
  }
  return open(path);
}

/** Why the file at `path` is not a trc store (read-only look), or null when it is one. */
async function notTrcStore(path: string): Promise<string | null> {
  const { openSqliteDatabase } = await import('../store/sqlite/driver.js');
  let db: ReturnType<typeof openSqliteDatabase> | undefined;
  try {
    db = openSqliteDatabase(path, { readonly: true });
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
    return tables.has('audit') && tables.has('ledger') ? null : 'it has no audit and ledger tables';
  } catch (cause) {
    return whyStoreFailed(cause);
  } finally {
    db?.close();
  }
}

/** Open the store, creating it (and its directory) when it does not exist. */
export async function openOrCreateStore(path: string, env: Readonly<Record<string, string | undefined>> = {}): Promise<Store> {
  if (isPostgresUrl(path)) return openPostgres(path, env);
  if (path !== ':memory:') {
    try {
      await mkdir(dirname(path), { recursive: true });
    } catch (cause) {
      throw new InputError(`cannot create the store's directory ${dirname(path)}: ${(cause as Error).message}`);
    }
  }
  return open(path);
}

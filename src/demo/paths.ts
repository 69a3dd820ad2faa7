/**
 * Where the demo keeps its two SQLite files: the trc store (audit, ledger, resources) and the
 * business world (orders, items, stock, charges). Both live in the user data directory by
 * default, beside (not in) the CLI's own `trc.sqlite`.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { TrcError } from '../contract/index.js';
import { defaultStorePath } from '../store/index.js';
import { notDemoFile } from './demo-files.js';
import { DEMO_TOOL_NAMES } from './tools.js';

/** The file name of the demo's trc store. */
export const DEMO_STORE_FILE = 'demo.sqlite';

/**
 * The demo's default trc store: `demo.sqlite` in the user data directory of `env`.
 * @example defaultDemoStore({ HOME: '/home/ada' }) // '/home/ada/.local/share/tool-result-contract/demo.sqlite' on Linux
 */
export function defaultDemoStore(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return defaultStorePath({ env }, DEMO_STORE_FILE);
}

/** Resolved paths of one demo run. */
export interface DemoPaths {
  readonly store: string;
  readonly world: string;
}

/**
 * Resolve `--store` (relative to `cwd`): a file path names the trc store and the world sits
 * beside it (`demo.sqlite` → `demo.world.sqlite`); an existing directory, or a path ending in a
 * separator, holds both default names; none means {@link defaultDemoStore}.
 * @example demoPaths('/w', 'x.sqlite') // { store: '/w/x.sqlite', world: '/w/x.world.sqlite' }
 */
export function demoPaths(cwd: string, store: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): DemoPaths {
  let path = resolve(cwd, store ?? defaultDemoStore(env));
  // A trailing separator names a directory, existing or not.
  if ((store !== undefined && /[\\/]$/.test(store)) || (existsSync(path) && statSync(path).isDirectory())) path = join(path, basename(DEMO_STORE_FILE));
  const ext = extname(path);
  const stem = ext === '' ? path : path.slice(0, -ext.length);
  return { store: path, world: `${stem}.world${ext === '' ? '.sqlite' : ext}` };
}

/**
 * Create the parent directory; with `fresh`, delete both databases (and their WAL files) first.
 * Refuses (`DEMO_STORE_UNUSABLE`) a path that holds anything the demo did not make: another
 * store, another database, a user's file — with or without `fresh`.
 */
export function prepareDemoPaths(paths: DemoPaths, fresh: boolean): void {
  for (const [file, kind] of [[paths.store, 'store'], [paths.world, 'world']] as const) {
    const why = notDemoFile(file, kind, DEMO_TOOL_NAMES);
    if (why !== null) throw new TrcError('DEMO_STORE_UNUSABLE', `${why}; the demo only uses (and --fresh only deletes) databases it made: give --store a new path`, { data: { path: file } });
  }
  mkdirSync(dirname(paths.store), { recursive: true });
  mkdirSync(dirname(paths.world), { recursive: true });
  if (!fresh) return;
  for (const file of [paths.store, paths.world]) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
  }
}

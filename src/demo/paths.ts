/**
 * Where the demo keeps its two SQLite files: the trc store (audit, ledger, resources) and the
 * business world (orders, items, stock, charges). Both live in the user data directory by
 * default, beside (not in) the CLI's own `trc.sqlite`.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { defaultStorePath } from '../store/index.js';

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
 * beside it (`demo.sqlite` → `demo.world.sqlite`); an existing directory holds both default
 * names; none means {@link defaultDemoStore}.
 * @example demoPaths('/w', 'x.sqlite') // { store: '/w/x.sqlite', world: '/w/x.world.sqlite' }
 */
export function demoPaths(cwd: string, store: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): DemoPaths {
  let path = resolve(cwd, store ?? defaultDemoStore(env));
  if (existsSync(path) && statSync(path).isDirectory()) path = join(path, basename(DEMO_STORE_FILE));
  const ext = extname(path);
  const stem = ext === '' ? path : path.slice(0, -ext.length);
  return { store: path, world: `${stem}.world${ext === '' ? '.sqlite' : ext}` };
}

/** Create the parent directory; with `fresh`, delete both databases (and their WAL files) first. */
export function prepareDemoPaths(paths: DemoPaths, fresh: boolean): void {
  mkdirSync(dirname(paths.store), { recursive: true });
  mkdirSync(dirname(paths.world), { recursive: true });
  if (!fresh) return;
  for (const file of [paths.store, paths.world]) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
  }
}

/**
 * Where the demo keeps its two SQLite files: the trc store (audit, ledger, resources) and the
 * business world (orders, items, stock, charges). Both live under `./.trc/` by default.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';

/** The default trc store of the demo, relative to the working directory. */
export const DEFAULT_DEMO_STORE = '.trc/demo.sqlite';

/** Resolved paths of one demo run. */
export interface DemoPaths {
  readonly store: string;
  readonly world: string;
}

/**
 * Resolve `--store`: a file path names the trc store and the world sits beside it
 * (`demo.sqlite` → `demo.world.sqlite`); an existing directory holds both default names.
 * @example demoPaths('/tmp/x', undefined) // { store: '/tmp/x/.trc/demo.sqlite', world: '/tmp/x/.trc/demo.world.sqlite' }
 */
export function demoPaths(cwd: string, store: string | undefined): DemoPaths {
  let path = resolve(cwd, store ?? DEFAULT_DEMO_STORE);
  if (existsSync(path) && statSync(path).isDirectory()) path = join(path, basename(DEFAULT_DEMO_STORE));
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

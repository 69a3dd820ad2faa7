/**
 * Whether a file the demo would write into (or, with `--fresh`, delete) is one the demo made:
 * `--store` may name any path, and a real store or a user's file there must be refused, never
 * wiped or filled with demo records. Read-only look: nothing is created or migrated.
 */
import { existsSync, statSync } from 'node:fs';
import { openSqliteDatabase } from '../store/sqlite/driver.js';

/** The demo world's tables. */
const WORLD_TABLES = new Set(['orders', 'items', 'stock', 'charges']);

/** Why `path` is not the demo's, or null when it is (or does not exist yet). */
export function notDemoFile(path: string, kind: 'store' | 'world', demoTools: ReadonlySet<string>): string | null {
  if (!existsSync(path)) return null;
  if (!statSync(path).isFile()) return `${path} is not a file`;
  if (statSync(path).size === 0) return null;
  let db: ReturnType<typeof openSqliteDatabase> | undefined;
  try {
    db = openSqliteDatabase(path, { readonly: true });
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    if (kind === 'world') {
      const other = tables.filter((t) => !WORLD_TABLES.has(t));
      return other.length === 0 ? null : `${path} has tables the demo's world never makes (${other.slice(0, 3).join(', ')})`;
    }
    if (tables.length === 0) return null;
    if (!tables.includes('audit')) return `${path} is a database but not a trc store`;
    const tools = (db.prepare('SELECT DISTINCT tool FROM audit').all() as { tool: string }[]).map((t) => t.tool);
    const other = tools.filter((t) => !demoTools.has(t));
    return other.length === 0 ? null : `${path} is a trc store with calls of tools the demo does not have (${other.slice(0, 3).join(', ')})`;
  } catch (cause) {
    return `${path} is not a database the demo made (${(cause as Error).message})`;
  } finally {
    db?.close();
  }
}

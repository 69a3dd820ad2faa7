import { hostname } from 'node:os';
import type { SqlDatabase } from './driver.js';

/**
 * Identifies the process writing an uncommitted resource, so a later open can tell if it died:
 * `host/pid` (a host name holds no `/`). Files written before used a NUL separator, which
 * node:sqlite cuts a bound string at; both are read.
 */
export function currentWriter(): string {
  return `${hostname()}/${process.pid}`;
}

/**
 * True when an uncommitted resource can be removed: its writer ran on this host and that
 * process is gone, or it has not been touched for `staleMs` (a writer on another host).
 */
export function writerIsGone(writer: string, touchedMs: number, nowMs: number, staleMs: number): boolean {
  if (nowMs - touchedMs > staleMs) return true;
  const cut = writer.includes('\u0000') ? writer.indexOf('\u0000') : writer.lastIndexOf('/');
  if (cut === -1) return false;
  const host = writer.slice(0, cut);
  const pidText = writer.slice(cut + 1);
  if (host !== hostname()) return false;
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Delete the uncommitted results whose writer is gone (run at open: a crashed process leaves them). */
export function removeAbandonedResources(db: SqlDatabase, staleWriterMs: number): void {
  const rows = db.prepare('SELECT id, writer, touched_ms FROM resources WHERE committed = 0').all() as { id: string; writer: string; touched_ms: number }[];
  const now = Date.now();
  const remove = db.prepare('DELETE FROM resources WHERE id = ? AND committed = 0');
  for (const row of rows) {
    if (writerIsGone(row.writer, row.touched_ms, now, staleWriterMs)) remove.run(row.id);
  }
}

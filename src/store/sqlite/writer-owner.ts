import { hostname } from 'node:os';

/** Identifies the process writing an uncommitted resource, so a later open can tell if it died. */
export function currentWriter(): string {
  return `${hostname()}\u0000${process.pid}`;
}

/**
 * True when an uncommitted resource can be removed: its writer ran on this host and that
 * process is gone, or it has not been touched for `staleMs` (a writer on another host).
 */
export function writerIsGone(writer: string, touchedMs: number, nowMs: number, staleMs: number): boolean {
  if (nowMs - touchedMs > staleMs) return true;
  const [host, pidText] = writer.split('\u0000');
  if (host !== hostname() || pidText === undefined) return false;
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

/**
 * Periodic removal of expired handles and stored results while a gateway runs: reads already
 * refuse them, but without a sweep a long-running gateway's store only grows. With a retention
 * set, the audit records older than it go too.
 */
import { pruneAuditBefore, type Store } from '../store/index.js';

/** How often a running gateway sweeps its store. */
export const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** What the sweeper also deletes. */
export interface SweepOptions {
  /** Delete the audit records of calls started more than this long ago (ms); absent: keep them. */
  readonly auditRetentionMs?: number;
}

/**
 * Sweep now and then every `everyMs` until the returned function is called. Failures are
 * reported through `onError` and never stop the gateway.
 * @example const stop = startSweeper(store, (e) => log(e.message)); … stop();
 */
export function startSweeper(store: Store, onError: (error: Error) => void = () => undefined, everyMs: number = SWEEP_EVERY_MS, options: SweepOptions = {}): () => void {
  const report = (error: unknown): void => onError(error instanceof Error ? error : new Error(String(error)));
  const retention = options.auditRetentionMs;
  const run = (): void => {
    const now = Date.now();
    store.sweepExpired(new Date(now).toISOString()).catch(report);
    if (retention !== undefined) pruneAuditBefore(store, new Date(now - retention).toISOString()).catch(report);
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

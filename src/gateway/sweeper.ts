/**
 * Periodic removal of expired handles and stored results while a gateway runs: reads already
 * refuse them, but without a sweep a long-running gateway's store only grows.
 */
import type { Store } from '../store/index.js';

/** How often a running gateway sweeps its store. */
export const SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Sweep now and then every `everyMs` until the returned function is called. Failures are
 * reported through `onError` and never stop the gateway.
 * @example const stop = startSweeper(store, (e) => log(e.message)); … stop();
 */
export function startSweeper(store: Store, onError: (error: Error) => void = () => undefined, everyMs: number = SWEEP_EVERY_MS): () => void {
  const run = (): void => {
    store.sweepExpired(new Date().toISOString()).catch((error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

import { isTrcError } from '../contract/index.js';
import type { Store } from './types.js';
import { STORE_ERROR_CODES, storeError } from './errors.js';
import { refuseUnstorableText } from './text-columns.js';

/** Re-throw a driver error as `STORE_BACKEND_ERROR` (cause kept); TrcErrors pass unchanged. */
export function asStoreError(error: unknown, operation: string): unknown {
  if (isTrcError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return storeError(STORE_ERROR_CODES.backend, `${operation} failed: ${message}`, { operation }, error);
}

/**
 * Wrap every method of a backend store so callers only ever see TrcErrors with stable codes,
 * never raw driver errors (SQLITE_BUSY, connection refused, ...).
 */
export function guardStore(store: Store): Store {
  const guard = <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        refuseUnstorableText(name, args);
        return await fn(...args);
      } catch (error) {
        throw asStoreError(error, name);
      }
    };
  return {
    createResource: guard('createResource', store.createResource.bind(store)),
    getResourceMeta: guard('getResourceMeta', store.getResourceMeta.bind(store)),
    async *readResource(id, from) {
      try {
        yield* store.readResource(id, from);
      } catch (error) {
        throw asStoreError(error, 'readResource');
      }
    },
    putHandle: guard('putHandle', store.putHandle.bind(store)),
    getHandle: guard('getHandle', store.getHandle.bind(store)),
    sweepExpired: guard('sweepExpired', store.sweepExpired.bind(store)),
    ledgerBegin: guard('ledgerBegin', store.ledgerBegin.bind(store)),
    ledgerUpdate: guard('ledgerUpdate', store.ledgerUpdate.bind(store)),
    ledgerClaim: guard('ledgerClaim', store.ledgerClaim.bind(store)),
    ledgerGet: guard('ledgerGet', store.ledgerGet.bind(store)),
    ledgerList: guard('ledgerList', store.ledgerList.bind(store)),
    appendAudit: guard('appendAudit', store.appendAudit.bind(store)),
    appendAuditBatch: guard('appendAuditBatch', store.appendAuditBatch.bind(store)),
    ...(store.appendAuditAndSettle === undefined ? {} : { appendAuditAndSettle: guard('appendAuditAndSettle', store.appendAuditAndSettle.bind(store)) }),
    getAudit: guard('getAudit', store.getAudit.bind(store)),
    listAudit: guard('listAudit', store.listAudit.bind(store)),
    ...(store.pruneAudit === undefined ? {} : { pruneAudit: guard('pruneAudit', store.pruneAudit.bind(store)) }),
    getState: guard('getState', store.getState.bind(store)),
    putState: guard('putState', store.putState.bind(store)),
    appendRunEvents: guard('appendRunEvents', store.appendRunEvents.bind(store)),
    listRunEvents: guard('listRunEvents', store.listRunEvents.bind(store)),
    close: guard('close', store.close.bind(store)),
  };
}

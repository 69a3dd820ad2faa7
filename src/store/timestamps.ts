import { STORE_ERROR_CODES, storeError } from './errors.js';

/**
 * Milliseconds since the epoch of an ISO-8601 timestamp. Stores order and filter by this number
 * (kept next to the original text) so that `+02:00` and `Z` forms compare correctly.
 */
export function timestampMs(value: string, pointer: string): number {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw storeError(STORE_ERROR_CODES.badTimestamp, `${pointer} is not a date-time: ${JSON.stringify(value)}`, { pointer });
  }
  return ms;
}

/** Validate an optional list limit (a non-negative safe integer). */
export function checkLimit(limit: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw storeError(STORE_ERROR_CODES.badFilter, `limit must be a non-negative integer, got ${String(limit)}`, { pointer: '/limit' });
  }
  return limit;
}

/** A prune batch size: a positive integer (the stores' `pruneAudit`). */
export function checkPruneLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw storeError(STORE_ERROR_CODES.badFilter, `limit must be a positive integer, got ${String(limit)}`, { pointer: '/limit' });
  }
  return limit;
}

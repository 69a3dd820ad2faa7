import { TrcError } from '../contract/index.js';

/**
 * Stable codes of the errors a store throws. Stores validate their input and throw only
 * {@link TrcError}s with one of these codes (driver errors are wrapped as `cause`).
 */
export const STORE_ERROR_CODES = {
  /** The store was closed; no further calls are accepted. */
  closed: 'STORE_CLOSED',
  /** `write`/`commit` on a writer that was already committed or aborted. */
  writerClosed: 'STORE_WRITER_CLOSED',
  /** `readResource` of an id that is unknown or not committed. */
  resourceNotFound: 'STORE_RESOURCE_NOT_FOUND',
  /** A chunk given to `ResourceWriter.write` is not a `Uint8Array`. */
  badChunk: 'STORE_BAD_CHUNK',
  /** `putHandle` with an id that already exists (handle ids must be fresh random tokens). */
  handleExists: 'STORE_HANDLE_EXISTS',
  /** `appendAudit` with a `callId` already recorded (one record per call). */
  auditExists: 'STORE_AUDIT_EXISTS',
  /** A timestamp field is not a parseable date-time. */
  badTimestamp: 'STORE_BAD_TIMESTAMP',
  /** A list filter is malformed (e.g. a negative `limit`). */
  badFilter: 'STORE_BAD_FILTER',
  /** A text field (key, call id, tool, principal, ...) holds a lone UTF-16 surrogate, which has no UTF-8 form. */
  badText: 'STORE_BAD_TEXT',
  /** A value to persist is not representable as JSON. */
  notJson: 'STORE_NOT_JSON',
  /** The database was migrated by a newer version of this library. */
  schemaTooNew: 'STORE_SCHEMA_TOO_NEW',
  /** The database (SQLite file, PostgreSQL schema) holds tables another program made; nothing was written. */
  schemaForeign: 'STORE_SCHEMA_FOREIGN',
  /** Bad options given to a store opener. */
  badOptions: 'STORE_BAD_OPTIONS',
  /** The driver package a store needs is not installed (`better-sqlite3`, `pg`); the message names it. */
  driverMissing: 'STORE_DRIVER_MISSING',
  /** The underlying database failed (cause attached). */
  backend: 'STORE_BACKEND_ERROR',
} as const;

/** One of {@link STORE_ERROR_CODES}. */
export type StoreErrorCode = (typeof STORE_ERROR_CODES)[keyof typeof STORE_ERROR_CODES];

/** Build a store error (internal helper; the public surface is the code list). */
export function storeError(code: StoreErrorCode, message: string, data?: Record<string, unknown>, cause?: unknown): TrcError {
  const options: { data?: Record<string, unknown>; cause?: unknown } = {};
  if (data !== undefined) options.data = data;
  if (cause !== undefined) options.cause = cause;
  return new TrcError(code, message, options);
}

/**
 * How much the memory store keeps. A process that runs on the defaults (the framework wrappers'
 * shared store, `createExecutor()` without a store) would otherwise hold every audit record and
 * every fitted result for its whole life: about 2.4 KB per call, never freed.
 */
import { STORE_ERROR_CODES, storeError } from './errors.js';

/** Audit records a memory store keeps unless told otherwise. */
export const DEFAULT_MAX_AUDIT_RECORDS = 10_000;

/** Bytes of committed resources a memory store keeps unless told otherwise (64 MiB). */
export const DEFAULT_MAX_RESOURCE_BYTES = 64 * 1024 * 1024;

/** Something a memory store dropped to stay within its limits. */
export interface MemoryEviction {
  /** An audit record (`id` is its call id) or a committed resource (`id` is the resource id; its handles go with it). */
  readonly kind: 'audit' | 'resource';
  readonly id: string;
  /** The limit that was passed: a record count for `audit`, a byte count for `resource`. */
  readonly limit: number;
}

/** The limits of one memory store, checked. */
export interface MemoryRetention {
  readonly maxAuditRecords: number;
  readonly maxResourceBytes: number;
  readonly onEvict: (event: MemoryEviction) => void;
}

/** A limit is a positive integer, or `Infinity` for none. */
function checkLimitOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Infinity || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0)) return value;
  throw storeError(STORE_ERROR_CODES.badOptions, `${name} must be a positive integer or Infinity, got ${String(value)}`, { pointer: `/${name}` });
}

/**
 * The default listener: one process warning per store and kind, naming the limit and the way
 * out, so a long-running agent on the defaults learns its audit trail is not being kept.
 */
function warnOnce(): (event: MemoryEviction) => void {
  const warned = new Set<MemoryEviction['kind']>();
  return (event) => {
    if (warned.has(event.kind)) return;
    warned.add(event.kind);
    const what = event.kind === 'audit' ? `audit records (limit ${event.limit} records)` : `stored results (limit ${event.limit} bytes)`;
    process.emitWarning(
      `tool-result-contract: the memory store is dropping its oldest ${what}. Use a SQLite or PostgreSQL store to keep them, or set the limit in createMemoryStore().`,
      { code: 'TRC_MEMORY_STORE_EVICTING' },
    );
  };
}

/**
 * Check the retention options of a memory store and fill in the defaults.
 * @example memoryRetention({}).maxAuditRecords // 10000
 */
export function memoryRetention(options: {
  readonly maxAuditRecords?: number;
  readonly maxResourceBytes?: number;
  readonly onEvict?: (event: MemoryEviction) => void;
}): MemoryRetention {
  if (options.onEvict !== undefined && typeof options.onEvict !== 'function') {
    throw storeError(STORE_ERROR_CODES.badOptions, 'onEvict must be a function', { pointer: '/onEvict' });
  }
  return {
    maxAuditRecords: checkLimitOption(options.maxAuditRecords, 'maxAuditRecords', DEFAULT_MAX_AUDIT_RECORDS),
    maxResourceBytes: checkLimitOption(options.maxResourceBytes, 'maxResourceBytes', DEFAULT_MAX_RESOURCE_BYTES),
    onEvict: options.onEvict ?? warnOnce(),
  };
}

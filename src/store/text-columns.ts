import { STORE_ERROR_CODES, storeError } from './errors.js';
import type { Store } from './types.js';

// With the u flag a string is read by code points: a valid pair is one astral code point, so
// only an unpaired half is in the Surrogate category.
const LONE_SURROGATE = /\p{Surrogate}/u;

type Fields = readonly (readonly [pointer: string, value: unknown])[];

const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});

/** The fields of a ledger-begin or audit input that SQLite and PostgreSQL keep as text columns. */
const columns = (value: unknown, names: readonly string[], prefix = ''): Fields => names.map((n) => [`${prefix}/${n}`, rec(value)[n]] as const);
const AUDIT = ['callId', 'tool', 'startedAt'];
const LEASE = (v: unknown, at: string): Fields => [[`${at}/lease/owner`, rec(rec(v)['lease'])['owner']]];

/**
 * The text-column arguments of each writing method, with their JSON Pointers. Values stored as
 * JSON (envelopes, details, run events, handle records) are not listed: JSON escapes a lone
 * surrogate, so they keep it.
 */
const WRITES: Readonly<Record<string, (args: readonly unknown[]) => Fields>> = {
  createResource: ([input]) => columns(input, ['principal', 'tool', 'mimeType', 'expiresAt']),
  putHandle: ([handle]) => columns(handle, ['id', 'expiresAt']),
  ledgerBegin: ([input]) => [...columns(input, ['key', 'tool', 'principal', 'argsDigest', 'callId', 'now']), ...LEASE(input, '')],
  ledgerUpdate: ([key, patch]) => [['/key', key], ['/now', rec(patch)['now']]],
  ledgerClaim: ([key, claim]) => [['/key', key], ...LEASE(claim, ''), ['/now', rec(claim)['now']]],
  appendAudit: ([record]) => columns(record, AUDIT),
  appendAuditBatch: ([records]) => (Array.isArray(records) ? records.flatMap((r, i) => columns(r, AUDIT, `/${i}`)) : []),
  appendAuditAndSettle: ([record, , key, patch]) => [...columns(record, AUDIT), ['/key', key], ['/now', rec(patch)['now']]],
  putState: ([input]) => columns(input, ['key', 'now']),
  appendRunEvents: ([input]) => columns(input, ['runId', 'now']),
};

/**
 * Refuse a write whose text column would not come back as given: a string with a lone UTF-16
 * surrogate has no UTF-8 form. PostgreSQL's driver turns it into U+FFFD, so two different
 * idempotency keys became one ledger entry (the second write taken for a replay of the first);
 * SQLite kept bytes that read back as other characters. Throws `STORE_BAD_TEXT` with the pointer.
 */
export function refuseUnstorableText(method: string, args: readonly unknown[]): void {
  const fields = WRITES[method];
  if (fields === undefined) return;
  for (const [pointer, value] of fields(args)) {
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) {
      throw storeError(STORE_ERROR_CODES.badText, `${method}: ${pointer} holds a lone UTF-16 surrogate, which cannot be stored as text without changing it`, { pointer });
    }
  }
}

/**
 * `store` with {@link refuseUnstorableText} before each writing method, for the memory store:
 * it could keep such strings, but a program tested on it must meet the same refusal it gets from
 * SQLite or PostgreSQL in production. (Those run it in their guard, `backend-guard.ts`.)
 */
export function refusingUnstorableText(store: Store): Store {
  const out: Record<string, unknown> = { ...store };
  for (const name of Object.keys(WRITES)) {
    const fn = (store as unknown as Record<string, unknown>)[name];
    if (typeof fn !== 'function') continue;
    out[name] = (...args: unknown[]): unknown => {
      try {
        refuseUnstorableText(name, args);
      } catch (error) {
        return Promise.reject(error);
      }
      return (fn as (...a: unknown[]) => unknown).apply(store, args);
    };
  }
  return out as unknown as Store;
}

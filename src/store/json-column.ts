import { STORE_ERROR_CODES, storeError } from './errors.js';
import type { AuditEncoding, AuditRecord } from './types.js';

/**
 * Encode a value for a JSON column. Every store persists `unknown` values as JSON text, so all
 * implementations (memory included) return what a JSON round trip returns: `undefined`
 * becomes `null`, and values JSON cannot carry (BigInt, cycles) are refused.
 */
export function encodeJson(value: unknown, pointer: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    throw storeError(STORE_ERROR_CODES.notJson, `value at ${pointer} cannot be stored as JSON`, { pointer }, cause);
  }
  return text ?? 'null';
}

/** Decode a JSON column written by {@link encodeJson}. */
export function decodeJson(text: string): unknown {
  return JSON.parse(text) as unknown;
}

/**
 * An audit record as JSON text. With the caller's `detailJson` the (usually large) detail is not
 * serialized a second time; the text is the same as `encodeJson(record)` when `detail` is last.
 */
export function encodeAuditRecord(record: AuditRecord, encoded: AuditEncoding | undefined, pointer = '/'): string {
  const detailJson = encoded?.detailJson;
  if (typeof detailJson !== 'string') return encodeJson(record, pointer);
  // A plain copy loop: object rest with an excluded key takes a slow generic path in V8.
  const head: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (key !== 'detail') head[key] = record[key as keyof AuditRecord];
  const headJson = encodeJson(head, pointer);
  return headJson === '{}' ? `{"detail":${detailJson}}` : `${headJson.slice(0, -1)},"detail":${detailJson}}`;
}

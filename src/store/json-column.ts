import { STORE_ERROR_CODES, storeError } from './errors.js';

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

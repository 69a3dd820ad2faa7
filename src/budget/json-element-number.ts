/**
 * The exact value of a JSON number from its scanned parts, equal to what `JSON.parse` gives,
 * without building a string in the common case.
 *
 * Fast path (Clinger): a mantissa of at most 15 significant digits is an exact double, and so
 * is 10^e for |e| ≤ 22; one multiplication or division of two exact doubles is rounded once,
 * correctly, which is also what `JSON.parse` yields. Anything else goes through `Number()` of
 * the text, which rounds correctly like `JSON.parse` — unless a double cannot hold the number
 * (see contract `isExactNumber`): then the value is `NaN`, so that statistics count it as
 * present but not numeric instead of using a changed number — as they count the string of
 * exact digits that the parsing path keeps for it.
 */

import { isExactNumber } from '../contract/index.js';

/** 10^0 … 10^22, all exact doubles. */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, e) => Number(`1e${e}`));

/** Significant digits a mantissa may have for the fast path (10^15 < 2^53). */
export const FAST_MANTISSA_DIGITS = 15;

/** The number text `bytes[from, to)` (ASCII by grammar) as a JavaScript string. */
function asciiText(bytes: Uint8Array, from: number, to: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString('latin1');
}

/**
 * The value of the JSON number `bytes[from, to)`, whose digits the scanner already folded into
 * `mantissa` (exact when `digits` ≤ {@link FAST_MANTISSA_DIGITS}) with decimal exponent
 * `exponent` (the written exponent minus the count of fraction digits; `NaN` when the written
 * exponent was too long to fold). A number a double cannot hold (`1e999`, 2^53 + 1) is `NaN`.
 * @example jsonNumberValue(Buffer.from('-1.5'), 0, 4, true, 15, 2, -1) // -1.5
 */
export function jsonNumberValue(bytes: Uint8Array, from: number, to: number, negative: boolean, mantissa: number, digits: number, exponent: number): number {
  if (digits <= FAST_MANTISSA_DIGITS && exponent >= -22 && exponent <= 22) {
    const v = exponent >= 0 ? mantissa * (POW10[exponent] as number) : mantissa / (POW10[-exponent] as number);
    return negative ? -v : v;
  }
  const text = asciiText(bytes, from, to);
  return isExactNumber(text) ? Number(text) : NaN;
}

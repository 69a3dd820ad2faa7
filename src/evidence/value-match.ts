/**
 * Does a value stated in text agree with some structured value? Tolerant of format (digit
 * grouping, rounding to the stated precision, time zone spelling, quote case/spacing), never of
 * meaning (a different number, moment, id or text).
 */
import { wallTimesAgree } from './datetime.js';
import type { TextValue } from './text-values.js';
import { foldForQuote, type ValuePool } from './value-pool.js';

function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/**
 * Equal up to floating-point noise (0.1 + 0.2 vs "0.3"), a few units in the last place. A looser
 * relative tolerance (it was 1e-9) let "1000000000" support 999,999,999.
 */
function nearlyEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= 4 * Number.EPSILON * Math.max(1, Math.abs(a), Math.abs(b));
}

function numberAgrees(stated: number, decimals: number, actual: number): boolean {
  if (nearlyEqual(stated, actual)) return true;
  // "27.4" may report 27.43; an integer claim must be exact ("17" is not 17.4).
  return decimals > 0 && nearlyEqual(roundTo(actual, decimals), stated);
}

/**
 * True when `value` agrees with at least one value in `pool`.
 * @example textValueAgrees({ kind: 'number', raw: '1,000', value: 1000, decimals: 0, percent: false }, pool)
 */
export function textValueAgrees(value: TextValue, pool: ValuePool): boolean {
  switch (value.kind) {
    case 'number':
      return pool.numbers.some(
        (n) =>
          numberAgrees(value.value, value.decimals, n) ||
          (value.percent && numberAgrees(value.value, value.decimals, n * 100)),
      );
    case 'datetime':
      return pool.times.some((t) => wallTimesAgree(value.value, t));
    case 'id':
      return pool.strings.has(value.value) || pool.tokens.has(value.value);
    case 'quote': {
      const q = foldForQuote(value.value);
      return q !== '' && pool.folded.some((s) => s === q || s.includes(q));
    }
  }
}

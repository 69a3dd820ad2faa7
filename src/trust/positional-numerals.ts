/**
 * Chinese, Japanese and Korean numbers written with place units: 八十二 (82), 一千二百三十四
 * (1234), 一千零五 (1005), 三万五 (35,000), 팔십이 (82). A number is a list of tokens, each a
 * digit (0–9) or a unit (10, 100, 1,000, 10,000, 100,000,000), read by the usual rules:
 *
 * - a digit multiplies the unit after it; a unit with no digit before it counts once (十二 = 12,
 *   and in Japanese and Korean 千 = 1,000);
 * - units fall from left to right within a group of ten thousand, and 万/億 close a group;
 * - a digit after the last unit is the ones in Japanese and Korean (四千五, 사천오 = 4,005), but
 *   one place below that unit in spoken Chinese (四千五 = 4,500, 三万五 = 35,000; 4,005 is
 *   四千零五): the caller says which ({@link PositionalReading}); after 零 or 十 it is the ones;
 * - leading 零 are leading zeros.
 *
 * Two digits in a row (二三十, "twenty or thirty") or units out of order are not one number.
 */

/** Units that close a group (万, 億). */
const GROUP = 10_000;
/** Tokens past this are not read as one number (a number this long is no value to write down). */
export const MAX_POSITIONAL_TOKENS = 32;

/** How a digit after the last unit reads: the ones, or one place below that unit (spoken Chinese). */
export type PositionalReading = 'ones' | 'place_below';

/**
 * The number `tokens` write, in decimal digits, or null when they are not one number.
 * @example positionalValue([8, 10, 2], 'ones') // '82'
 * @example positionalValue([1, 1000, 0, 5], 'ones') // '1005'
 * @example positionalValue([4, 1000, 5], 'place_below') // '4500'
 */
export function positionalValue(tokens: readonly number[], reading: PositionalReading): string | null {
  const n = tokens.length;
  if (n === 0 || n > MAX_POSITIONAL_TOKENS) return null;
  let k = 0;
  while (k < n && tokens[k] === 0) k++;
  const leadingZeros = k;
  let total = 0; // groups closed by 万 or 億
  let section = 0; // the open group, below 万
  let pending = -1; // a digit waiting for its unit
  let lastSmall = GROUP; // the last unit below 万 in the open group: the next must be smaller
  let lastBig = Infinity; // the last 万/億: the next must be smaller
  let lastUnit = 1; // the last unit of any kind, for a digit that ends the number or a group
  let zeroSince = false; // a 零 since the last unit: a digit after it is the ones
  // A digit no unit followed: the ones, or in spoken Chinese one place below the last unit
  // unless a 零 came between.
  const below = reading === 'place_below';
  const trailing = (): number => (pending < 0 ? 0 : below && !zeroSince && lastUnit > 10 ? (pending * lastUnit) / 10 : pending);
  for (; k < n; k++) {
    const t = tokens[k] ?? -1;
    if (t >= 0 && t < 10) {
      if (pending >= 0) return null;
      if (t === 0) zeroSince = true;
      else pending = t;
      continue;
    }
    if (t === 10 || t === 100 || t === 1000) {
      if (t >= lastSmall) return null;
      section += (pending < 0 ? 1 : pending) * t;
      lastSmall = t;
    } else if (t === GROUP || t === 100_000_000) {
      if (t >= lastBig) return null;
      const group = section + trailing();
      total += (group === 0 ? 1 : group) * t;
      section = 0;
      lastSmall = GROUP;
      lastBig = t;
    } else {
      return null;
    }
    pending = -1;
    lastUnit = t;
    zeroSince = false;
  }
  if (leadingZeros === n) return '0'.repeat(n);
  const value = total + section + trailing();
  return Number.isSafeInteger(value) ? '0'.repeat(leadingZeros) + String(value) : null;
}

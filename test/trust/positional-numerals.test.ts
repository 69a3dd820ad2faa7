import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positionalValue } from '../../src/trust/positional-numerals.js';

// Writers of our own for the property tests: numbers as Chinese writes them formally (零 where a
// place is skipped) and as Japanese writes them (no 零, no 一 before 十, 百 and 千).
const DIGITS = '零一二三四五六七八九';
const PLACES: readonly [number, string][] = [[1000, '千'], [100, '百'], [10, '十'], [1, '']];
const TOKEN: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1000, 万: 10_000, 億: 100_000_000, 亿: 100_000_000 };
const tokensOf = (written: string): number[] => [...written].map((ch) => (DIGITS.includes(ch) ? DIGITS.indexOf(ch) : (TOKEN[ch] ?? NaN)));

function chineseGroup(n: number): string {
  let out = '';
  let skipped = false;
  for (const [place, unit] of PLACES) {
    const d = Math.floor(n / place) % 10;
    if (d === 0) { skipped ||= out !== ''; continue; }
    if (skipped) out += '零';
    skipped = false;
    out += DIGITS[d] + unit;
  }
  return out;
}
function chinese(n: number): string {
  const high = Math.floor(n / 10_000);
  const low = n % 10_000;
  let out = high > 0 ? `${chineseGroup(high)}万` : '';
  if (low > 0) out += (high > 0 && low < 1000 ? '零' : '') + chineseGroup(low);
  return out;
}
function japaneseGroup(n: number): string {
  return PLACES.map(([place, unit]) => {
    const d = Math.floor(n / place) % 10;
    return d === 0 ? '' : (d === 1 && place > 1 ? '' : DIGITS[d]) + unit;
  }).join('');
}
function japanese(n: number): string {
  const high = Math.floor(n / 10_000);
  return (high > 0 ? `${high === 1 ? '一' : japaneseGroup(high)}万` : '') + japaneseGroup(n % 10_000);
}

describe('numbers written with place units', () => {
  it('reads the usual forms', () => {
    const read = (w: string, reading: 'ones' | 'place_below' = 'ones') => positionalValue(tokensOf(w), reading);
    expect(read('八十二')).toBe('82');
    expect(read('十二')).toBe('12');
    expect(read('一千二百三十四')).toBe('1234');
    expect(read('一千零五')).toBe('1005');
    expect(read('一亿二千万')).toBe('120000000');
    expect(read('二十万五千')).toBe('205000');
    expect(read('零零四十四')).toBe('0044');
    expect(read('四千五')).toBe('4005');
    expect(read('四千五', 'place_below')).toBe('4500');
    expect(read('三万五', 'place_below')).toBe('35000');
    expect(read('四千零五', 'place_below')).toBe('4005');
  });

  it('reads no number where two digits meet or units do not fall', () => {
    for (const w of ['二三十', '十百', '一千二千', '一万二万', '三五']) expect(positionalValue(tokensOf(w), 'ones'), w).toBeNull();
  });

  it('reads back every number below 10^8 as Chinese writes it, in either reading (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => {
      expect(positionalValue(tokensOf(chinese(n)), 'ones')).toBe(String(n));
      expect(positionalValue(tokensOf(chinese(n)), 'place_below')).toBe(String(n));
    }), { numRuns: 3000 });
  });

  it('reads back every number below 10^8 as Japanese writes it (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => {
      expect(positionalValue(tokensOf(japanese(n)), 'ones')).toBe(String(n));
    }), { numRuns: 3000 });
  });

  it('takes any list of tokens without throwing, and answers digits or null (fuzz)', () => {
    const token = fc.constantFrom(0, 1, 2, 5, 9, 10, 100, 1000, 10_000, 100_000_000, 7.5, -1, 11);
    fc.assert(fc.property(fc.array(token, { maxLength: 40 }), fc.constantFrom('ones' as const, 'place_below' as const), (tokens, reading) => {
      const value = positionalValue(tokens, reading);
      if (value !== null) expect(value).toMatch(/^[0-9]+$/);
    }), { numRuns: 2000 });
  });
});

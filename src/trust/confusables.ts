/**
 * Look-alike folding from Unicode's confusables table (UTS #39, see confusables-table.ts), plus
 * the default-ignorable and filler code points the normalizer removes.
 */
import { CONFUSABLES } from './confusables-table.js';

let table: Map<number, string> | undefined;

/** The confusables prototype of a non-ASCII code point, if Unicode lists one. */
export function confusablePrototype(cp: number): string | undefined {
  if (table === undefined) {
    table = new Map();
    for (const line of CONFUSABLES.split('\n')) {
      const src = line.codePointAt(0);
      if (src !== undefined) table.set(src, line.slice(src > 0xffff ? 2 : 1));
    }
  }
  return table.get(cp);
}

const DEFAULT_IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;

/**
 * Code points a reader does not see: Unicode's Default_Ignorable_Code_Point set (zero-width
 * characters, joiners, soft hyphen, variation selectors, Hangul fillers U+115F/U+1160/U+3164/
 * U+FFA0, tag characters, bidi controls…) plus blank "fillers" that render as nothing or a gap
 * but are not whitespace (Braille blank U+2800, Khmer vowel inherents, combining grapheme joiner).
 */
export function isInvisible(cp: number): boolean {
  if (cp === 0x2800 || cp === 0x034f || cp === 0x17b4 || cp === 0x17b5) return true;
  return DEFAULT_IGNORABLE.test(String.fromCodePoint(cp));
}

/**
 * Decimal digits of every script as the ASCII digit they stand for. NFKC folds fullwidth and
 * mathematical digits, but not Arabic-Indic (٨٢), Devanagari (८२), Thai, Bengali and the other
 * scripts' own digits, and the confusables table maps several of those to Latin letters
 * (١ → l, ٥ → o). A model reads "GB٨٢" as GB82 all the same, so taint must too.
 *
 * Unicode encodes every decimal digit (General Category Nd) in runs of ten, 0 to 9, in order,
 * so a digit's value is its distance from the start of its run, modulo ten (the mathematical
 * digits are five runs back to back). The ranges below hold every Nd code point outside ASCII
 * as of Unicode 17 (a run added later between U+104A0 and U+1E959 is read too: the category
 * itself is asked of the runtime).
 */

const ND = /^\p{Nd}$/u;
const isNd = (cp: number): boolean => ND.test(String.fromCodePoint(cp));

/** Where no decimal digit can be: most text (Latin, Greek, Cyrillic, CJK, kana, Hangul) is here. */
const cannotBeDigit = (cp: number): boolean =>
  cp < 0x660 || (cp > 0x1c59 && cp < 0xa620) || (cp > 0xabf9 && cp < 0xff10) || (cp > 0xff19 && cp < 0x104a0) || (cp > 0x1e959 && cp < 0x1fbf0) || cp > 0x1fbf9;

// Code point → its digit, or -1; bounded, like the other per-character memos of the trust module.
const memo = new Map<number, number>();
const MEMO_LIMIT = 4096;
/** The longest run of decimal digits (the mathematical ones) is 50 code points. */
const LONGEST_RUN = 50;

/**
 * The value (0–9) of decimal digit `cp` of any script, or -1 when `cp` is no decimal digit.
 * @example decimalDigit(0x668) // 8 (ARABIC-INDIC DIGIT EIGHT)
 */
export function decimalDigit(cp: number): number {
  if (cp < 0x80) return cp >= 0x30 && cp <= 0x39 ? cp - 0x30 : -1;
  if (cannotBeDigit(cp)) return -1;
  let value = memo.get(cp);
  if (value === undefined) {
    value = -1;
    if (isNd(cp)) {
      let start = cp;
      while (cp - start < LONGEST_RUN && isNd(start - 1)) start--;
      value = (cp - start) % 10;
    }
    if (memo.size < MEMO_LIMIT) memo.set(cp, value);
  }
  return value;
}

// Where a decimal digit outside ASCII can be (a high surrogate for the astral ones): a plain
// character class, which V8 scans many times faster than \p{Nd} in a Unicode-mode expression.
const CANDIDATE = /[\u0660-\u1c59\ua620-\uabf9\uff10-\uff19\ud801-\ud83e]/g;

/**
 * `text` with every decimal digit outside ASCII written as the ASCII digit; the same string when
 * there is none (one native scan).
 * @example withAsciiDigits('GB٨٢ WEST') // 'GB82 WEST'
 */
export function withAsciiDigits(text: string): string {
  CANDIDATE.lastIndex = 0;
  let out = '';
  let from = 0;
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    const cp = text.codePointAt(m.index) ?? 0;
    const digit = decimalDigit(cp);
    if (digit < 0) continue;
    out += text.slice(from, m.index) + String.fromCharCode(0x30 + digit);
    from = m.index + (cp > 0xffff ? 2 : 1);
    CANDIDATE.lastIndex = from;
  }
  return from === 0 ? text : out + text.slice(from);
}

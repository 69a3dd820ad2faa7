/**
 * What the normalizer makes of each code point, as one table lookup for the detector's fast
 * path: the folded unit and its kind (word letter, separator, whitespace, removed, hidden…).
 * Built lazily from the normalizer's own folding (normalize-text), so the fast path reads text
 * exactly as the detector will after normalization, without normalizing it.
 */
import { cjkAnchorStarts } from './cjk-phrases.js';
import { foldCodePoint, INVISIBLE, isBenignInvisible, isBidiControl, whitespaceKind } from './normalize-text.js';
import { isWordChar } from './phrase-matcher.js';

/** Kinds of a folded code point. */
export const K_WORD = 1;
/** Not part of a word; the unit is what normalized text holds. */
export const K_SEP = 2;
/** Whitespace: one space (or line break) in normalized text. */
export const K_SPACE = 3;
/** Removed without a trace (joiners, variation selectors, combining marks). */
export const K_SKIP = 4;
/** Removed, and reported when it sits inside a word (zero-width characters, fillers). */
export const K_HIDDEN_IN_WORD = 5;
/** Always reported (bidi controls). */
export const K_HIDDEN = 6;
/** Folds to several units: see {@link multiFold}. */
export const K_MULTI = 7;
/** The first unit of a CJK override anchor. */
export const K_CJK = 8;

const table = new Int32Array(0x10000);
const multi = new Map<number, string>();
let anchors: ReadonlySet<number> | undefined;

/** Kind of a unit that is already folded (a unit of normalized text). */
export function kindOfFolded(u: number): number {
  anchors ??= cjkAnchorStarts();
  if (isWordChar(u)) return K_WORD;
  return anchors.has(u) ? K_CJK : K_SEP;
}

function classify(cp: number): number {
  if (cp < 0x80) {
    if (cp === 0x20 || (cp >= 0x09 && cp <= 0x0d)) return (K_SPACE << 16) | 0x20;
    const u = cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
    return (kindOfFolded(u) << 16) | u;
  }
  if (whitespaceKind(cp) !== 0) return (K_SPACE << 16) | 0x20;
  const folded = foldCodePoint(cp);
  if (folded === INVISIBLE) {
    if (isBidiControl(cp)) return K_HIDDEN << 16;
    return (isBenignInvisible(cp) ? K_SKIP : K_HIDDEN_IN_WORD) << 16;
  }
  if (folded.length === 0) return K_SKIP << 16;
  if (folded.length === 1) {
    const u = folded.charCodeAt(0);
    return (kindOfFolded(u) << 16) | u;
  }
  multi.set(cp, folded);
  return K_MULTI << 16;
}

/**
 * `(kind << 16) | unit` for a BMP code unit (a lone surrogate reads as itself).
 * @example foldEntry(0x0430) & 0xffff // 0x61: Cyrillic а reads as a
 */
export function foldEntry(unit: number): number {
  let e = table[unit] ?? 0;
  if (e === 0) {
    e = classify(unit);
    table[unit] = e;
  }
  return e;
}

/** The folded units of a code point of kind {@link K_MULTI} (or of an astral one). */
export function multiFold(cp: number): string {
  return multi.get(cp) ?? foldCodePoint(cp);
}

/**
 * Kind and unit of an astral code point, like {@link foldEntry}; several units are K_MULTI.
 * Tag characters are K_HIDDEN (the caller handles them: they smuggle ASCII).
 */
export function astralEntry(cp: number): number {
  if (cp >= 0xe0000 && cp <= 0xe007f) return K_HIDDEN << 16;
  const folded = foldCodePoint(cp);
  if (folded === INVISIBLE) return (isBenignInvisible(cp) ? K_SKIP : K_HIDDEN_IN_WORD) << 16;
  if (folded.length === 0) return K_SKIP << 16;
  if (folded.length === 1) {
    const u = folded.charCodeAt(0);
    return (kindOfFolded(u) << 16) | u;
  }
  return K_MULTI << 16;
}

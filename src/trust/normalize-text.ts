/**
 * Text normalization for the instruction detector (T7), with an offset map back to the input.
 *
 * One left-to-right pass over code points: Unicode tag characters (U+E0000–E007F) are decoded to
 * the ASCII they smuggle; every other default-ignorable or filler code point (zero-width
 * characters, bidi controls, variation selectors, Hangul fillers…) is removed; each remaining
 * non-ASCII character is NFKC-folded, lower-cased, stripped of combining marks and folded to its
 * prototype in Unicode's confusables table (Cyrillic, Greek, Armenian, Cherokee, mathematical
 * letters… → Latin); whitespace runs collapse to one space (or one newline when the run held a
 * line break, so line-start rules still work). Per-code-point folding is cached, so the pass is
 * linear in the input length.
 */
import { confusablePrototype, isInvisible } from './confusables.js';

/** What the normalizer removed or decoded that a reader of the rendered text would not see. */
export interface HiddenUnicode {
  /** Unicode tag characters (decoded or dropped). */
  readonly tagChars: number;
  /** Bidi embedding/override/isolate controls (U+202A–202E, U+2066–2069). */
  readonly bidiControls: number;
  /** Invisible characters (zero-width, fillers) sitting between two letters: a word split to dodge filters. */
  readonly zeroWidthInWords: number;
  /** Original [start, end) ranges of the hidden characters, at most {@link MAX_HIDDEN_RANGES}. */
  readonly ranges: readonly (readonly [number, number])[];
}

/** The normalized text and, per UTF-16 unit of it, where it came from in the original. */
export interface NormalizedText {
  readonly text: string;
  /** `starts[i]` is the original offset of the character that produced `text[i]`. */
  readonly starts: Uint32Array;
  /** `ends[i]` is the original end offset (exclusive) of that character. */
  readonly ends: Uint32Array;
  readonly hidden: HiddenUnicode;
}

/** Hidden ranges kept for span reporting; counts stay exact beyond it. */
export const MAX_HIDDEN_RANGES = 64;

// Punctuation look-alikes folded to ASCII before the confusables table (which maps some of them
// to other non-ASCII forms).
const PUNCTUATION: Readonly<Record<string, string>> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u2033': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2212': '-',
};

const COMBINING = /\p{M}/gu;
const UTF16 = new TextDecoder('utf-16le');
// Folded form per BMP code point (undefined = not computed yet); astral ones in a bounded map.
const bmpCache: (string | undefined)[] = new Array<string | undefined>(0x10000);
const astralCache = new Map<number, string>();
/** What {@link foldCodePoint} returns for a code point that is not rendered at all. */
export const INVISIBLE = '\u0000invisible';

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** Lower-case and drop combining marks where the base letter is Latin, Greek, Cyrillic or Armenian. */
function bare(ch: string): string {
  const lower = ch.toLowerCase();
  const stripped = lower.normalize('NFD').replace(COMBINING, '');
  let alphabetic = true;
  for (let i = 0; i < stripped.length; i++) if (stripped.charCodeAt(i) >= 0x590) alphabetic = false;
  return alphabetic ? stripped.normalize('NFC') : lower;
}

/**
 * Fold one character (already NFKC): marks and case, then its confusables prototype when that
 * is ASCII (trying the lower-case form first: `І` → `і` → `i`, not `l`). A prototype outside
 * ASCII is not taken, so Cyrillic, CJK or Hangul text keeps its own letters.
 */
function foldChar(ch: string): string {
  const punct = PUNCTUATION[ch];
  if (punct !== undefined) return punct;
  const b = bare(ch);
  if (isAscii(b)) return b;
  for (const start of [b, ch]) {
    let cur = start;
    for (let depth = 0; depth < 2; depth++) {
      const proto = confusablePrototype(cur.codePointAt(0) ?? 0);
      if (proto === undefined) break;
      const p = bare(proto.normalize('NFKC'));
      if (isAscii(p)) return PUNCTUATION[proto] ?? p;
      if (p.length !== 1) break;
      cur = p;
    }
  }
  return b;
}

/** Fold one non-ASCII code point; {@link INVISIBLE} when it is not rendered at all. */
export function foldCodePoint(cp: number): string {
  const cached = cp < 0x10000 ? bmpCache[cp] : astralCache.get(cp);
  if (cached !== undefined) return cached;
  let out: string;
  if (isInvisible(cp)) out = INVISIBLE;
  else {
    out = '';
    for (const ch of String.fromCodePoint(cp).normalize('NFKC')) out += foldChar(ch);
  }
  if (cp < 0x10000) bmpCache[cp] = out;
  else if (astralCache.size < 65_536) astralCache.set(cp, out);
  return out;
}

// Invisible characters that are ordinary in real text and not worth reporting: joiners inside
// emoji and Indic scripts, variation selectors, direction marks, soft hyphens.
export function isBenignInvisible(cp: number): boolean {
  return cp === 0x200c || cp === 0x200d || cp === 0x200e || cp === 0x200f || cp === 0x061c || cp === 0x00ad ||
    (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0x180b && cp <= 0x180f);
}

export function isBidiControl(cp: number): boolean {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/** 0 = not whitespace, 1 = blank, 2 = line break. */
export function whitespaceKind(cp: number): 0 | 1 | 2 {
  if (cp === 0x0a || cp === 0x0d || cp === 0x0b || cp === 0x0c || cp === 0x85 || cp === 0x2028 || cp === 0x2029) return 2;
  if (cp === 0x20 || cp === 0x09 || cp === 0xa0 || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x202f || cp === 0x205f || cp === 0x3000) return 1;
  return 0;
}

/** A letter of any script (after folding most are ASCII). */
export function isLetterUnit(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0xc0 && code !== 0xd7 && code !== 0xf7);
}

/**
 * Normalize `input` for matching and keep the offset map.
 * @example normalizeText('I\u200Bgnore  ＰＲＥＶＩＯＵＳ').text // 'ignore previous'
 */
export function normalizeText(input: string): NormalizedText {
  let cap = input.length + 16;
  let out = new Uint16Array(cap);
  let starts = new Uint32Array(cap);
  let ends = new Uint32Array(cap);
  let n = 0;
  let tagChars = 0;
  let bidiControls = 0;
  let zeroWidthInWords = 0;
  const ranges: [number, number][] = [];
  const hide = (start: number, end: number): void => {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === start) last[1] = end;
    else if (ranges.length < MAX_HIDDEN_RANGES) ranges.push([start, end]);
  };
  const grow = (extra: number): void => {
    if (n + extra <= cap) return;
    cap = Math.max(cap * 2, n + extra);
    const o = new Uint16Array(cap); o.set(out); out = o;
    const s = new Uint32Array(cap); s.set(starts); starts = s;
    const e = new Uint32Array(cap); e.set(ends); ends = e;
  };
  const emit = (code: number, start: number, end: number): void => {
    grow(1);
    out[n] = code; starts[n] = start; ends[n] = end; n++;
  };
  // Last emitted unit was whitespace (32 or 10): collapse the run into it.
  let lastSpace = true;
  const len = input.length;
  let i = 0;
  while (i < len) {
    const code = input.charCodeAt(i);
    if (code < 0x80) {
      // Hot path, inlined: ASCII emits at most one unit per input unit.
      if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
        const nl = code !== 0x20 && code !== 0x09;
        if (!lastSpace) {
          if (n >= cap) grow(1);
          out[n] = nl ? 10 : 32; starts[n] = i; ends[n] = i + 1; n++;
          lastSpace = true;
        } else if (nl && n > 0 && out[n - 1] === 32) out[n - 1] = 10;
      } else {
        if (n >= cap) grow(1);
        out[n] = code >= 0x41 && code <= 0x5a ? code + 32 : code; starts[n] = i; ends[n] = i + 1; n++;
        lastSpace = false;
      }
      i++;
      continue;
    }
    const cp = input.codePointAt(i) ?? code;
    const size = cp > 0xffff ? 2 : 1;
    const end = i + size;
    if (cp >= 0xe0000 && cp <= 0xe007f) {
      tagChars++;
      hide(i, end);
      if (cp >= 0xe0020 && cp <= 0xe007e) {
        const ascii = cp - 0xe0000;
        emit(ascii >= 0x41 && ascii <= 0x5a ? ascii + 32 : ascii, i, end);
        lastSpace = ascii === 32;
      }
      i = end;
      continue;
    }
    const ws = whitespaceKind(cp);
    if (ws !== 0) {
      if (!lastSpace) { emit(ws === 2 ? 10 : 32, i, end); lastSpace = true; }
      else if (ws === 2 && n > 0 && out[n - 1] === 32) out[n - 1] = 10;
      i = end;
      continue;
    }
    const folded = foldCodePoint(cp);
    if (folded === INVISIBLE) {
      if (isBidiControl(cp)) {
        bidiControls++;
        hide(i, end);
      } else if (!isBenignInvisible(cp) && n > 0 && isLetterUnit(out[n - 1] ?? 0)) {
        // Skip further invisibles to see whether a letter follows: "i\u3164\u3164g".
        let k = end;
        while (k < len) {
          const next = input.codePointAt(k) ?? 0;
          if (next < 0x80 || foldCodePoint(next) !== INVISIBLE) break;
          k += next > 0xffff ? 2 : 1;
        }
        if (k < len && isLetterUnit(input.charCodeAt(k))) {
          zeroWidthInWords++;
          hide(i, end);
        }
      }
    } else {
      for (let k = 0; k < folded.length; k++) emit(folded.charCodeAt(k), i, end);
      if (folded.length > 0) lastSpace = false;
    }
    i = end;
  }
  const text = UTF16.decode(out.subarray(0, n));
  return {
    text,
    starts: starts.subarray(0, n),
    ends: ends.subarray(0, n),
    hidden: { tagChars, bidiControls, zeroWidthInWords, ranges },
  };
}

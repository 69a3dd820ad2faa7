/**
 * The form in which argument taint compares text (SPEC T3): only *significant* characters —
 * letters and digits of any script — survive, NFKC-folded, lower-cased, digits of every script
 * as ASCII digits (`٨٢` is `82`), tag characters and regional indicators as the ASCII letters
 * they stand for, and look-alikes folded to their ASCII prototype (the detector's own per-character fold); whitespace,
 * punctuation, invisible and filler characters are dropped. `DE89 3704-0044` and `de8937040044`
 * read the same, so do `Evil.Test` and `e v i l . t e s t`. Escaped forms (URL `%XX`, HTML
 * entities, `\u` escapes, nested once) are further views of the same text. One linear pass each.
 */
import { decimalDigit } from './decimal-digits.js';
import { foldCodePoint, INVISIBLE } from './normalize-text.js';
import { unescapedView } from './text-views.js';

/** Fewest significant characters a value must share with untrusted text to be tainted. */
export const TAINT_MIN_CHARS = 6;

const SIGNIFICANT = /^[\p{L}\p{N}]$/u;
const significantCache = new Map<string, boolean>();

function isSignificant(ch: string): boolean {
  let hit = significantCache.get(ch);
  if (hit === undefined) {
    hit = SIGNIFICANT.test(ch);
    if (significantCache.size < 65_536) significantCache.set(ch, hit);
  }
  return hit;
}

// The folded units of the text being read, reused from call to call (grown when a text needs it):
// most texts are short, and a typed array per call cost more than the pass itself.
let units = new Uint16Array(1024);
let used = 0;

function put(code: number): void {
  if (used === units.length) {
    const grown = new Uint16Array(units.length * 2);
    grown.set(units);
    units = grown;
  }
  units[used++] = code;
}

/** The ASCII unit a tag character (U+E0020–U+E007E) or regional indicator (U+1F1E6–U+1F1FF) stands for, or -1. */
function smuggledAscii(cp: number): number {
  if (cp >= 0xe0020 && cp <= 0xe007e) return cp - 0xe0000;
  return cp <= 0x1f1ff ? 0x61 + cp - 0x1f1e6 : -1;
}

/** Whether `c` is a unit the taint form keeps as it is (an ASCII digit or lower-case letter). */
const kept = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);

/**
 * The significant characters of `text`, folded.
 * @example taintForm('DE89 3704-0044') // 'de8937040044'
 */
export function taintForm(text: string): string {
  const n = text.length;
  // Identifiers and other texts already in the form come back as they are.
  let start = 0;
  while (start < n && kept(text.charCodeAt(start))) start++;
  if (start === n) return text;
  used = 0;
  for (let i = 0; i < start; i++) put(text.charCodeAt(i));
  for (let i = start; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (kept(c)) put(c);
      else if (c >= 0x41 && c <= 0x5a) put(c | 0x20);
      continue;
    }
    const cp = text.codePointAt(i) ?? c;
    if (cp > 0xffff) i++;
    // A digit of another script is the digit it stands for (the look-alike fold would make
    // some of them letters: ١ → l).
    const digit = decimalDigit(cp);
    if (digit >= 0) {
      put(0x30 + digit);
      continue;
    }
    // Letters a model reads that no fold gives: tag characters (invisible ASCII, "ASCII
    // smuggling") and regional indicators (🇬 🇧).
    const letter = cp < 0x1f1e6 ? -1 : smuggledAscii(cp);
    if (letter >= 0) {
      if (kept(letter)) put(letter);
      else if (letter >= 0x41 && letter <= 0x5a) put(letter | 0x20);
      continue;
    }
    const folded = foldCodePoint(cp);
    if (folded === INVISIBLE) continue;
    for (const ch of folded) {
      const code = ch.charCodeAt(0);
      if (code < 0x80) {
        if (kept(code)) put(code);
        else if (code >= 0x41 && code <= 0x5a) put(code | 0x20);
      } else if (isSignificant(ch)) {
        const lower = ch.toLowerCase();
        for (let k = 0; k < lower.length; k++) put(lower.charCodeAt(k));
      }
    }
  }
  // One flat string at the end: the index reads its characters a million times, and a
  // concatenated rope would be slow to read. (Slices keep fromCharCode's arguments few.)
  if (used <= 8192) return String.fromCharCode.apply(null, units.subarray(0, used) as unknown as number[]);
  const parts: string[] = [];
  for (let s = 0; s < used; s += 8192) parts.push(String.fromCharCode.apply(null, units.subarray(s, Math.min(used, s + 8192)) as unknown as number[]));
  // A buffer grown for one large text is not kept for the small ones after it.
  if (units.length > 1 << 16) units = new Uint16Array(1024);
  return parts.join('');
}

/** Nested escapes decoded at most this many times (`%2525` → `%25` → `%`). */
const MAX_UNESCAPE_DEPTH = 2;

/**
 * `text` and its decoded escapes (URL `%XX`, HTML entities, `\u` escapes), nested up to
 * {@link MAX_UNESCAPE_DEPTH} times, without repeats: the texts taint reads.
 * @example unescapedTexts('US13%2030') // ['US13%2030', 'US13 30']
 */
export function unescapedTexts(text: string): string[] {
  const texts = [text];
  let current = text;
  for (let depth = 0; depth < MAX_UNESCAPE_DEPTH; depth++) {
    const decoded = unescapedView(current).text;
    if (decoded === current) break;
    current = decoded;
    texts.push(decoded);
  }
  return texts;
}

/**
 * Every form of `text` taint compares: the text itself and its decoded escapes, each in
 * {@link taintForm}, without duplicates. At most `1 + MAX_UNESCAPE_DEPTH` linear passes.
 * @example taintViews('US13%2030') // ['us132030', 'us1330']
 */
export function taintViews(text: string): string[] {
  return taintForms(unescapedTexts(text));
}

/**
 * {@link taintForm} of each of `texts` (from {@link unescapedTexts}), without duplicates.
 * @example taintForms(['US13%2030', 'US13 30']) // ['us132030', 'us1330']
 */
export function taintForms(texts: readonly string[]): string[] {
  // A Set: with the decoded runs of a token-heavy result there can be thousands of texts.
  const views = new Set<string>();
  for (const t of texts) views.add(taintForm(t));
  return [...views];
}

/**
 * The form in which argument taint compares text (SPEC T3): only *significant* characters —
 * letters and digits of any script — survive, NFKC-folded, lower-cased and with look-alikes
 * folded to their ASCII prototype (the detector's own per-character fold); whitespace,
 * punctuation, invisible and filler characters are dropped. `DE89 3704-0044` and `de8937040044`
 * read the same, so do `Evil.Test` and `e v i l . t e s t`. Escaped forms (URL `%XX`, HTML
 * entities, `\u` escapes, nested once) are further views of the same text. One linear pass each.
 */
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

/**
 * The significant characters of `text`, folded.
 * @example taintForm('DE89 3704-0044') // 'de8937040044'
 */
export function taintForm(text: string): string {
  const n = text.length;
  // Units are written to a typed buffer and turned into one flat string at the end: the index
  // reads its characters a million times, and a concatenated rope would be slow to read.
  let buf = new Uint16Array(Math.min(n, 1 << 16) + 8);
  let len = 0;
  const put = (code: number) => {
    if (len === buf.length) { const b = new Uint16Array(buf.length * 2); b.set(buf); buf = b; }
    buf[len++] = code;
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a)) put(c);
      else if (c >= 0x41 && c <= 0x5a) put(c | 0x20);
      continue;
    }
    const cp = text.codePointAt(i) ?? c;
    if (cp > 0xffff) i++;
    const folded = foldCodePoint(cp);
    if (folded === INVISIBLE) continue;
    for (const ch of folded) {
      const code = ch.charCodeAt(0);
      if (code < 0x80) {
        if ((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a)) put(code);
        else if (code >= 0x41 && code <= 0x5a) put(code | 0x20);
      } else if (isSignificant(ch)) {
        const lower = ch.toLowerCase();
        for (let k = 0; k < lower.length; k++) put(lower.charCodeAt(k));
      }
    }
  }
  const parts: string[] = [];
  for (let s = 0; s < len; s += 8192) parts.push(String.fromCharCode(...buf.subarray(s, Math.min(len, s + 8192))));
  return parts.join('');
}

/** Nested escapes decoded at most this many times (`%2525` → `%25` → `%`). */
const MAX_UNESCAPE_DEPTH = 2;

/**
 * Every form of `text` taint compares: the text itself and its decoded escapes, each in
 * {@link taintForm}, without duplicates. At most `1 + MAX_UNESCAPE_DEPTH` linear passes.
 * @example taintViews('US13%2030') // ['us132030', 'us1330']
 */
export function taintViews(text: string): string[] {
  const views = [taintForm(text)];
  let current = text;
  for (let depth = 0; depth < MAX_UNESCAPE_DEPTH; depth++) {
    const decoded = unescapedView(current).text;
    if (decoded === current) break;
    current = decoded;
    const form = taintForm(decoded);
    if (!views.includes(form)) views.push(form);
  }
  return views;
}

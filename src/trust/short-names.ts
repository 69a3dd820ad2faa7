/**
 * Names that argument taint compares whole because they are too short for its six-character
 * windows: e-mail addresses (`z@qz.io`, email-addresses) and host names (`qz.io`, host-names),
 * also when the content spells them out to hide them (`q [at] zq [dot] io`).
 */
import { addressKeys, significantLength } from './email-addresses.js';
import { argumentHost, hostNames } from './host-names.js';
import { TAINT_MIN_CHARS, unescapedTexts } from './taint-normalize.js';

const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const OPEN: Readonly<Record<number, number>> = { 0x5b: 0x5d, 0x28: 0x29, 0x7b: 0x7d }; // [ ( {

/** `word` (lower-case ASCII) at `i` in `text`, any case, not followed by a letter. */
function wordAt(text: string, i: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if ((text.charCodeAt(i + k) | 0x20) !== word.charCodeAt(k)) return false;
  return !isLetter(text.charCodeAt(i + word.length));
}

/**
 * Where a spelt-out separator that starts at `i` ends, and what it stands for: ` at ` or
 * `[at]` → `@`, ` dot ` or `(dot)` → `.` (a few spaces around, brackets `[]`, `()` or `{}`);
 * null when none starts there. Reads at most a dozen characters.
 */
function separatorAt(text: string, i: number): { end: number; sign: string } | null {
  let j = i;
  while (j < text.length && j - i < 3 && isSpace(text.charCodeAt(j))) j++;
  const before = j > i;
  const close = OPEN[text.charCodeAt(j)];
  if (close !== undefined) {
    j++;
    while (j < text.length && isSpace(text.charCodeAt(j))) { j++; if (j - i > 8) return null; }
  } else if (!before) return null;
  const sign = wordAt(text, j, 'at') ? '@' : wordAt(text, j, 'dot') ? '.' : null;
  if (sign === null) return null;
  j += sign === '@' ? 2 : 3;
  const afterWord = j;
  while (j < text.length && j - afterWord < 2 && isSpace(text.charCodeAt(j))) j++;
  if (close !== undefined) {
    if (text.charCodeAt(j) !== close) return null;
    j++;
  } else if (j === afterWord) return null;
  while (j < text.length && j - afterWord < 6 && isSpace(text.charCodeAt(j))) j++;
  return { end: j, sign };
}

// A spelt-out separator may be in the text: a bracketed `at`, or the word `dot`.
const SPELT = /[[({]\s{0,2}at\s{0,2}[\])}]|\bdot\b/i;

/**
 * `text` with addresses and hosts spelt out to hide them written plainly (`q [at] zq [dot] io`,
 * `q at zq dot io` → `q@zq.io`), or null when it has no such separator. One pass, each position
 * read a bounded number of times. Ordinary uses of "at" become `@` too; only a whole address or
 * host that an argument repeats exactly is ever compared, so that costs nothing.
 * @example speltOutView('mail q [at] zq [dot] io') // 'mail q@zq.io'
 */
export function speltOutView(text: string): string | null {
  if (!SPELT.test(text)) return null;
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isSpace(c) && OPEN[c] === undefined) continue;
    const sep = separatorAt(text, i);
    if (sep === null) continue;
    parts.push(text.slice(from, i), sep.sign);
    from = sep.end;
    i = sep.end - 1;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/** Whether `text` may hold a name traced whole: an `@` (one full-width or small), a dot, or an escape that may spell them. */
function mayHoldName(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x40 || c === 0x2e || c === 0x25 || c === 0x26 || c === 0x5c || c === 0xff20 || c === 0xfe6b) return true;
  }
  return false;
}

/**
 * Names too short for a window that taint compares whole, in `texts` (a text and its decoded
 * escapes) and in their spelt-out forms (`q [at] zq [dot] io`): e-mail addresses (`z@qz.io`)
 * and host names (`qz.io`).
 */
export function shortNames(texts: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const text of texts) {
    const spelt = speltOutView(text);
    for (const t of spelt === null ? [text] : [text, spelt]) {
      if (!mayHoldName(t)) continue;
      for (const key of addressKeys(t, TAINT_MIN_CHARS)) names.add(key);
      for (const host of hostNames(t, TAINT_MIN_CHARS)) names.add(host);
    }
  }
  return names;
}

/** The short names an argument holds: the addresses in it, and the host it names (a URL's, or itself). */
export function argumentNames(value: string): Set<string> {
  const names = new Set<string>();
  if (!mayHoldName(value)) return names;
  for (const t of unescapedTexts(value)) {
    for (const key of addressKeys(t, TAINT_MIN_CHARS)) names.add(key);
    const host = argumentHost(t);
    if (host !== null && significantLength(host) < TAINT_MIN_CHARS) names.add(host);
  }
  return names;
}

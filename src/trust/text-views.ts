/**
 * Candidate decodings of a text for the instruction detector: ROT13, reversal, leetspeak,
 * pig latin, letters spread out with spaces or punctuation, HTML tags around words, and
 * escape sequences (URL, HTML entities, `\u`/`\x`). Each view is a new string plus, per UTF-16
 * unit, the [start, end) it came from in the text it was built from, so spans found in a view
 * map back to the caller's offsets. Every builder is one linear pass. Which views are worth
 * building is decided by cheap signs counted in {@link viewSigns}.
 */

import { Builder, unchanged, sameLength, UTF16, isLower, isUpper, isLetter, isDigit, isHex, type TextView } from './view-builder.js';
export type { TextView } from './view-builder.js';
export { unescapedView } from './escape-view.js';

/** Names of the candidate decodings, as reported in a span's `via` (and in `obfuscated.<name>` rules). */
export const VIEW_NAMES = ['rot13', 'reversed', 'reversed-words', 'leet', 'pig-latin', 'despaced', 'untagged', 'unescaped'] as const;
/** One of {@link VIEW_NAMES}. */
export type ViewName = (typeof VIEW_NAMES)[number];

/** Cheap counts deciding which views to build (the tokenizer counts the word-level signs). */
export interface ViewSigns {
  /** `$` or `@` between two letters ("sy$tem", "p@ss"), e-mail addresses aside. */
  readonly leet: number;
  /** Whole HTML-like tags touching a letter or digit ({@link isGluedTag}). */
  readonly tags: number;
  /** %XX, &#…;, &name;, \uXXXX, \xXX escapes. */
  readonly escapes: number;
}

const LEET: Readonly<Record<string, string>> = {
  '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g', '6': 'g', '2': 'z',
  '@': 'a', '$': 's', '!': 'i', '|': 'l', '+': 't', '€': 'e', '(': 'c',
};
const SPREAD_SEPARATORS = new Set([0x20, 0x2e, 0x2d, 0x5f, 0x2a, 0x7c, 0x2f, 0x2c, 0x2b, 0x7e, 0x3a, 0xb7, 0x2022, 0x09]);

/** A character that may stand between spread-out letters ("i g n", "I.G.N", "i-g-n"). */
export function isSpreadSeparator(c: number): boolean {
  return SPREAD_SEPARATORS.has(c);
}

const isWordChar = (c: number): boolean => isLetter(c) || isDigit(c);

/**
 * Whether the `@` at `at` is an e-mail address's: a domain with a dot and a two-letter (or
 * longer) label follows within 64 units. E-mail addresses are common in tool output and are
 * not leetspeak, so they never count as its sign.
 * @example isEmailAt('mail john@example.com', 9) // true
 */
export function isEmailAt(text: string, at: number): boolean {
  let dot = -1;
  const end = Math.min(text.length, at + 65);
  let k = at + 1;
  for (; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x2e) { if (k === dot + 1 || k === at + 1) return false; dot = k; } else if (!isWordChar(c) && c !== 0x2d) break;
  }
  return dot > 0 && k - dot > 2 && isLetter(text.charCodeAt(dot + 1)) && isLetter(text.charCodeAt(dot + 2));
}

/**
 * Whether the whole tag [lt, gt] touches a letter or digit outside it ("ig<b>no", "<i>word"):
 * only then can removing it join or reveal words. A tag standing between spaces or lines
 * ("<INFORMATION>\n") reads the same with or without it.
 */
export function isGluedTag(text: string, lt: number, gt: number): boolean {
  return isWordChar(text.charCodeAt(lt - 1)) || isWordChar(text.charCodeAt(gt + 1));
}

/** Positions of `ch` in `text` (native indexOf: fast on text that has few). */
function each(text: string, ch: string, f: (at: number) => void): void {
  for (let at = text.indexOf(ch); at !== -1; at = text.indexOf(ch, at + 1)) f(at);
}

/**
 * Count the character-level signs of obfuscation with native `indexOf` scans.
 * @example viewSigns('sy$tem p@ss').leet // 2
 */
export function viewSigns(text: string): ViewSigns {
  let leet = 0;
  let tags = 0;
  let escapes = 0;
  const n = text.length;
  const between = (at: number): void => { if (isLetter(text.charCodeAt(at - 1)) && isLetter(text.charCodeAt(at + 1))) leet++; };
  each(text, '$', between);
  each(text, '@', (at) => { if (!isEmailAt(text, at)) between(at); });
  each(text, '<', (i) => {
    if (!isLetter(text.charCodeAt(i + 1)) && !(text.charCodeAt(i + 1) === 0x2f)) return;
    // A whole tag: '>' before the next '<' (the look-ahead stops at the next '<', so it is linear).
    let j = i + 1;
    while (j < n && j - i < 256 && text.charCodeAt(j) !== 0x3e && text.charCodeAt(j) !== 0x3c) j++;
    if (text.charCodeAt(j) === 0x3e && isGluedTag(text, i, j)) tags++;
  });
  each(text, '%', (i) => { if (isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2))) escapes++; });
  each(text, '&', (i) => { if (text.charCodeAt(i + 1) === 0x23 || isLetter(text.charCodeAt(i + 1))) escapes++; });
  each(text, '\\', (i) => { if (text.charCodeAt(i + 1) === 0x75 || text.charCodeAt(i + 1) === 0x78) escapes++; });
  return { leet, tags, escapes };
}

/** ROT13 over ASCII letters; offsets unchanged. */
export function rot13View(text: string): TextView {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    units[i] = isLower(c) ? ((c - 0x61 + 13) % 26) + 0x61 : isUpper(c) ? ((c - 0x41 + 13) % 26) + 0x41 : c;
  }
  return sameLength(units);
}

/** The whole text backwards (code points kept whole). */
export function reversedView(text: string): TextView {
  const n = text.length;
  const units = new Uint16Array(n);
  const starts = new Uint32Array(n);
  const ends = new Uint32Array(n);
  let o = 0;
  let i = n;
  while (i > 0) {
    const low = text.charCodeAt(i - 1);
    const pair = i >= 2 && low >= 0xdc00 && low <= 0xdfff && text.charCodeAt(i - 2) >= 0xd800 && text.charCodeAt(i - 2) <= 0xdbff;
    const s = pair ? i - 2 : i - 1;
    for (let k = s; k < i; k++) { units[o] = text.charCodeAt(k); starts[o] = s; ends[o] = i; o++; }
    i = s;
  }
  return { text: UTF16.decode(units), starts, ends };
}

/** Each word's letters backwards, words in place ("erongi lla" → "ignore all"). */
export function reversedWordsView(text: string): TextView {
  const chars = text.split('');
  const starts = new Uint32Array(text.length);
  const ends = new Uint32Array(text.length);
  for (let i = 0; i < text.length; i++) { starts[i] = i; ends[i] = i + 1; }
  let i = 0;
  while (i < chars.length) {
    if (!isLetter(text.charCodeAt(i))) { i++; continue; }
    const s = i;
    while (i < chars.length && isLetter(text.charCodeAt(i))) i++;
    for (let a = s, b = i - 1; a < b; a++, b--) {
      const t = chars[a] as string; chars[a] = chars[b] as string; chars[b] = t;
      starts[a] = b; ends[a] = b + 1; starts[b] = a; ends[b] = a + 1;
    }
  }
  return { text: chars.join(''), starts, ends };
}

/** Leet digits and symbols next to letters read as the letters they imitate; `one` picks 1 → i or l. */
export function leetView(text: string, one: 'i' | 'l'): TextView {
  let units: Uint16Array | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const sub = LEET[ch];
    if (sub === undefined) continue;
    const before = text.charCodeAt(i - 1);
    const after = text.charCodeAt(i + 1);
    const inWord = isLetter(before) || isLetter(after) || LEET[text[i - 1] ?? ''] !== undefined || LEET[text[i + 1] ?? ''] !== undefined;
    if (!inWord || (isDigit(before) && isDigit(after) && !isLetter(text.charCodeAt(i - 2)))) continue;
    if (units === undefined) {
      units = new Uint16Array(text.length);
      for (let k = 0; k < text.length; k++) units[k] = text.charCodeAt(k);
    }
    units[i] = (ch === '1' ? one : sub).charCodeAt(0);
  }
  return units === undefined ? unchanged(text) : sameLength(units);
}

/**
 * Pig latin undone by moving the trailing consonants before -ay back to the front: `known`
 * says whether a candidate is a word worth taking ("eviouspray" → "previous").
 */
export function pigLatinView(text: string, known: (word: string) => boolean): TextView {
  const b = new Builder(text);
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (!isLetter(text.charCodeAt(i))) { b.same(i); i++; continue; }
    const s = i;
    while (i < n && isLetter(text.charCodeAt(i))) i++;
    const word = text.slice(s, i).toLowerCase();
    const plain = decodePig(word, known);
    if (plain !== undefined) b.push(plain, s, i);
    else for (let k = s; k < i; k++) b.same(k);
  }
  return b.done();
}

/**
 * The word a pig-latin word (lower case) stands for, if `known` accepts one of its readings.
 * @example decodePig('eviouspray', (w) => w === 'previous') // 'previous'
 */
export function decodePig(word: string, known: (w: string) => boolean): string | undefined {
  if (word.length < 4 || !word.endsWith('ay')) return undefined;
  const stem = word.slice(0, -2);
  const tries: string[] = [];
  for (const tail of ['w', 'y', 'h', '']) {
    if (tail !== '' && stem.endsWith(tail)) tries.push(stem.slice(0, -1));
  }
  for (let k = 1; k <= Math.min(4, stem.length - 1); k++) tries.push(stem.slice(stem.length - k) + stem.slice(0, stem.length - k));
  tries.push(stem);
  return tries.find((t) => t.length >= 2 && known(t));
}

/** Whether four one-letter words in a row, each 1–3 separators apart, are anywhere in `text`. */
function hasSpreadRun(text: string): boolean {
  let run = 0;
  let gap = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isLetter(c)) {
      if (isLetter(text.charCodeAt(i - 1)) || isLetter(text.charCodeAt(i + 1))) run = 0;
      else {
        run = run > 0 && gap >= 1 && gap <= 3 ? run + 1 : 1;
        if (run >= 4) return true;
        gap = 0;
      }
    } else if (run > 0 && SPREAD_SEPARATORS.has(c)) {
      if (++gap > 3) run = 0;
    } else run = 0;
  }
  return false;
}

/**
 * Letters spread out with one separator each ("i g n o r e", "I.G.N.O.R.E", "i-g-n") joined
 * again; a longer gap between two spread letters becomes one space.
 */
export function despacedView(text: string): TextView {
  if (!hasSpreadRun(text)) return unchanged(text);
  const b = new Builder(text);
  const n = text.length;
  let i = 0;
  const single = (k: number): boolean => isLetter(text.charCodeAt(k)) && !isLetter(text.charCodeAt(k - 1)) && !isLetter(text.charCodeAt(k + 1));
  while (i < n) {
    if (!single(i)) { b.same(i); i++; continue; }
    // Collect a run of single letters, each followed by 1–3 separator characters.
    const letters: number[] = [i];
    const gaps: number[] = [];
    let k = i + 1;
    while (k < n) {
      let g = k;
      while (g < n && g - k < 3 && SPREAD_SEPARATORS.has(text.charCodeAt(g))) g++;
      if (g === k || !single(g)) break;
      gaps.push(g - k);
      letters.push(g);
      k = g + 1;
    }
    if (letters.length < 4) { b.same(i); i++; continue; }
    const usual = [...gaps].sort((x, y) => x - y)[Math.floor(gaps.length / 2)] ?? 1;
    for (let j = 0; j < letters.length; j++) {
      const at = letters[j] ?? 0;
      b.push(text[at] as string, at, at + 1);
      const gap = gaps[j];
      if (gap !== undefined && gap > usual) b.push(' ', at + 1, at + 1 + gap);
    }
    i = (letters[letters.length - 1] ?? i) + 1;
  }
  return b.done();
}

const INLINE_TAGS = new Set(['b', 'i', 'u', 's', 'em', 'strong', 'span', 'font', 'mark', 'small', 'sub', 'sup', 'a', 'code', 'kbd', 'tt', 'del', 'ins', 'abbr', 'q', 'wbr']);

/** HTML tags removed: inline ones without a trace ("ig<b>no</b>re"), others as a space. */
export function untaggedView(text: string): TextView {
  const b = new Builder(text);
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x3c && (isLetter(text.charCodeAt(i + 1)) || (text.charCodeAt(i + 1) === 0x2f && isLetter(text.charCodeAt(i + 2))))) {
      let j = i + 1;
      while (j < n && j - i < 256 && text.charCodeAt(j) !== 0x3e && text.charCodeAt(j) !== 0x3c) j++;
      if (text.charCodeAt(j) === 0x3e) {
        let nameStart = i + 1;
        if (text.charCodeAt(nameStart) === 0x2f) nameStart++;
        let nameEnd = nameStart;
        while (nameEnd < j && (isLetter(text.charCodeAt(nameEnd)) || isDigit(text.charCodeAt(nameEnd)))) nameEnd++;
        if (!INLINE_TAGS.has(text.slice(nameStart, nameEnd).toLowerCase())) b.push(' ', i, j + 1);
        else b.drop();
        i = j + 1;
        continue;
      }
    }
    b.same(i);
    i++;
  }
  return b.done();
}

/**
 * Compose two maps: `inner` indexes units of `outer.text`; the result indexes the original.
 * @example composeSpan(view, 0, 3) // [start, end) in the text `view` was built from
 */
export function composeSpan(view: Pick<TextView, 'text' | 'starts' | 'ends' | 'identity'>, start: number, end: number): [number, number] {
  if (view.identity === true) {
    const n = view.text.length;
    if (n === 0) return [0, 0];
    const a = Math.min(Math.max(start, 0), n - 1);
    return [a, Math.min(Math.max(end - 1, a), n - 1) + 1];
  }
  const n = view.starts.length;
  if (n === 0) return [0, 0];
  const a = Math.min(Math.max(start, 0), n - 1);
  const z = Math.min(Math.max(end - 1, a), n - 1);
  let s = Infinity;
  let e = 0;
  // Reversed views map backwards: take the extremes over the span's ends only (O(1)).
  for (const k of [a, z]) {
    s = Math.min(s, view.starts[k] ?? 0);
    e = Math.max(e, view.ends[k] ?? 0);
  }
  return [s, Math.max(s, e)];
}

/**
 * Whether a run of four or more ASCII letters in `text` ending in -ay reads as the pig latin of
 * a word `known` accepts.
 * @example anyPigWordDecodes('ignoreyay', (w) => w === 'ignore') // true
 */
export function anyPigWordDecodes(text: string, known: (w: string) => boolean): boolean {
  let s = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && isLetter(text.charCodeAt(i))) { if (s < 0) s = i; continue; }
    if (s >= 0 && i - s >= 4 && (text.charCodeAt(i - 1) | 0x20) === 0x79 && (text.charCodeAt(i - 2) | 0x20) === 0x61 &&
      decodePig(text.slice(s, i).toLowerCase(), known) !== undefined) return true;
    s = -1;
  }
  return false;
}

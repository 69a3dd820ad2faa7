/**
 * Look-aheads of the detector's fast path at the few characters where a structural marker can
 * start (`<`, `[`, `{`, `(`, `##`, `](`, `://`, quotes): each reads the following characters as
 * the normalizer would fold them and says whether the marker scan could fire there. Each reads
 * a bounded number of characters or stops at the next delimiter, so the fast path stays linear.
 * A character these probes cannot fold on their own (one that folds to several) answers "yes".
 */
import { astralEntry, foldEntry, K_HIDDEN, K_HIDDEN_IN_WORD, K_MULTI, K_SKIP, K_SPACE } from './fold-classes.js';
import { isTurnLabel, labelStart } from './marker-scan.js';
import { buildWordTable, HASH_BASE, type WordTable } from './word-index.js';

/** Words a probe looks for, with their first two units for a quick "no" before any folding. */
export interface ProbeWords {
  readonly table: WordTable;
  /** 1 at `first << 7 | second` when a word starts with those units (hyphens read as `_`). */
  readonly prefixes: Uint8Array;
}

// A unit as the probes read it in a word: ASCII lower case, a hyphen as `_`.
const probeUnit = (c: number): number => (c >= 0x41 && c <= 0x5a ? c + 32 : c === 0x2d ? 0x5f : c);

/**
 * The probe table of `words` (folded already, every one at least two units long).
 * @example probeWords(['role']).prefixes[(0x72 << 7) | 0x6f] // 1
 */
export function probeWords(words: readonly string[]): ProbeWords {
  const prefixes = new Uint8Array(1 << 14);
  for (const w of words) prefixes[(probeUnit(w.charCodeAt(0)) << 7) | probeUnit(w.charCodeAt(1))] = 1;
  return { table: buildWordTable(words.map((w) => [w, 1] as const)), prefixes };
}

/**
 * False when the two characters at raw offset `j` are ASCII and no word of `words` starts with
 * them: then the word read there, however the rest folds, is none of them. Most probes end here.
 */
function mayStartWord(text: string, j: number, words: ProbeWords): boolean {
  const a = text.charCodeAt(j);
  const b = text.charCodeAt(j + 1);
  return !(a < 0x80 && b < 0x80) || words.prefixes[(probeUnit(a) << 7) | probeUnit(b)] === 1;
}

/** Returned by {@link foldAt} past the end of the text, and for a character it cannot fold. */
export const END = -2;
export const UNKNOWN = -1;

/** Raw offset after the unit the last {@link foldAt} returned. */
export let cursor = 0;

/**
 * The folded unit at or after raw offset `j` (removed characters skipped, whitespace as a
 * space), moving {@link cursor} past it.
 */
export function foldAt(text: string, j: number): number {
  let k = j;
  let skipped = 0;
  while (k < text.length) {
    const c = text.charCodeAt(k);
    if (c < 0x80) {
      cursor = k + 1;
      if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return 0x20;
      return c >= 0x41 && c <= 0x5a ? c + 32 : c;
    }
    let e: number;
    let size = 1;
    const low = text.charCodeAt(k + 1);
    if (c >= 0xd800 && c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
      e = astralEntry(((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
      size = 2;
    } else e = foldEntry(c);
    const kind = e >>> 16;
    if (kind === K_SKIP || kind === K_HIDDEN_IN_WORD || (kind === K_HIDDEN && size === 1)) {
      k += size;
      if (++skipped > 64) { cursor = k; return UNKNOWN; }
      continue;
    }
    if (kind === K_MULTI || kind === K_HIDDEN) { cursor = k + size; return UNKNOWN; }
    cursor = k + size;
    return kind === K_SPACE ? 0x20 : e & 0xffff;
  }
  cursor = text.length;
  return END;
}

const isTagUnit = (u: number): boolean => (u >= 0x61 && u <= 0x7a) || u === 0x5f || u === 0x2d || u === 0x3a || (u >= 0x30 && u <= 0x39);
const word = new Uint16Array(48);

/** Read tag characters (hyphen as `_`) starting with `first`: whether they form a word of `table`, and the unit after them (-3: none read). */
function readTag(text: string, first: number, max: number, colon: boolean, table: WordTable): { hit: boolean; next: number } {
  let u = first;
  let len = 0;
  let h = 0;
  while (u >= 0 && len < max && isTagUnit(u) && (colon || u !== 0x3a)) {
    const v = u === 0x2d ? 0x5f : u;
    word[len++] = v;
    h = (Math.imul(h, HASH_BASE) + v) | 0;
    u = foldAt(text, cursor);
  }
  return { hit: len > 0 && table.get(word, len, h, 0) === 1, next: len === 0 ? -3 : u };
}

/**
 * After an opener (`<`, `[`, `{`, `(`) ending at raw offset `j`: could a role/tool tag, a special
 * token (`<|…|>`) or an `<img` start here?
 */
export function tagProbe(text: string, j: number, opener: number, tags: ProbeWords): boolean {
  const first = text.charCodeAt(j);
  if (first !== opener && first !== 0x2f && first !== 0x7c && !mayStartWord(text, j, tags)) return false;
  const close = opener === 0x3c ? 0x3e : opener === 0x5b ? 0x5d : opener === 0x7b ? 0x7d : 0x29;
  let u = foldAt(text, j);
  if (u === opener) u = foldAt(text, cursor);
  if (u === 0x2f) u = foldAt(text, cursor);
  const pipe = u === 0x7c;
  if (pipe) u = foldAt(text, cursor);
  if (u === UNKNOWN) return true;
  const { hit, next } = readTag(text, u, 40, true, tags.table);
  if (next === UNKNOWN) return true;
  if (next === -3) return false;
  if (pipe) return next === 0x7c && foldAt(text, cursor) === 0x3e;
  return hit && (next === close || next === 0x7c || next === 0x3d || (opener === 0x3c && next === 0x20));
}

/** After a `#` ending at raw offset `j`: another `#`, then a role header word? */
export function hashProbe(text: string, j: number, headers: WordTable): boolean {
  let u = foldAt(text, j);
  if (u !== 0x23) return u === UNKNOWN;
  while (u === 0x23) u = foldAt(text, cursor);
  while (u === 0x20 || u === 0x28 || u === 0x5b) u = foldAt(text, cursor);
  if (u === UNKNOWN) return true;
  const { hit, next } = readTag(text, u, 30, false, headers);
  return hit || next === UNKNOWN;
}

/** After a quote ending at raw offset `j`: one of the marker scan's quoted JSON keys? */
export function jsonProbe(text: string, j: number, quote: number, keys: ProbeWords): boolean {
  if (!mayStartWord(text, j, keys)) return false;
  let u = foldAt(text, j);
  let len = 0;
  let h = 0;
  while (len < 24 && ((u >= 0x61 && u <= 0x7a) || u === 0x5f || (u >= 0x30 && u <= 0x39))) {
    word[len++] = u;
    h = (Math.imul(h, HASH_BASE) + u) | 0;
    u = foldAt(text, cursor);
  }
  if (u === UNKNOWN) return true;
  return len > 0 && u === quote && keys.table.get(word, len, h, 0) === 1;
}

const isUrlEnd = (u: number): boolean => u === 0x20 || u === 0x0a || u === 0x29 || u === 0x22 || u === 0x3c || u === 0x3e || u === 0x27 || u === END;

/** Where the last URL probe stopped (raw offset): callers skip probes inside a URL already read. */
export let urlEnd = 0;

/**
 * The URL from raw offset `j` (after `](`, or after `http:`): does it have a query, and — when
 * `placeholder` is asked — a value that starts like a template slot (`={`, `=[`, `=$`, `=%`)?
 * Reads to the URL's end and leaves it in {@link urlEnd}.
 */
export function urlProbe(text: string, j: number, placeholder: boolean): boolean {
  let u = foldAt(text, j);
  let query = false;
  let slot = false;
  let afterEq = false;
  let unknown = false;
  while (!isUrlEnd(u)) {
    if (u === UNKNOWN) unknown = true;
    else if (u === 0x3f) query = true;
    else if (query && afterEq && (u === 0x7b || u === 0x5b || u === 0x24 || u === 0x25)) slot = true;
    afterEq = u === 0x3d;
    u = foldAt(text, cursor);
  }
  urlEnd = u === END ? text.length : cursor;
  return unknown || (query && (slot || !placeholder));
}

// Normalized units before a colon that labelStart (marker-scan) reads: 24 of the label, the two
// before it, and one more so it never mistakes the window's start for the text's.
const LABEL_WINDOW = 27;
const labelUnits = new Uint16Array(LABEL_WINDOW);

/**
 * At a `:` (raw offset `colon`) after a word that ends a line label: could the marker scan read
 * a turn, ReAct or to-do label there? The normalized text before it is rebuilt backwards from
 * the raw text as the normalizer writes ASCII (lower case; a whitespace run as one space, or a
 * newline when it holds a line break; none at the start) and given to the marker scan's own
 * label rule. A character outside ASCII, which this does not fold, answers yes.
 */
export function labelProbe(text: string, colon: number): boolean {
  if (text.charCodeAt(colon) !== 0x3a) return true;
  const buf = labelUnits;
  let n = 0;
  let k = colon;
  let run = 0; // whitespace read and not yet written: 1 spaces or tabs, 2 with a line break
  while (k > 0 && n < LABEL_WINDOW) {
    const c = text.charCodeAt(k - 1);
    if (c >= 0x80) return true;
    k--;
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) {
      run = c === 0x20 || c === 0x09 ? Math.max(run, 1) : 2;
      continue;
    }
    if (run !== 0) {
      buf[LABEL_WINDOW - ++n] = run === 2 ? 0x0a : 0x20;
      run = 0;
      if (n === LABEL_WINDOW) break;
    }
    buf[LABEL_WINDOW - ++n] = c >= 0x41 && c <= 0x5a ? c + 32 : c;
  }
  // A run still unwritten when the text starts is leading whitespace: the normalizer drops it.
  const before = String.fromCharCode(...buf.subarray(LABEL_WINDOW - n)) + ':';
  const s = labelStart(before, n);
  return s >= 0 && isTurnLabel(before.slice(s, n).trim());
}

/**
 * Values cut into pieces too short to trace alone (SPEC T3). An injection can hand the model an
 * account as fields for it to join — `{"p1": "GB39", "p2": "MIDL", "p3": "4005", …}` — or as the
 * keys of an object, or as several short text blocks. Each piece has fewer significant characters
 * than a taint window, and the JSON text interleaves them with keys and other fields, so no
 * window of the content holds the value. Taint keeps the short pieces of untrusted content
 * instead, and finds an argument assembled from them (`TaintIndex`), in any order and whatever
 * lies between them in the content.
 */
import { TAINT_MIN_CHARS, taintForm } from './taint-normalize.js';

/** Strings longer than this (in UTF-16 units) are never short pieces (they hold windows of their own). */
const MAX_SHORT_PIECE = 64;

/** Significant characters of `text` when it is too short to be traced alone (fewer than a window), else -1. */
function shortLength(text: string): number {
  if (text.length > MAX_SHORT_PIECE) return -1;
  const n = taintForm(text).length;
  return n < TAINT_MIN_CHARS ? n : -1;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isNumberUnit = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;

/** The short pieces of a text, and its short values and keys joined in document order. */
export interface ShortPieces {
  /** Short strings, numbers and keys, in order (2 to 5 significant characters are kept by the index). */
  readonly pieces: readonly string[];
  /**
   * The one-character values joined in document order, and the one-character keys likewise, each
   * when there are two or more: a value cut into one-character fields (`{"k1": "G", "k2": "B",
   * …}`), with the keys that interleave it in the JSON text left out. (Longer pieces are found
   * in any order by the index; one character alone is no piece.)
   */
  readonly runs: readonly string[];
}

const NONE: ShortPieces = { pieces: [], runs: [] };

/**
 * The short strings, numbers and keys of JSON text `text`, in document order (a short text as a
 * whole when it is not JSON: no `{` or `[` first), and the runs they make. One pass; text that
 * is not valid JSON is read as far as it goes, without error.
 * @example shortPieces('{"a":"G","b":"B","note":"pay the new account","c":"33"}') // { pieces: ['a', 'G', 'b', 'B', 'c', '33'], runs: ['GB', 'ab'] }
 */
export function shortPieces(text: string): ShortPieces {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  const first = text.charCodeAt(i);
  if (first !== 0x7b && first !== 0x5b) return shortLength(text) >= 0 ? { pieces: [text], runs: [] } : NONE;
  const pieces: string[] = [];
  const values: string[] = [];
  const keys: string[] = [];
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i + 1;
      let end = start;
      while (end < text.length && text.charCodeAt(end) !== QUOTE) end += text.charCodeAt(end) === BACKSLASH ? 2 : 1;
      i = end + 1;
      // Only short strings are cut from the text (a slice of a long one is never needed).
      if (end - start <= MAX_SHORT_PIECE) {
        const piece = text.slice(start, Math.min(end, text.length));
        const n = shortLength(piece);
        if (n >= 0) pieces.push(piece);
        if (n === 1) {
          let next = i;
          while (next < text.length && isSpace(text.charCodeAt(next))) next++;
          (text.charCodeAt(next) === 0x3a ? keys : values).push(piece);
        }
      }
      continue;
    }
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      const start = i;
      while (i < text.length && isNumberUnit(text.charCodeAt(i))) i++;
      const n = i - start <= MAX_SHORT_PIECE ? shortLength(text.slice(start, i)) : -1;
      if (n >= 0) pieces.push(text.slice(start, i));
      if (n === 1) values.push(text.slice(start, i));
      continue;
    }
    i++;
  }
  return { pieces, runs: [values, keys].filter((run) => run.length >= 2).map((run) => run.join('')) };
}

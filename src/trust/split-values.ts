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

/** Whether `text` is too short to be traced alone (fewer significant characters than a window). */
function isShortPiece(text: string): boolean {
  return text.length <= MAX_SHORT_PIECE && taintForm(text).length < TAINT_MIN_CHARS;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isNumberUnit = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;

/**
 * The short strings, numbers and keys of JSON text `text`, in document order (a short text as a
 * whole when it is not JSON: no `{` or `[` first). One pass; text that is not valid JSON is read
 * as far as it goes, without error.
 * @example shortPieces('{"p1":"GB39","note":"pay the new account","p2":"MIDL"}') // ['p1', 'GB39', 'p2', 'MIDL']
 */
export function shortPieces(text: string): string[] {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  const first = text.charCodeAt(i);
  if (first !== 0x7b && first !== 0x5b) return isShortPiece(text) ? [text] : [];
  const pieces: string[] = [];
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
        if (isShortPiece(piece)) pieces.push(piece);
      }
      continue;
    }
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      const start = i;
      while (i < text.length && isNumberUnit(text.charCodeAt(i))) i++;
      if (i - start <= MAX_SHORT_PIECE && isShortPiece(text.slice(start, i))) pieces.push(text.slice(start, i));
      continue;
    }
    i++;
  }
  return pieces;
}

/**
 * A fast path for o200k pre-tokenization: on ASCII text, decide the extent of the regex match
 * at a position by hand, without running gpt-tokenizer's Unicode-property regex (which takes
 * about half of all counting time) or creating a substring. Whenever the decision would depend
 * on a non-ASCII character the caller runs the regex itself at that position (sticky), so the
 * pieces are exactly the regex's: its matches are contiguous (every code point is a letter, a
 * number, white space or "other", and some alternative matches each), so the match at `pos` is
 * the next one.
 *
 * The o200k pattern, its alternatives in order, as they behave on ASCII:
 *   1. `[^\r\n\p{L}\p{N}]?[\p{Lu}…]*[\p{Ll}…]+('s|'t|…)?`  optional prefix, UPPER*, lower+
 *   2. `[^\r\n\p{L}\p{N}]?[\p{Lu}…]+[\p{Ll}…]*('s|'t|…)?`  optional prefix, UPPER+, lower*
 *   3. `\p{N}{1,3}`
 *   4. ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
 *   5. `\s*[\r\n]+`    6. `\s+(?!\S)`    7. `\s+`
 */

const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const SPACE = 4; // ' ': a prefix of 1/2 and the optional space of 4
const BLANK = 5; // \t \v \f: a prefix of 1/2, white space
const NEWLINE = 6; // \r \n: white space, never a prefix
const OTHER = 7; // punctuation and control characters

const CLASS = new Uint8Array(128).fill(OTHER);
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = UPPER;
for (let c = 0x61; c <= 0x7a; c++) CLASS[c] = LOWER;
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = DIGIT;
CLASS[0x20] = SPACE;
CLASS[0x09] = BLANK;
CLASS[0x0b] = BLANK;
CLASS[0x0c] = BLANK;
CLASS[0x0a] = NEWLINE;
CLASS[0x0d] = NEWLINE;

/** Returned when a non-ASCII character decides the match: run the regex at this position. */
export const NEEDS_REGEX = -1;

/**
 * End of the o200k piece that starts at `pos` (< text.length), or {@link NEEDS_REGEX}.
 * @example o200kPieceEnd('Hello world', 5) // 11 (" world")
 */
export function o200kPieceEnd(text: string, pos: number): number {
  const n = text.length;
  const c = text.charCodeAt(pos);
  if (c >= 0x80) return NEEDS_REGEX;
  const kind = CLASS[c] as number;
  if (kind === UPPER || kind === LOWER) return letters(text, pos, n);
  if (kind === DIGIT) return digits(text, pos, n);
  if (kind === NEWLINE) return whitespace(text, pos, n);
  // SPACE, BLANK or OTHER: a one-character prefix of a word (alternatives 1/2)?
  if (pos + 1 < n) {
    const d = text.charCodeAt(pos + 1);
    if (d >= 0x80) return NEEDS_REGEX;
    const next = CLASS[d] as number;
    if (next === UPPER || next === LOWER) return letters(text, pos + 1, n);
    if (kind === SPACE && next === OTHER) return others(text, pos + 1, n);
  }
  if (kind === OTHER) return others(text, pos, n);
  return whitespace(text, pos, n);
}

/** Alternatives 1/2 from the first letter at `i`: UPPER* then lower* (at least one letter), then a contraction. */
function letters(text: string, i: number, n: number): number {
  let e = i;
  // Both runs stop at an ASCII non-letter; a non-ASCII character might continue them.
  while (e < n) {
    const d = text.charCodeAt(e);
    if (d >= 0x80) return NEEDS_REGEX;
    if (CLASS[d] !== UPPER) break;
    e++;
  }
  while (e < n) {
    const d = text.charCodeAt(e);
    if (d >= 0x80) return NEEDS_REGEX;
    if (CLASS[d] !== LOWER) break;
    e++;
  }
  return e < n && text.charCodeAt(e) === 0x27 ? e + contraction(text, e + 1, n) : e;
}

/** Length of `'s|'d|'m|'t|'ll|'ve|'re` (any case) whose quote is just before `i`, or 0. */
function contraction(text: string, i: number, n: number): number {
  if (i >= n) return 0;
  const a = text.charCodeAt(i) | 0x20; // ASCII lower case; harmless for other characters
  if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) return 2; // s d m t
  if (i + 1 >= n) return 0;
  const b = text.charCodeAt(i + 1) | 0x20;
  if ((a === 0x6c && b === 0x6c) || (a === 0x76 && b === 0x65) || (a === 0x72 && b === 0x65)) return 3; // ll ve re
  return 0;
}

/** Alternative 3: one to three digits. */
function digits(text: string, i: number, n: number): number {
  const stop = Math.min(n, i + 3);
  let e = i + 1;
  while (e < stop) {
    const d = text.charCodeAt(e);
    if (d >= 0x80) return NEEDS_REGEX; // might be a non-ASCII number
    if (CLASS[d] !== DIGIT) break;
    e++;
  }
  return e;
}

/** Alternative 4 from its first non-space, non-letter, non-digit character at `i`. */
function others(text: string, i: number, n: number): number {
  let e = i + 1;
  while (e < n) {
    const d = text.charCodeAt(e);
    if (d >= 0x80) return NEEDS_REGEX;
    if (CLASS[d] !== OTHER) break;
    e++;
  }
  // `[\r\n/]*`: line breaks, and slashes after them ('/' right after the run is part of it).
  while (e < n) {
    const d = text.charCodeAt(e);
    if (d !== 0x0a && d !== 0x0d && d !== 0x2f) break;
    e++;
  }
  return e;
}

/** Alternatives 5–7 over the white-space run at `i`. */
function whitespace(text: string, i: number, n: number): number {
  let e = i;
  let lastNewline = -1;
  while (e < n) {
    const d = text.charCodeAt(e);
    if (d >= 0x80) return NEEDS_REGEX; // might be white space (NBSP, U+2028, …)
    const kind = CLASS[d];
    if (kind === NEWLINE) lastNewline = e;
    else if (kind !== SPACE && kind !== BLANK) break;
    e++;
  }
  // 5. `\s*[\r\n]+`: backtracking leaves the run ending at its last line break.
  if (lastNewline >= 0) return lastNewline + 1;
  // 6. `\s+(?!\S)`: all of it at the end of text, else all but its last character; 7. `\s+`.
  if (e === n) return e;
  return e - i >= 2 ? e - 1 : e;
}

/**
 * End of the o200k piece at `pos`: by hand on ASCII, else by `sticky` (the o200k pattern with
 * flags `uy`) matched exactly at `pos`.
 * @example o200kNextEnd('naïve', 0, new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'uy')) // 5
 */
export function o200kNextEnd(text: string, pos: number, sticky: RegExp): number {
  const end = o200kPieceEnd(text, pos);
  if (end !== NEEDS_REGEX) return end;
  sticky.lastIndex = pos;
  const match = sticky.exec(text);
  if (match !== null && match[0].length > 0) return pos + match[0].length;
  // Unreachable for the o200k pattern (some alternative matches every code point); never loop.
  const c = text.charCodeAt(pos);
  return c >= 0xd800 && c <= 0xdbff && pos + 1 < text.length ? pos + 2 : pos + 1;
}

/**
 * The o200k pieces of `text` as {@link o200kNextEnd} cuts them (for tests and diagnostics).
 * @example o200kPieces("I'm here", sticky) // ["I'm", " here"]
 */
export function o200kPieces(text: string, sticky: RegExp): string[] {
  const pieces: string[] = [];
  for (let pos = 0; pos < text.length; ) {
    const end = o200kNextEnd(text, pos, sticky);
    pieces.push(text.slice(pos, end));
    pos = end;
  }
  return pieces;
}

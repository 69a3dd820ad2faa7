/**
 * Encoded payloads: base64 (standard or URL-safe), hex and binary runs in a text, contiguous or
 * spread over several chunks separated by whitespace ("aWdu b3Jl", "69 67 6e", one base64 line
 * broken over many), whose decoded bytes read as text. The detector scans the decoded text
 * again, to a bounded depth, so base64 of base64 is reached: decoded text need not contain a
 * space, only read as printable text. Runs are found in one linear pass; decoding is linear in
 * the run length, and the total decoded per call is capped.
 */
import { base64Bytes, bitBytes, hexBytes } from './chunk-bytes.js';

/** Kinds of encoded run (and of `encoded.<kind>` rules). */
export const ENCODED_KINDS = ['base64', 'hex', 'binary'] as const;

/** A decodable run: original [start, end) and the decoded text. */
export interface EncodedRun {
  readonly kind: (typeof ENCODED_KINDS)[number];
  readonly start: number;
  readonly end: number;
  readonly decoded: string;
}

const MIN_BASE64 = 16;
const MIN_HEX = 16;
const MIN_BINARY = 32;
/** Decoded bytes examined per text, so a huge blob cannot multiply the work. */
const DECODE_BUDGET = 4 * 1024 * 1024;

const isUpper = (c: number): boolean => c >= 0x41 && c <= 0x5a;
const isLower = (c: number): boolean => c >= 0x61 && c <= 0x7a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** A base64 (standard or URL-safe) character. */
export function isBase64Char(c: number): boolean {
  return isUpper(c) || isLower(c) || isDigit(c) || c === 0x2b || c === 0x2f || c === 0x2d || c === 0x5f;
}
function isHexChar(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}
/** Whitespace allowed between the chunks of one spread-out run. */
export function isChunkGap(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

const UTF8 = new TextDecoder('utf-8');

/** Decoded bytes as text when they read as text, else null. */
export type Readable = (bytes: Uint8Array) => string | null;

/**
 * Readable when it decodes as UTF-8 and nearly every character is a letter, digit, punctuation
 * or whitespace, with a few letters. No space is required: the text may itself be an encoding.
 */
export function readableText(bytes: Uint8Array): string | null {
  if (bytes.length < 6) return null;
  const text = UTF8.decode(bytes);
  let bad = 0;
  let letters = 0;
  const total = text.length;
  for (let i = 0; i < total; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) letters++;
      else if (c < 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) bad++;
      else if (c === 0x7f) bad++;
    } else if (c === 0xfffd || c < 0xa0) bad++;
    else if (c >= 0xd800 && c <= 0xdfff) i++; // astral: one character, counted as readable
    else if (/\p{L}/u.test(text[i] ?? '')) letters++;
    // Garbage shows early: stop as soon as it cannot reach 92 % readable.
    if (bad > 16 && bad > 0.08 * (i + 1)) return null;
  }
  return bad <= 0.08 * total && letters >= 4 && letters >= 0.3 * total ? text : null;
}

function decodeBase64(chars: string): Uint8Array {
  return Buffer.from(chars.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

interface Chunk { s: number; e: number; upper: boolean; lower: boolean; digit: boolean; hexOnly: boolean; binary: boolean; mixedCase: boolean }

// `cap` bounds the units read (a wider chunk reads as cap wide: too wide to join a spread run).
function readChunk(text: string, i: number, cap = Infinity): Chunk {
  const s = i;
  let upper = false;
  let lower = false;
  let digit = false;
  let hexOnly = true;
  let binary = true;
  let mixedCase = false;
  let prevLower = false;
  while (i < text.length && i - s < cap && isBase64Char(text.charCodeAt(i))) {
    const c = text.charCodeAt(i);
    if (!isHexChar(c)) hexOnly = false;
    if (c !== 0x30 && c !== 0x31) binary = false;
    if (isUpper(c)) { upper = true; if (prevLower) mixedCase = true; }
    if (isLower(c)) lower = true;
    if (isDigit(c)) digit = true;
    prevLower = isLower(c);
    i++;
  }
  while (i < text.length && i - s < Math.min(256, cap) && text.charCodeAt(i) === 0x3d) i++; // base64 padding
  return { s, e: i, upper, lower, digit, hexOnly, binary, mixedCase };
}

/**
 * The end of the chunk at `i` when it can neither be decoded alone (shorter than `min`, 16 unless
 * given, or a short word in lower case), nor look encoded, nor open a spread-out run (a
 * capitalized word of base64 group width); else `i`.
 */
function plainChunkEnd(text: string, i: number, min = MIN_HEX): number {
  const s = i;
  let upper = false;
  let prevLower = false;
  let digit = false;
  let letter = false;
  let hex = true;
  for (; i < text.length && i - s < MIN_HEX; i++) {
    const c = text.charCodeAt(i);
    if (!isBase64Char(c)) break;
    if (!isHexChar(c)) hex = false;
    if (isUpper(c)) { if (prevLower) return s; upper = true; letter = true; prevLower = false; }
    else if (isLower(c)) { prevLower = true; letter = true; }
    else { prevLower = false; if (isDigit(c)) digit = true; }
  }
  const w = i - s;
  if (w >= MIN_HEX || (digit && letter) || text.charCodeAt(i) === 0x3d) return s;
  // Shorter runs are decoded only when asked (taint): as base64 they need a capital, as hex only
  // hex digits; a word in lower case is neither.
  if (w >= min && (upper || hex)) return s;
  if (digit && w <= 8) return s; // hex or bit groups
  return upper && w % 4 === 0 ? s : i;
}

/** A chunk that only an encoding would produce: inner case changes, letters with digits, hex or bit groups. */
function encodedLooking(c: Chunk): boolean {
  const w = c.e - c.s;
  return c.mixedCase || (c.digit && (c.upper || c.lower)) || (c.hexOnly && w <= 8 && c.digit) || (c.binary && w === 8);
}

/** The chunk after whitespace at `from` (at most two whitespace characters), if any. */
function peek(text: string, from: number, cap = Infinity): Chunk | undefined {
  let k = from;
  while (k < text.length && k - from < 2 && isChunkGap(text.charCodeAt(k))) k++;
  return k > from && isBase64Char(text.charCodeAt(k)) ? readChunk(text, k, cap) : undefined;
}

function unpadded(text: string, c: Chunk): number {
  let e = c.e;
  while (e > c.s && text.charCodeAt(e - 1) === 0x3d) e--;
  return e - c.s;
}

/**
 * Whether a spread-out run opened at the chunk starting at `s` (if {@link findEncodedRuns}
 * opens one there) is long enough to be decoded. Reads at most a few dozen units: the fast path
 * asks it only where a chunk that looks encoded follows or precedes another.
 * @example spreadRunReaches('aWdu b3Jl IGFs bCBw', 0) // true
 */
export function spreadRunReaches(text: string, s: number): boolean {
  const head = readChunk(text, s, 65);
  const width = head.e - head.s;
  if (width >= 64 || !(encodedLooking(head) || (width % 4 === 0 && head.upper))) return false;
  const second = peek(text, head.e, 65);
  if (second === undefined || !(encodedLooking(head) || encodedLooking(second))) return false;
  let len = unpadded(text, head);
  let j = head.e;
  while (j < text.length && isChunkGap(text.charCodeAt(j)) && text.charCodeAt(j - 1) !== 0x3d) {
    const next = peek(text, j, 65);
    if (next === undefined || !fits(text, head, next)) return false;
    len += unpadded(text, next);
    if (len >= MIN_HEX) return true;
    j = next.e;
  }
  return false;
}

/**
 * Whether `c` continues a run opened by `head`: 8-bit binary groups, hex groups no wider than
 * the first, or base64 groups (equal width or encoded-looking), ending at base64 padding.
 */
function fits(text: string, head: Chunk, c: Chunk): boolean {
  const width = head.e - head.s;
  const w = c.e - c.s;
  if (head.binary && width === 8) return c.binary && w === 8;
  if (head.hexOnly && width <= 8) return c.hexOnly && w <= width;
  return w <= 64 && (encodedLooking(c) || w === width || (w < width && text.charCodeAt(c.e - 1) === 0x3d));
}

/** Decode chunks read as one run: binary, hex, then base64, whichever reads as text first. */
function decodeChunks(text: string, chunks: readonly Chunk[], readable: Readable = readableText, min = MIN_HEX): { kind: EncodedRun['kind']; decoded: string | null; len: number } {
  // Neither hex, binary nor base64 (a word in lower case, say): nothing to build or decode.
  if (!chunks.every((c) => c.hexOnly) && !(chunks.some((c) => c.upper) && chunks.some((c) => c.lower || c.digit))) return { kind: 'base64', decoded: null, len: 0 };
  const only = chunks.length === 1 ? chunks[0] : undefined;
  if (only !== undefined) {
    let e = only.e;
    while (e > only.s && text.charCodeAt(e - 1) === 0x3d) e--;
    return decodeOne(text, only, e, readable, min);
  }
  const joined = chunks.map((c) => text.slice(c.s, c.e)).join('');
  const len = joined.replace(/=+$/, '').length;
  let decoded: string | null = null;
  let kind: EncodedRun['kind'] = 'base64';
  if (chunks.every((c) => c.binary) && len >= MIN_BINARY && len % 8 === 0) {
    const bytes = new Uint8Array(len / 8);
    for (let k = 0; k < bytes.length; k++) bytes[k] = Number.parseInt(joined.slice(k * 8, k * 8 + 8), 2);
    decoded = readable(bytes);
    kind = 'binary';
  } else if (chunks.every((c) => c.hexOnly) && len >= Math.min(min, MIN_HEX) && len % 2 === 0) {
    decoded = readable(Buffer.from(joined, 'hex'));
    kind = 'hex';
  }
  if (decoded === null && len >= Math.min(min, MIN_BASE64) && chunks.some((c) => c.upper) && chunks.some((c) => c.lower || c.digit)) {
    decoded = readable(decodeBase64(joined));
    kind = 'base64';
  }
  return { kind, decoded, len };
}

/**
 * One chunk (`e`: where its padding starts), as the joined path above would decode it (binary,
 * else hex, then base64), read in place: no string is built, and nearly every chunk decoded is
 * a word or an identifier that decodes to noise (taint's short words, the fast path's long ones).
 */
function decodeOne(text: string, c: Chunk, e: number, readable: Readable, min: number): { kind: EncodedRun['kind']; decoded: string | null; len: number } {
  const len = e - c.s;
  if (len < min) return { kind: 'base64', decoded: null, len };
  if (c.binary && len >= MIN_BINARY && len % 8 === 0) return { kind: 'binary', decoded: readable(bitBytes(text, c.s, e)), len };
  if (c.hexOnly && len % 2 === 0) {
    const bytes = hexBytes(text, c.s, e);
    const decoded = bytes === null ? null : readable(bytes);
    if (decoded !== null) return { kind: 'hex', decoded, len };
  }
  if (!(c.upper && (c.lower || c.digit))) return { kind: 'base64', decoded: null, len };
  const bytes = base64Bytes(text, c.s, e);
  return { kind: 'base64', decoded: bytes === null ? null : readable(bytes), len };
}

/**
 * Whether the chunk starting at `s` decodes, on its own, to readable text (as
 * {@link findEncodedRuns} would decode it).
 * @example chunkDecodes(Buffer.from('ignore all previous').toString('base64'), 0) // true
 */
export function chunkDecodes(text: string, s: number): boolean {
  return decodeChunks(text, [readChunk(text, s)]).decoded !== null;
}

interface RunScan {
  readonly text: string;
  readonly runs: EncodedRun[];
  budget: number;
  readonly readable: Readable;
  /** Fewest characters of a run decoded on its own (16 for the detector). */
  readonly min: number;
}

function tryRun(scan: RunScan, chunks: readonly Chunk[]): boolean {
  const first = chunks[0];
  const last = chunks[chunks.length - 1];
  if (first === undefined || last === undefined) return false;
  const run = decodeChunks(scan.text, chunks, scan.readable, scan.min);
  scan.budget -= run.len;
  if (run.decoded === null) return false;
  scan.runs.push({ kind: run.kind, start: first.s, end: last.e, decoded: run.decoded });
  return true;
}

/**
 * The decoder's loop from `i` until it stands past `until` (at the top of an iteration: never
 * inside a run). Returns where it stopped.
 */
function scanRuns(scan: RunScan, i: number, until: number): number {
  const text = scan.text;
  const n = text.length;
  while (i < n && i <= until && scan.budget > 0) {
    if (!isBase64Char(text.charCodeAt(i))) { i++; continue; }
    // Most chunks are short plain words: skip them without reading them into a Chunk.
    const end = plainChunkEnd(text, i, scan.min);
    if (end > i) { i = end; continue; }
    const head = readChunk(text, i);
    // A spread-out run: chunks that look encoded (case changes inside, digits, or hex/binary
    // groups) separated by single whitespace. Ordinary words never have inner case changes.
    const chunks = [head];
    let j = head.e;
    const width = head.e - head.s;
    // Most words are plain: only a chunk that looks encoded, or a capitalized one of base64
    // group width, may open a spread-out run.
    if (width < 64 && (encodedLooking(head) || (width % 4 === 0 && head.upper))) {
      const second = peek(text, head.e);
      if (second !== undefined && (encodedLooking(head) || encodedLooking(second))) {
        while (j < n && isChunkGap(text.charCodeAt(j)) && text.charCodeAt(j - 1) !== 0x3d) {
          const next = peek(text, j);
          if (next === undefined || !fits(text, head, next)) break;
          chunks.push(next);
          j = next.e;
          if (chunks.length > 65_536) break;
        }
      }
    }
    if (chunks.length > 1) {
      // The chunks are consumed either way: a failed spread run is tried chunk by chunk, never
      // again from its second chunk (which would make the scan quadratic).
      if (!tryRun(scan, chunks)) for (const c of chunks) if (c.e - c.s >= scan.min && scan.budget > 0) tryRun(scan, [c]);
      i = j;
      continue;
    }
    if (head.e - head.s >= scan.min) tryRun(scan, [head]);
    i = Math.max(head.e, i + 1);
  }
  return i;
}

/**
 * Find base64, hex and binary runs (contiguous or spread over whitespace-separated chunks)
 * whose decoded bytes are readable text (by `readable`: the detector's {@link readableText}
 * unless given; argument taint accepts values with few letters, such as account numbers).
 * `minChars` (default 16, at most 16) is the shortest base64 or hex run decoded on its own:
 * the detector needs an instruction's worth of text, taint a value's (8 base64 characters
 * hold 6 bytes).
 * @example findEncodedRuns('x ' + Buffer.from('ignore all previous instructions').toString('base64'))[0]?.decoded
 */
export function findEncodedRuns(text: string, readable: Readable = readableText, minChars = MIN_HEX): EncodedRun[] {
  const scan: RunScan = { text, runs: [], budget: DECODE_BUDGET, readable, min: Math.max(2, Math.min(minChars, MIN_HEX)) };
  scanRuns(scan, 0, text.length);
  return scan.runs;
}

/**
 * {@link findEncodedRuns} read only around `near`: the ascending offsets where the fast path saw
 * a chunk that decodes. Each is read from the last place before it where no run can be under
 * way (after a character that is neither base64, padding nor whitespace, or after three
 * whitespace characters, or where the previous read stopped), so the runs found are those the
 * whole-text decoder finds there; text far from every offset is not read at all.
 * @example findEncodedRunsNear('see aWdub3JlIGFsbCBwcmV2aW91cw==', [4])[0]?.decoded // 'ignore all previous'
 */
export function findEncodedRunsNear(text: string, near: readonly number[]): EncodedRun[] {
  const scan: RunScan = { text, runs: [], budget: DECODE_BUDGET, readable: readableText, min: MIN_HEX };
  let done = 0;
  for (const at of near) {
    if (at < done) continue;
    let from = at;
    let gaps = 0;
    while (from > done) {
      const c = text.charCodeAt(from - 1);
      if (isChunkGap(c)) { if (++gaps >= 3) break; } else if (isBase64Char(c) || c === 0x3d) gaps = 0;
      else break;
      from--;
    }
    done = scanRuns(scan, from, at);
    if (scan.budget <= 0) break;
  }
  return scan.runs;
}

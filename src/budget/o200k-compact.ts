/**
 * A compact, exact BPE token counter over a tiktoken rank file. The data are gpt-tokenizer's own
 * shipped `o200k_base.tiktoken` and pre-tokenization cuts the pieces of its own o200k split regex,
 * so counts equal tiktoken's — and gpt-tokenizer's, with special-token strings counted as text,
 * except on U+FEFF, which gpt-tokenizer's decoder drops — while the tables take ~5 MB of typed
 * arrays instead of ~60 MB of strings and Maps. Nothing is loaded until the first count.
 */
import { createRequire } from 'node:module';
import { isTrcError, TrcError } from '../contract/index.js';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { FNV_OFFSET, FNV_PRIME, loadTiktokenFile, lookupHashed, lookupRank } from './bpe-rank-table.js';
import type { BpeRankTable } from './bpe-rank-table.js';
import { countMerged } from './bpe-merge.js';
import { o200kNextEnd } from './o200k-split.js';
import type { TokenCounter } from './token-counter.js';

/** How to build a {@link createTiktokenCounter} counter. */
export interface TiktokenCounterOptions {
  /** Counter name, e.g. `o200k_base`. */
  readonly name: string;
  /** Path of the `.tiktoken` rank file; called once, on the first count. */
  readonly file: () => string;
  /**
   * The encoding's pre-tokenization pattern (its flags are replaced by `gu`). The o200k pattern
   * (same source as gpt-tokenizer's) gets a hand-written ASCII fast path with the same pieces.
   */
  readonly splitPattern: RegExp;
}

/** A token counter whose tables load lazily, with a way to ask whether they have. */
export interface LazyTokenCounter extends TokenCounter {
  /** True once the rank table has been read. */
  isLoaded(): boolean;
}

/** Pieces up to this many UTF-16 units are encoded into one reused buffer. */
const SCRATCH_UNITS = 1 << 14;
const encoder = new TextEncoder();
const scratch = new Uint8Array(SCRATCH_UNITS * 3);

/**
 * A counter for any byte-level tiktoken encoding given its rank file and split pattern.
 * Special tokens are never recognised: tool output is untrusted data, so `<|endoftext|>` is text.
 * @example
 * const cl100k = createTiktokenCounter({ name: 'cl100k_base', file: () => require.resolve('gpt-tokenizer/data/cl100k_base.tiktoken'), splitPattern: CL100K_TOKEN_SPLIT_REGEX });
 */
export function createTiktokenCounter(options: TiktokenCounterOptions): LazyTokenCounter {
  const split = new RegExp(options.splitPattern.source, 'gu');
  // The o200k pattern gets the hand-written ASCII fast path (see o200k-split.ts).
  const sticky = options.splitPattern.source === O200K_TOKEN_SPLIT_REGEX.source ? new RegExp(options.splitPattern.source, 'uy') : null;
  let table: BpeRankTable | null = null;
  const cache = new Map<string, number>();

  /** Token count of `text`, or any number above `limit` as soon as the count passes it. */
  const countUpTo = (text: string, limit: number): number => {
    table ??= loadTable(options.file);
    let count = 0;
    if (sticky !== null) {
      for (let pos = 0; pos < text.length; ) {
        const end = o200kNextEnd(text, pos, sticky);
        count += countPiece(table, cache, text, pos, end);
        if (count > limit) return count;
        pos = end;
      }
      return count;
    }
    split.lastIndex = 0;
    try {
      for (let match = split.exec(text); match !== null; match = split.exec(text)) {
        if (match[0].length === 0) {
          // As matchAll does, step over an empty match by one code point.
          const c = text.charCodeAt(match.index);
          split.lastIndex = match.index + (c >= 0xd800 && c <= 0xdbff && match.index + 1 < text.length ? 2 : 1);
          continue;
        }
        count += countPiece(table, cache, text, match.index, match.index + match[0].length);
        if (count > limit) return count;
      }
    } finally {
      split.lastIndex = 0;
    }
    return count;
  };

  return {
    name: options.name,
    tokensAtMostBytes: true,
    count: (text) => countUpTo(text, Number.POSITIVE_INFINITY),
    isWithinLimit: (text, limit) => countUpTo(text, limit) <= limit,
    isLoaded: () => table !== null,
  };
}

/**
 * Read the rank table; a missing or unreadable file is `TOKENIZER_DATA_UNREADABLE` (a malformed
 * one `TOKENIZER_DATA_INVALID`, from the loader).
 */
function loadTable(file: () => string): BpeRankTable {
  let path = '';
  try {
    path = file();
    return loadTiktokenFile(path);
  } catch (cause) {
    if (isTrcError(cause)) throw cause;
    throw new TrcError('TOKENIZER_DATA_UNREADABLE', `cannot read the tokenizer rank file ${path || '(unresolved)'}: ${(cause as Error).message}`, { data: { file: path }, cause });
  }
}

/** Pieces up to this many UTF-16 units that need merging have their count cached. */
const CACHE_UNITS = 64;
/** Cache entries kept (< 1 MB); the cache is emptied when full, which is cheap and bounded. */
const CACHE_ENTRIES = 8192;

/**
 * Tokens of the piece `text[start..end)`: one if its bytes are a token, else the BPE merge
 * count. `cache` remembers merge counts of recent pieces that are not single tokens (long CJK
 * runs, rare words), which repeat often in tool output.
 */
function countPiece(table: BpeRankTable, cache: Map<string, number>, text: string, start: number, end: number): number {
  const units = end - start;
  if (units === 1 && text.charCodeAt(start) < 0x80) return 1;
  let len = 0;
  let buf = scratch;
  // Short ASCII pieces (most of JSON and English): copy and hash in one pass, no substring.
  if (units <= table.maxTokenBytes) {
    let hash = FNV_OFFSET;
    for (; len < units; len++) {
      const c = text.charCodeAt(start + len);
      if (c >= 0x80) break;
      buf[len] = c;
      hash = Math.imul(hash ^ c, FNV_PRIME);
    }
    if (len === units && lookupHashed(table, buf, 0, len, hash) >= 0) return 1;
  }
  const piece = text.slice(start, end);
  const cacheable = units <= CACHE_UNITS;
  if (cacheable) {
    const cached = cache.get(piece);
    if (cached !== undefined) return cached;
  }
  if (len !== units) {
    if (units > SCRATCH_UNITS) buf = new Uint8Array(units * 3);
    len = encoder.encodeInto(piece, buf).written;
    if (lookupRank(table, buf, 0, len) >= 0 && !hasLoneSurrogate(piece, len)) return 1;
  }
  const n = countMerged(table, buf, len);
  if (cacheable) {
    if (cache.size >= CACHE_ENTRIES) cache.clear();
    cache.set(piece, n);
  }
  return n;
}

/**
 * gpt-tokenizer looks a piece up as a JS string before merging its bytes, and a piece with a
 * lone surrogate (encoded as U+FFFD's bytes) never equals a token string: such pieces go straight
 * to merging there, so they do here too.
 */
function hasLoneSurrogate(piece: string, bytes: number): boolean {
  if (bytes === piece.length) return false; // ASCII
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const d = piece.charCodeAt(i + 1);
    if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) i++;
    else return true;
  }
  return false;
}

/**
 * The compact o200k_base counter: gpt-tokenizer's `data/o200k_base.tiktoken` and its o200k
 * split regex, loaded on the first count (~5 MB of typed arrays).
 * @example o200kCompactCounter.count('hello world') // 2
 */
export const o200kCompactCounter: LazyTokenCounter = createTiktokenCounter({
  name: 'o200k_base',
  file: () => createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken'),
  splitPattern: O200K_TOKEN_SPLIT_REGEX,
});

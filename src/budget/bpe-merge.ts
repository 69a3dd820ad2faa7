/**
 * Byte-pair merging as tiktoken does it, returning only the number of tokens: start from single
 * bytes, repeatedly merge the adjacent pair whose concatenation has the lowest rank (ties → the
 * leftmost), until no adjacent pair is a token. Short pieces use tiktoken's own linear scan;
 * long ones a min-heap keyed by (rank, start) so that a megabyte-long piece is not quadratic.
 */
import { lookupRank } from './bpe-rank-table.js';
import type { BpeRankTable } from './bpe-rank-table.js';

const NONE = 0x7fffffff;
/** Up to this many bytes the quadratic scan is faster than heap bookkeeping. */
export const HEAP_THRESHOLD = 128;

// Scratch for the scan, reused: pieces reaching it are at most HEAP_THRESHOLD bytes.
const scanStarts = new Int32Array(HEAP_THRESHOLD + 1);
const scanRanks = new Int32Array(HEAP_THRESHOLD + 1);

/**
 * Number of BPE tokens of `buf[0..len)`. Every single byte must be a token (true of byte-level
 * BPE vocabularies such as o200k), so the merge always ends in tokens.
 * @example countMerged(table, bytes, bytes.length) // 3
 */
export function countMerged(table: BpeRankTable, buf: Uint8Array, len: number): number {
  if (len <= 1) return len;
  return len <= HEAP_THRESHOLD ? countByScan(table, buf, len) : countByHeap(table, buf, len);
}

/** tiktoken's `_byte_pair_merge`: a flat list of part starts, rescanned for the minimum. */
function countByScan(table: BpeRankTable, buf: Uint8Array, len: number): number {
  const starts = scanStarts;
  const ranks = scanRanks;
  for (let i = 0; i <= len; i++) {
    starts[i] = i;
    ranks[i] = i + 2 <= len ? rankOr(table, buf, i, i + 2) : NONE;
  }
  let parts = len + 1; // entries in `starts`; tokens = parts - 1
  for (;;) {
    let min = NONE;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      const r = ranks[i] as number;
      if (r < min) {
        min = r;
        at = i;
      }
    }
    if (at < 0) break;
    // Remove boundary at+1: part `at` now spans to the start of what was part at+2.
    starts.copyWithin(at + 1, at + 2, parts);
    ranks.copyWithin(at + 1, at + 2, parts);
    parts--;
    ranks[at] = at + 2 < parts ? rankOr(table, buf, starts[at] as number, starts[at + 2] as number) : NONE;
    if (at > 0) ranks[at - 1] = rankOr(table, buf, starts[at - 1] as number, starts[at + 1] as number);
  }
  return parts - 1;
}

function rankOr(table: BpeRankTable, buf: Uint8Array, start: number, end: number): number {
  const r = lookupRank(table, buf, start, end);
  return r < 0 ? NONE : r;
}

/** Binary min-heap of doubles (pair keys), growable. */
class KeyHeap {
  keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(capacity, 4));
  }

  /** Turn `keys[0..size)` into a heap in O(n). */
  heapify(): void {
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.siftDown(i, this.keys[i] as number);
  }

  push(key: number): void {
    if (this.size === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    const keys = this.keys;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = keys[parent] as number;
      if (p <= key) break;
      keys[i] = p;
      i = parent;
    }
    keys[i] = key;
  }

  pop(): number {
    const top = this.keys[0] as number;
    const last = this.keys[--this.size] as number;
    if (this.size > 0) this.siftDown(0, last);
    return top;
  }

  private siftDown(from: number, key: number): void {
    const keys = this.keys;
    const size = this.size;
    let i = from;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      const right = child + 1;
      if (right < size && (keys[right] as number) < (keys[child] as number)) child = right;
      const c = keys[child] as number;
      if (c >= key) break;
      keys[i] = c;
      i = child;
    }
    keys[i] = key;
  }
}

const SHIFT = 2 ** 32;

/**
 * Same merges, in O(n log n): parts form a doubly linked list indexed by their start byte; a
 * binary min-heap holds candidate pairs keyed `rank · 2³² + start` (exact in a double: ranks
 * < 2²¹). A popped key is stale unless its part is alive and still has that pair rank — merging
 * never moves a part's start, so (rank, start) order is exactly tiktoken's "lowest, leftmost".
 */
function countByHeap(table: BpeRankTable, buf: Uint8Array, len: number): number {
  const next = new Int32Array(len);
  const prev = new Int32Array(len);
  const pairRank = new Int32Array(len); // rank of (part, next part), NONE if not a token; -1 = dead part
  // Stale keys stay until popped; the heap grows if merges outpace pops.
  const heap = new KeyHeap(len);
  for (let i = 0; i < len; i++) {
    next[i] = i + 1; // `len` marks the end
    prev[i] = i - 1;
    const r = i + 2 <= len ? rankOr(table, buf, i, i + 2) : NONE;
    pairRank[i] = r;
    if (r !== NONE) heap.keys[heap.size++] = r * SHIFT + i;
  }
  heap.heapify();
  let tokens = len;
  while (heap.size > 0) {
    const key = heap.pop();
    const start = key % SHIFT;
    const rank = (key - start) / SHIFT;
    if (pairRank[start] !== rank) continue; // stale: the part died or its pair changed
    const right = next[start] as number;
    const after = next[right] as number;
    // Merge `right` into `start`.
    pairRank[right] = -1;
    next[start] = after;
    if (after < len) prev[after] = start;
    tokens--;
    const own = after < len ? rankOr(table, buf, start, next[after] as number) : NONE;
    pairRank[start] = own;
    if (own !== NONE) heap.push(own * SHIFT + start);
    const left = prev[start] as number;
    if (left >= 0) {
      const theirs = rankOr(table, buf, left, after);
      pairRank[left] = theirs;
      if (theirs !== NONE) heap.push(theirs * SHIFT + left);
    }
  }
  return tokens;
}

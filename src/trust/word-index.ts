/**
 * Hashed word tables for the instruction detector's tokenizer and its fast path: a word is
 * looked up from the code units it was read into (no string is built), by a polynomial hash
 * computed while the word is read; tables are at most a quarter full, so "not there" usually
 * takes one probe. The polynomial form lets the hash of every one-letter deletion
 * of a word be derived in O(1) each, so the typo index (one insertion, deletion, substitution
 * or move) is probed without building a string either; a hash hit is only a candidate, which
 * the caller confirms on the real string.
 */

/** Multiplier of the polynomial word hash: h(w + u) = h(w) * B + u (mod 2^32). */
export const HASH_BASE = 0x01000193;
/** Longest word the deletion hashes are derived for. */
export const MAX_HASHED_DELETION = 32;

const POW = new Int32Array(MAX_HASHED_DELETION + 1);
POW[0] = 1;
for (let k = 1; k <= MAX_HASHED_DELETION; k++) POW[k] = Math.imul(POW[k - 1] ?? 1, HASH_BASE);

/** The hash of `word`, as the readers compute it unit by unit. */
export function hashString(word: string): number {
  let h = 0;
  for (let i = 0; i < word.length; i++) h = (Math.imul(h, HASH_BASE) + word.charCodeAt(i)) | 0;
  return h;
}

// Slot of a (hash, length) key in a table of 2^bits slots (Fibonacci hashing: high bits).
function slotOf(hash: number, len: number, shift: number): number {
  return Math.imul((hash + Math.imul(len, 0x2545f491)) | 0, 0x9e3779b1) >>> shift;
}

// A bit filter in front of each table (16 KB: stays in the L1 cache): most words are in none,
// and one bit test says so without touching the table. A key sets two bits, from two mixes of
// its hash; a probe tests the second only when the first is set, and reaches the table only
// when both are (about 1 % of absent keys with one bit it was about 6 %, each a cache miss).
const FILTER_SHIFT = 32 - 17;
const FILTER_LEN_MIX = 0x27d4eb2d;
const FILTER_MIX = 0x85ebca6b;
function filterBit(hash: number, len: number): number {
  return Math.imul((hash ^ Math.imul(len, FILTER_LEN_MIX)) | 0, FILTER_MIX) >>> FILTER_SHIFT;
}
function filterBit2(hash: number, len: number): number {
  return Math.imul((hash ^ Math.imul(len, 0x165667b1)) | 0, 0xc2b2ae35) >>> FILTER_SHIFT;
}
function filterAdd(filter: Int32Array, hash: number, len: number): void {
  for (const b of [filterBit(hash, len), filterBit2(hash, len)]) filter[b >>> 5] = (filter[b >>> 5] ?? 0) | (1 << (b & 31));
}
function filterHas(filter: Int32Array, hash: number, len: number): boolean {
  const b = filterBit(hash, len);
  if (((filter[b >>> 5] as number) & (1 << (b & 31))) === 0) return false;
  const b2 = filterBit2(hash, len);
  return ((filter[b2 >>> 5] as number) & (1 << (b2 & 31))) !== 0;
}

// Table size for n keys: at most a quarter full, so a miss usually stops at the first slot.
function bitsFor(n: number): number {
  let bits = 4;
  while (1 << bits < n * 4) bits++;
  return bits;
}

/** Words with a value each, found from their code units. */
export interface WordTable {
  /** The value of the word in `units[0, len)` whose hash is `hash`, or `missing`. */
  get(units: Uint16Array, len: number, hash: number, missing: number): number;
  /** The value of `word`, or `missing`. */
  getString(word: string, missing: number): number;
}

// Open addressing over one flat array, a slot being four int32s side by side — length + 1
// (0: empty), hash, offset of the word's units in the pool, value — so a probe reads one cache
// line; every word's units are kept in one pool for the check.
class FlatWordTable implements WordTable {
  private readonly shift: number;
  private readonly mask: number;
  private readonly slots: Int32Array;
  private readonly pool: Uint16Array;
  private readonly filter = new Int32Array(1 << 12);

  constructor(list: readonly (readonly [string, number])[]) {
    const bits = bitsFor(list.length);
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
    this.slots = new Int32Array(4 << bits);
    this.pool = new Uint16Array(list.reduce((a, [w]) => a + w.length, 0));
    let at = 0;
    for (const [word, value] of list) {
      const h = hashString(word);
      filterAdd(this.filter, h, word.length);
      let i = slotOf(h, word.length, this.shift);
      while ((this.slots[4 * i] ?? 0) !== 0) i = (i + 1) & this.mask;
      this.slots.set([word.length + 1, h, at, value], 4 * i);
      for (let k = 0; k < word.length; k++) this.pool[at++] = word.charCodeAt(k);
    }
  }

  get(units: Uint16Array, len: number, hash: number, missing: number): number {
    if (!filterHas(this.filter, hash, len)) return missing;
    const { pool, slots } = this;
    for (let i = slotOf(hash, len, this.shift); ; i = (i + 1) & this.mask) {
      const l = slots[4 * i] ?? 0;
      if (l === 0) return missing;
      if (l !== len + 1 || slots[4 * i + 1] !== hash) continue;
      const o = slots[4 * i + 2] ?? 0;
      let k = 0;
      while (k < len && pool[o + k] === units[k]) k++;
      if (k === len) return slots[4 * i + 3] ?? missing;
    }
  }

  getString(word: string, missing: number): number {
    const units = new Uint16Array(word.length);
    for (let k = 0; k < word.length; k++) units[k] = word.charCodeAt(k);
    return this.get(units, word.length, hashString(word), missing);
  }
}

/**
 * A table of words to values (open addressing; each hit is confirmed unit by unit).
 * @example buildWordTable([['ignore', 3]]).getString('ignore', -1) // 3
 */
export function buildWordTable(entries: Iterable<readonly [string, number]>): WordTable {
  return new FlatWordTable([...new Map(entries)]);
}

/** A set of (hash, length) keys: membership is a candidate, never a proof. */
export interface HashSet {
  has(hash: number, len: number): boolean;
  /** {@link deletionMayMatch} on this set. */
  hasWordOrDeletion(units: Uint16Array, len: number, hash: number): boolean;
}

// A slot is two int32s side by side: length + 1 (0 = empty) and hash.
class FlatHashSet implements HashSet {
  private readonly shift: number;
  private readonly mask: number;
  private readonly slots: Int32Array;
  private readonly filter = new Int32Array(1 << 12);

  constructor(words: readonly string[]) {
    const bits = bitsFor(words.length);
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
    this.slots = new Int32Array(2 << bits);
    for (const w of words) {
      const h = hashString(w);
      filterAdd(this.filter, h, w.length);
      let i = slotOf(h, w.length, this.shift);
      while ((this.slots[2 * i] ?? 0) !== 0 && !(this.slots[2 * i + 1] === h && this.slots[2 * i] === w.length + 1)) i = (i + 1) & this.mask;
      this.slots[2 * i] = w.length + 1;
      this.slots[2 * i + 1] = h;
    }
  }

  has(hash: number, len: number): boolean {
    if (!filterHas(this.filter, hash, len)) return false;
    const slots = this.slots;
    for (let i = slotOf(hash, len, this.shift); ; i = (i + 1) & this.mask) {
      const l = slots[2 * i] ?? 0;
      if (l === 0) return false;
      if (l === len + 1 && slots[2 * i + 1] === hash) return true;
    }
  }

  hasWordOrDeletion(units: Uint16Array, len: number, hash: number): boolean {
    if (this.has(hash, len)) return true;
    if (len > MAX_HASHED_DELETION) return true;
    // The hash without unit i is prefix(i) * B^(len-1-i) + hash - prefix(i+1) * B^(len-1-i); its
    // filter bit is tested here (the length is the same for every deletion), the table only
    // behind a set bit.
    const filter = this.filter;
    const lenMix = Math.imul(len - 1, FILTER_LEN_MIX);
    let pre = 0;
    for (let i = 0; i < len; i++) {
      const next = (Math.imul(pre, HASH_BASE) + (units[i] as number)) | 0;
      const h = (hash + Math.imul(pre - next, POW[len - 1 - i] as number)) | 0;
      const b = Math.imul((h ^ lenMix) | 0, FILTER_MIX) >>> FILTER_SHIFT;
      if (((filter[b >>> 5] as number) & (1 << (b & 31))) !== 0 && this.has(h, len - 1)) return true;
      pre = next;
    }
    return false;
  }
}

/**
 * The (hash, length) keys of `words`.
 * @example buildHashSet(['nstructions']).has(hashString('nstructions'), 11) // true
 */
export function buildHashSet(words: Iterable<string>): HashSet {
  return new FlatHashSet([...new Set(words)]);
}

/**
 * Whether the word in `units[0, len)` (hash `hash`) or one of its one-unit deletions is in
 * `set`. Exact when false: no such word is there.
 * @example deletionMayMatch(units, 13, hash, buildHashSet(['instructions']))
 */
export function deletionMayMatch(units: Uint16Array, len: number, hash: number, set: HashSet): boolean {
  return set.hasWordOrDeletion(units, len, hash);
}

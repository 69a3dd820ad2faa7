/**
 * Hashed word tables for the instruction detector's tokenizer and its fast path: a word is
 * looked up from the code units it was read into (no string is built), by a polynomial hash
 * computed while the word is read; a bit filter in front of each table answers "not there" for
 * most words with one bit test. The polynomial form lets the hash of every one-letter deletion
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

// Spread a (hash, length) key over the table's bits.
function slot(hash: number, len: number, mask: number): number {
  let x = (hash ^ Math.imul(len, 0x85ebca6b)) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) & mask;
}

// A bit filter in front of each table: most words are in none, and one bit test says so.
const FILTER_BITS = 17;
function filterBit(hash: number, len: number): number {
  return Math.imul(hash ^ (len << 24), 0x9e3779b1) >>> (32 - FILTER_BITS);
}
function newFilter(): Uint32Array {
  return new Uint32Array(1 << (FILTER_BITS - 5));
}
function inFilter(filter: Uint32Array, hash: number, len: number): boolean {
  const b = filterBit(hash, len);
  return ((filter[b >>> 5] ?? 0) & (1 << (b & 31))) !== 0;
}
function addToFilter(filter: Uint32Array, hash: number, len: number): void {
  const b = filterBit(hash, len);
  filter[b >>> 5] = (filter[b >>> 5] ?? 0) | (1 << (b & 31));
}

function capacityFor(n: number): number {
  let cap = 16;
  while (cap < n * 3) cap *= 2;
  return cap;
}

/** Words with a value each, found from their code units. */
export interface WordTable {
  /** The value of the word in `units[0, len)` whose hash is `hash`, or `missing`. */
  get(units: Uint16Array, len: number, hash: number, missing: number): number;
  /** The value of `word`, or `missing`. */
  getString(word: string, missing: number): number;
}

/**
 * A table of words to values (open addressing; each hit is confirmed unit by unit).
 * @example buildWordTable([['ignore', 3]]).getString('ignore', -1) // 3
 */
export function buildWordTable(entries: Iterable<readonly [string, number]>): WordTable {
  const list = [...new Map(entries)];
  const cap = capacityFor(list.length);
  const mask = cap - 1;
  const keys = new Int32Array(cap);
  const refs = new Int32Array(cap); // entry index + 1; 0 = empty
  const words: string[] = [];
  const values = new Int32Array(list.length);
  const filter = newFilter();
  for (const [word, value] of list) {
    const h = hashString(word);
    addToFilter(filter, h, word.length);
    let i = slot(h, word.length, mask);
    while ((refs[i] ?? 0) !== 0) i = (i + 1) & mask;
    keys[i] = h;
    refs[i] = words.length + 1;
    values[words.length] = value;
    words.push(word);
  }
  const get = (units: Uint16Array, len: number, hash: number, missing: number): number => {
    if (!inFilter(filter, hash, len)) return missing;
    let i = slot(hash, len, mask);
    for (let r = refs[i] ?? 0; r !== 0; i = (i + 1) & mask, r = refs[i] ?? 0) {
      if (keys[i] !== hash) continue;
      const w = words[r - 1] ?? '';
      if (w.length !== len) continue;
      let k = 0;
      while (k < len && w.charCodeAt(k) === units[k]) k++;
      if (k === len) return values[r - 1] ?? missing;
    }
    return missing;
  };
  return {
    get,
    getString: (word, missing) => {
      const units = new Uint16Array(word.length);
      for (let k = 0; k < word.length; k++) units[k] = word.charCodeAt(k);
      return get(units, word.length, hashString(word), missing);
    },
  };
}

/** A set of (hash, length) keys: membership is a candidate, never a proof. */
export interface HashSet {
  has(hash: number, len: number): boolean;
}

/**
 * The (hash, length) keys of `words`.
 * @example buildHashSet(['nstructions']).has(hashString('nstructions'), 11) // true
 */
export function buildHashSet(words: Iterable<string>): HashSet {
  const list = [...new Set(words)];
  const cap = capacityFor(list.length);
  const mask = cap - 1;
  const keys = new Int32Array(cap);
  const lens = new Int32Array(cap); // length + 1; 0 = empty
  const filter = newFilter();
  for (const w of list) {
    const h = hashString(w);
    addToFilter(filter, h, w.length);
    let i = slot(h, w.length, mask);
    while ((lens[i] ?? 0) !== 0 && !(keys[i] === h && lens[i] === w.length + 1)) i = (i + 1) & mask;
    keys[i] = h;
    lens[i] = w.length + 1;
  }
  return {
    has: (hash, len) => {
      if (!inFilter(filter, hash, len)) return false;
      let i = slot(hash, len, mask);
      for (let l = lens[i] ?? 0; l !== 0; i = (i + 1) & mask, l = lens[i] ?? 0) if (l === len + 1 && keys[i] === hash) return true;
      return false;
    },
  };
}

/**
 * Whether the word in `units[0, len)` (hash `hash`) or one of its one-unit deletions is in
 * `set`. Exact when false: no such word is there.
 * @example deletionMayMatch(units, 13, hash, buildHashSet(['instructions']))
 */
export function deletionMayMatch(units: Uint16Array, len: number, hash: number, set: HashSet): boolean {
  if (set.has(hash, len)) return true;
  if (len > MAX_HASHED_DELETION) return true;
  // prefix(i) * B^(len-1-i) + (hash - prefix(i+1) * B^(len-1-i)): the hash without unit i.
  let pre = 0;
  for (let i = 0; i < len; i++) {
    const next = (Math.imul(pre, HASH_BASE) + (units[i] ?? 0)) | 0;
    const p = POW[len - 1 - i] ?? 0;
    if (set.has((Math.imul(pre, p) + hash - Math.imul(next, p)) | 0, len - 1)) return true;
    pre = next;
  }
  return false;
}

/** A bounded cache keyed by a word's units (see {@link createUnitsCache}). */
export interface UnitsCache<T> {
  get(units: Uint16Array, len: number, hash: number): T | undefined;
  set(word: string, hash: number, value: T): void;
}

/**
 * A cache from words to values, looked up from code units without building a string; it is
 * emptied when it fills up.
 * @example createUnitsCache<number>(1024).get(units, 3, hashString('abc')) // undefined
 */
export function createUnitsCache<T>(capacity: number): UnitsCache<T> {
  let cap = 16;
  while (cap < capacity * 2) cap *= 2;
  const mask = cap - 1;
  const keys = new Int32Array(cap);
  let words: (string | undefined)[] = new Array<string | undefined>(cap);
  let values: (T | undefined)[] = new Array<T | undefined>(cap);
  let size = 0;
  return {
    get(units, len, hash) {
      let i = slot(hash, len, mask);
      for (let w = words[i]; w !== undefined; i = (i + 1) & mask, w = words[i]) {
        if (keys[i] !== hash || w.length !== len) continue;
        let k = 0;
        while (k < len && w.charCodeAt(k) === units[k]) k++;
        if (k === len) return values[i];
      }
      return undefined;
    },
    set(word, hash, value) {
      if (size >= capacity) {
        words = new Array<string | undefined>(cap);
        values = new Array<T | undefined>(cap);
        size = 0;
      }
      let i = slot(hash, word.length, mask);
      while (words[i] !== undefined) i = (i + 1) & mask;
      keys[i] = hash;
      words[i] = word;
      values[i] = value;
      size++;
    },
  };
}

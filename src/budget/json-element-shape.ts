/**
 * Field order of a scanned object exactly as `Object.keys(JSON.parse(element))` lists it, and
 * memos of recent shapes' raw key bytes: rows of one list usually share a shape (or a few, with
 * optional fields), so keys are decoded only when a new shape turns up.
 */
import type { ScannedElement } from './json-element-scanner.js';

/** The distinct fields of an object in `Object.keys` order. */
export interface ObjectShape {
  readonly keys: readonly string[];
  /** For each of `keys`, the index of its last occurrence among the scanned keys (the value `JSON.parse` keeps). */
  readonly source: readonly number[];
}

/** Key i of a scanned object, decoded (escapes resolved the way `JSON.parse` does). */
function decodeKey(e: ScannedElement, i: number): string {
  const from = e.keyFrom[i] as number;
  const to = e.keyTo[i] as number;
  if (e.keyEscaped[i] === 1) {
    // Include the quotes: JSON.parse then resolves exactly the escapes it would in the element.
    return JSON.parse(Buffer.from(e.bytes.buffer, e.bytes.byteOffset + from - 1, to - from + 2).toString('utf8')) as string;
  }
  return Buffer.from(e.bytes.buffer, e.bytes.byteOffset + from, to - from).toString('utf8');
}

/**
 * The fields of a scanned object in `Object.keys` order: integer-like keys ascending first,
 * then the others in first-seen order; a duplicate key keeps its first position and its last
 * value. Built through a real object so the engine's own ordering rules apply.
 * @example objectShape(scanned('{"b":1,"1":2,"b":3}')) // { keys: ['1', 'b'], source: [1, 2] }
 */
export function objectShape(e: ScannedElement): ObjectShape {
  // No prototype: "__proto__" is then an ordinary own key, as JSON.parse makes it.
  const last = Object.create(null) as Record<string, number>;
  for (let i = 0; i < e.keyCount; i++) last[decodeKey(e, i)] = i;
  const keys = Object.keys(last);
  return { keys, source: keys.map((k) => last[k] as number) };
}

/**
 * A hash of the raw key bytes of a scanned object (FNV-1a, key lengths mixed in).
 * @example shapeHash(scanned('{"a":1}')) === shapeHash(scanned('{"a":[2]}')) // true
 */
export function shapeHash(e: ScannedElement): number {
  const src = e.bytes;
  let h = Math.imul(0x811c9dc5 ^ e.keyCount, 0x01000193);
  for (let i = 0; i < e.keyCount; i++) {
    const from = e.keyFrom[i] as number;
    const to = e.keyTo[i] as number;
    for (let k = from; k < to; k++) h = Math.imul(h ^ (src[k] as number), 0x01000193);
    // The length ends each key, so "ab","" and "a","b" hash apart.
    h = Math.imul(h ^ (0x100 + to - from), 0x01000193);
  }
  return h >>> 0;
}

/** The raw key bytes of one scanned object, to tell whether another has the same. */
export class ShapeMemo {
  private readonly bytes: Uint8Array;
  /** End offset in `bytes` of each key. */
  private readonly ends: Float64Array;

  /**
   * Remember the keys of `e` (copied: its bytes may be reused).
   * @example new ShapeMemo(scanned('{"a":1}')).matches(scanned('{"a":2}')) // true
   */
  constructor(e: ScannedElement) {
    let total = 0;
    for (let i = 0; i < e.keyCount; i++) total += (e.keyTo[i] as number) - (e.keyFrom[i] as number);
    this.bytes = new Uint8Array(total);
    this.ends = new Float64Array(e.keyCount);
    let at = 0;
    for (let i = 0; i < e.keyCount; i++) {
      const from = e.keyFrom[i] as number;
      const to = e.keyTo[i] as number;
      this.bytes.set(e.bytes.subarray(from, to), at);
      at += to - from;
      this.ends[i] = at;
    }
  }

  /** True when `e` has the same keys, byte for byte and in the same order, as the remembered one. */
  matches(e: ScannedElement): boolean {
    if (e.keyCount !== this.ends.length) return false;
    const src = e.bytes;
    const own = this.bytes;
    let at = 0;
    for (let i = 0; i < e.keyCount; i++) {
      const from = e.keyFrom[i] as number;
      const len = (e.keyTo[i] as number) - from;
      const end = this.ends[i] as number;
      if (end - at !== len) return false;
      for (let k = 0; k < len; k++) if (src[from + k] !== own[at + k]) return false;
      at = end;
    }
    return true;
  }
}

interface ShapeEntry<T> {
  readonly memo: ShapeMemo;
  readonly value: T;
}

/**
 * Something worked out per shape (by its raw key bytes), for up to `size` shapes: rows with
 * optional fields come in many shapes, and working a shape out again costs far more than a look-up.
 */
export class ShapeCache<T> {
  private readonly byHash = new Map<number, ShapeEntry<T>>();
  /** The entry that matched last: tried first, as consecutive rows usually share a shape. */
  private last: ShapeEntry<T> | undefined;

  /** @param size how many shapes to remember; when full, the cache starts afresh (memory stays bounded). */
  constructor(private readonly size = 1024) {}

  /**
   * The value remembered for the shape of `e`, or undefined.
   * @example cache.get(scanner) ?? cache.set(scanner, workOut(scanner))
   */
  get(e: ScannedElement): T | undefined {
    if (this.last?.memo.matches(e) === true) return this.last.value;
    const entry = this.byHash.get(shapeHash(e));
    if (entry === undefined || !entry.memo.matches(e)) return undefined;
    this.last = entry;
    return entry.value;
  }

  /** Remember `value` for the shape of `e` (replacing a shape with the same hash); returns `value`. */
  set(e: ScannedElement, value: T): T {
    if (this.byHash.size >= this.size) this.byHash.clear();
    const entry = { memo: new ShapeMemo(e), value };
    this.byHash.set(shapeHash(e), entry);
    this.last = entry;
    return value;
  }
}

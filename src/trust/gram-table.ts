/**
 * A set of the distinct {@link TAINT_MIN_CHARS}-character windows ("grams") of some texts, with
 * where each was first seen: the index argument taint looks values up in. Open addressing over
 * typed arrays (12 bytes a slot, load ≤ ½), every hit verified against the text it points at,
 * so a hash collision can never make or hide a match. Adding a text and looking a window up
 * are both linear in the characters involved, whatever the texts hold: no window is compared
 * with more than one stored window per probe step, and probe chains stay short at load ½.
 */
import { TAINT_MIN_CHARS as K } from './taint-normalize.js';

const BASE = 0x01000193;
/** BASE^(K-1) mod 2^32, to drop a window's first unit from its rolling hash. */
const TOP = (() => { let t = 1; for (let j = 1; j < K; j++) t = Math.imul(t, BASE); return t; })();

/** Polynomial hash of the window of `K` units of `text` at `i`, mixed. */
function gramHash(text: string, i: number): number {
  let h = 0;
  for (let j = 0; j < K; j++) h = (Math.imul(h, BASE) + text.charCodeAt(i + j)) | 0;
  return mix(h);
}

/** Spread the rolling hash's bits so the table's low bits are well distributed. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return h ^ (h >>> 13);
}

function sameGram(a: string, i: number, b: string, j: number): boolean {
  for (let k = 0; k < K; k++) if (a.charCodeAt(i + k) !== b.charCodeAt(j + k)) return false;
  return true;
}

/** Work done so far, for tests that count instead of timing. */
export interface GramTableStats {
  /** Distinct windows stored. */
  readonly grams: number;
  /** Slots inspected by every insertion and look-up so far. */
  readonly probes: number;
}

/** The distinct windows of the texts added to it, each pointing at its first occurrence. */
export class GramTable {
  // One slot is three int32s side by side — hash, piece (-1: empty), offset — so a probe
  // touches one cache line, not three arrays.
  private slots = new Int32Array(3 * 1024).fill(-1);
  private capacity = 1024;
  private count = 0;
  private probeCount = 0;
  private readonly texts: string[] = [];
  /** True once a text could not be stored whole because the table reached `maxGrams`. */
  full = false;

  /** @param maxGrams stop storing new windows beyond this many (see {@link full}). */
  constructor(private readonly maxGrams = Number.POSITIVE_INFINITY) {}

  /** Store every window of `text` (already in taint form); returns its piece number. */
  add(text: string): number {
    const piece = this.texts.length;
    this.texts.push(text);
    if (text.length < K) return piece;
    // Rolling hash: one multiply-add per unit instead of K.
    let h = 0;
    for (let j = 0; j < K - 1; j++) h = (Math.imul(h, BASE) + text.charCodeAt(j)) | 0;
    for (let i = 0; i + K <= text.length; i++) {
      h = (Math.imul(h, BASE) + text.charCodeAt(i + K - 1)) | 0;
      if (this.count >= this.maxGrams) { this.full = true; break; }
      this.insert(text, i, piece, mix(h));
      h = (h - Math.imul(text.charCodeAt(i), TOP)) | 0;
    }
    return piece;
  }

  /** The piece holding the window of `text` at `i`, or -1. */
  find(text: string, i: number): number {
    const h = gramHash(text, i);
    const slots = this.slots;
    const mask = this.capacity - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      this.probeCount++;
      const p = slots[3 * s + 1] as number;
      if (p < 0) return -1;
      if (slots[3 * s] === h && sameGram(this.texts[p] as string, slots[3 * s + 2] as number, text, i)) return p;
    }
  }

  /** Work counters. */
  stats(): GramTableStats {
    return { grams: this.count, probes: this.probeCount };
  }

  private insert(text: string, i: number, piece: number, h: number): void {
    if ((this.count + 1) * 2 > this.capacity) this.grow();
    const slots = this.slots;
    const mask = this.capacity - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      this.probeCount++;
      const p = slots[3 * s + 1] as number;
      if (p < 0) {
        slots[3 * s] = h;
        slots[3 * s + 1] = piece;
        slots[3 * s + 2] = i;
        this.count++;
        return;
      }
      if (slots[3 * s] === h && sameGram(this.texts[p] as string, slots[3 * s + 2] as number, text, i)) return;
    }
  }

  private grow(): void {
    const old = this.slots;
    const oldCapacity = this.capacity;
    this.capacity *= 2;
    this.slots = new Int32Array(3 * this.capacity).fill(-1);
    const mask = this.capacity - 1;
    for (let s = 0; s < oldCapacity; s++) {
      const p = old[3 * s + 1] as number;
      if (p < 0) continue;
      const h = old[3 * s] as number;
      let t = h & mask;
      while ((this.slots[3 * t + 1] as number) >= 0) t = (t + 1) & mask;
      this.slots[3 * t] = h;
      this.slots[3 * t + 1] = p;
      this.slots[3 * t + 2] = old[3 * s + 2] as number;
    }
  }
}

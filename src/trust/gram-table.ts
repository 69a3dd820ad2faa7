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
  /** Texts kept: only texts that stored a window are (a look-up verifies a hit against them). */
  readonly texts: number;
  /** UTF-16 units of those texts, as kept (a text that stored few windows is kept in part). */
  readonly chars: number;
}

/** The distinct windows of the texts added to it, each pointing at its first occurrence. */
export class GramTable {
  // One slot is three int32s side by side — hash, piece (-1: empty), offset — so a probe
  // touches one cache line, not three arrays.
  private slots = new Int32Array(3 * 1024).fill(-1);
  private capacity = 1024;
  private count = 0;
  private probeCount = 0;
  private keptChars = 0;
  private readonly texts: string[] = [];
  /** True once a text could not be stored whole because the table reached `maxGrams`. */
  full = false;

  /** @param maxGrams stop storing new windows beyond this many (see {@link full}). */
  constructor(private readonly maxGrams = Number.POSITIVE_INFINITY) {}

  /**
   * Store every new window of `text` (already in taint form); returns its piece number, or -1
   * when it stored none (too short, every window already stored, or the table full). A run
   * re-reading the same page, or one past {@link full}, must not keep every text it ever saw:
   * only a text that stored a window is kept, and of a text that stored few (a long page that
   * mostly repeats what was seen), only the stretches around those windows.
   */
  add(text: string): number {
    if (text.length < K) return -1;
    const piece = this.texts.length;
    // Kept whole while its windows go in: a window repeated inside the text is checked against it.
    this.texts.push(text);
    const stored: number[] = [];
    // Rolling hash: one multiply-add per unit instead of K.
    let h = 0;
    for (let j = 0; j < K - 1; j++) h = (Math.imul(h, BASE) + text.charCodeAt(j)) | 0;
    for (let i = 0; i + K <= text.length; i++) {
      h = (Math.imul(h, BASE) + text.charCodeAt(i + K - 1)) | 0;
      if (this.count >= this.maxGrams) { this.full = true; break; }
      if (this.insert(text, i, piece, mix(h))) stored.push(i);
      h = (h - Math.imul(text.charCodeAt(i), TOP)) | 0;
    }
    if (stored.length === 0) {
      this.texts.pop();
      return -1;
    }
    // Stretches kept cost at most K + the windows' span each; keep the text whole when that is no saving.
    const kept = stored.length * 2 * K < text.length ? this.compact(text, piece, stored) : text;
    this.texts[piece] = kept;
    this.keptChars += kept.length;
    return piece;
  }

  /**
   * The stretches of `text` (piece `piece`) that its stored windows at `offsets` (ascending)
   * cover, joined, with those windows' slots moved into the joined string. A window never
   * crosses from one stretch into the next, so every stored window reads the same units.
   */
  private compact(text: string, piece: number, offsets: readonly number[]): string {
    const parts: string[] = [];
    let length = 0;
    let from = -1;
    let to = -1;
    let shift = 0;
    for (const at of offsets) {
      if (at > to) {
        if (from >= 0) {
          parts.push(text.slice(from, to));
          length += to - from;
        }
        from = at;
        shift = length - at;
      }
      to = at + K;
      // Found again by its hash: the table may have grown (and moved every slot) meanwhile.
      this.slots[3 * this.slotOf(text, at, piece) + 2] = at + shift;
    }
    parts.push(text.slice(from, to));
    return parts.join('');
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
    return { grams: this.count, probes: this.probeCount, texts: this.texts.length, chars: this.keptChars };
  }

  /** The slot of the window `piece` stored from `text` at `i` (it must be stored). */
  private slotOf(text: string, i: number, piece: number): number {
    const h = gramHash(text, i);
    const mask = this.capacity - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      if (this.slots[3 * s] === h && this.slots[3 * s + 1] === piece && this.slots[3 * s + 2] === i) return s;
    }
  }

  /** Store one window; false when the table had it already. */
  private insert(text: string, i: number, piece: number, h: number): boolean {
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
        return true;
      }
      if (slots[3 * s] === h && sameGram(this.texts[p] as string, slots[3 * s + 2] as number, text, i)) return false;
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

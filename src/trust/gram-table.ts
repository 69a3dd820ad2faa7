/**
 * A set of the distinct {@link TAINT_MIN_CHARS}-character windows ("grams") of some texts, with
 * where each was first seen: the index argument taint looks values up in. Open addressing over
 * typed arrays (12 bytes a slot, load ≤ ½), every hit verified against the text it points at,
 * so a hash collision can never make or hide a match. Adding a text and looking a window up
 * are both linear in the characters involved, whatever the texts hold: no window is compared
 * with more than one stored window per probe step, and probe chains stay short at load ½.
 */
import { TAINT_MIN_CHARS as K } from './taint-normalize.js';

/** Hash of the window of `K` units of `text` at `i`. */
function gramHash(text: string, i: number): number {
  let h = 0x811c9dc5;
  for (let j = 0; j < K; j++) h = Math.imul(h ^ text.charCodeAt(i + j), 0x01000193);
  return h ^ (h >>> 15);
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
  private hashes = new Int32Array(1024);
  private pieces = new Int32Array(1024).fill(-1);
  private offsets = new Int32Array(1024);
  private count = 0;
  private probeCount = 0;
  private readonly texts: string[] = [];

  /** @param maxGrams stop storing new windows beyond this many (see {@link full}). */
  constructor(private readonly maxGrams = Number.POSITIVE_INFINITY) {}

  /** True once a text could not be stored whole because the table reached `maxGrams`. */
  full = false;

  /** Store every window of `text` (already in taint form); returns its piece number. */
  add(text: string): number {
    const piece = this.texts.length;
    this.texts.push(text);
    for (let i = 0; i + K <= text.length; i++) {
      if (this.count >= this.maxGrams) { this.full = true; break; }
      this.insert(text, i, piece);
    }
    return piece;
  }

  /** The piece holding the window of `text` at `i`, or -1. */
  find(text: string, i: number): number {
    const h = gramHash(text, i);
    const mask = this.pieces.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      this.probeCount++;
      const p = this.pieces[s] as number;
      if (p < 0) return -1;
      if (this.hashes[s] === h && sameGram(this.texts[p] as string, this.offsets[s] as number, text, i)) return p;
    }
  }

  /** Work counters. */
  stats(): GramTableStats {
    return { grams: this.count, probes: this.probeCount };
  }

  private insert(text: string, i: number, piece: number): void {
    if ((this.count + 1) * 2 > this.pieces.length) this.grow();
    const h = gramHash(text, i);
    const mask = this.pieces.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      this.probeCount++;
      const p = this.pieces[s] as number;
      if (p < 0) {
        this.hashes[s] = h;
        this.pieces[s] = piece;
        this.offsets[s] = i;
        this.count++;
        return;
      }
      if (this.hashes[s] === h && sameGram(this.texts[p] as string, this.offsets[s] as number, text, i)) return;
    }
  }

  private grow(): void {
    const { hashes, pieces, offsets } = this;
    const cap = pieces.length * 2;
    this.hashes = new Int32Array(cap);
    this.pieces = new Int32Array(cap).fill(-1);
    this.offsets = new Int32Array(cap);
    const mask = cap - 1;
    for (let s = 0; s < pieces.length; s++) {
      const p = pieces[s] as number;
      if (p < 0) continue;
      let t = (hashes[s] as number) & mask;
      while ((this.pieces[t] as number) >= 0) t = (t + 1) & mask;
      this.hashes[t] = hashes[s] as number;
      this.pieces[t] = p;
      this.offsets[t] = offsets[s] as number;
    }
  }
}

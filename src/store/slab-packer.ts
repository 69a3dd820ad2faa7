/**
 * Texts kept as UTF-8 bytes in shared slabs that are used again once every text in them was
 * released. The memory store keeps audit records this way: off the JS heap, one allocation per
 * many records. A fresh slab is fresh memory, and its first touch costs a page fault per 4 KB
 * page; a store that drops its oldest records as it adds new ones would take a fresh slab every
 * hundred records or so for as long as it runs. Reusing the emptied ones keeps it on pages it has
 * touched already (memory store audit append, 2 KB records: ~16 → ~8 µs).
 */

/** One slab and how many packed texts still live in it. */
export interface Slab {
  readonly bytes: Buffer;
  live: number;
}

/** A packed text: its bytes, and the slab they live in (null: a buffer of their own). */
export interface Packed {
  readonly bytes: Buffer;
  readonly slab: Slab | null;
  /** Set by the first release; a second one is ignored. */
  released: boolean;
}

/** Packs texts into slabs; {@link SlabPacker.release} gives a text's bytes back, once. */
export interface SlabPacker {
  pack(text: string): Packed;
  /** The packed text is no longer read: its bytes may be written over once its slab empties. Once per text. */
  release(packed: Packed): void;
  /** Slabs allocated so far, and emptied ones waiting to be used again. */
  readonly stats: { readonly made: number; readonly free: number };
}

/**
 * A packer with slabs of `slabBytes`, keeping up to `keepFree` emptied slabs for reuse. A text
 * that could need more than a quarter of a slab gets a buffer of its own.
 * @example const p = createSlabPacker(); const a = p.pack('{"x":1}'); a.bytes.toString('utf8'); p.release(a);
 */
export function createSlabPacker(options: { slabBytes?: number; keepFree?: number } = {}): SlabPacker {
  const slabBytes = options.slabBytes ?? 256 * 1024;
  const keepFree = options.keepFree ?? 16;
  const free: Buffer[] = [];
  let made = 0;
  let current: Slab | null = null;
  let used = 0;
  const take = (): Slab => {
    const reused = free.pop();
    if (reused !== undefined) return { bytes: reused, live: 0 };
    made++;
    return { bytes: Buffer.allocUnsafe(slabBytes), live: 0 };
  };
  const retire = (slab: Slab): void => {
    if (free.length < keepFree) free.push(slab.bytes);
  };
  return {
    pack(text) {
      const worst = text.length * 3; // UTF-8 bytes per UTF-16 unit, at most
      if (worst > slabBytes / 4) return { bytes: Buffer.from(text, 'utf8'), slab: null, released: false };
      if (current === null || used + worst > slabBytes) {
        // A full slab whose texts are all gone already is reusable now; otherwise its last release retires it.
        if (current !== null && current.live === 0) retire(current);
        current = take();
        used = 0;
      }
      const n = current.bytes.write(text, used, 'utf8');
      const bytes = current.bytes.subarray(used, used + n);
      used += n;
      current.live++;
      return { bytes, slab: current, released: false };
    },
    release(packed) {
      const slab = packed.slab;
      if (slab === null || packed.released) return;
      packed.released = true;
      slab.live--;
      if (slab.live > 0) return;
      // The slab being filled starts over; an older one waits for reuse (a new Slab object, so
      // a second release of an old text cannot count against the texts written into it next).
      if (slab === current) used = 0;
      else retire(slab);
    },
    get stats() {
      return { made, free: free.length };
    },
  };
}

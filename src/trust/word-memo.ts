/**
 * A bounded memo from words to small integers, looked up from the code units a word was read
 * into (no string is built): the detector's fast path keeps there what its costly readings of a
 * long word concluded (a typo of a rule word, pieces of a joined run), since most long words of
 * a text recur in the next ones ("customer", "information"). Open addressing over one flat
 * array — a slot is four int32s side by side: length + 1 (0: empty), hash, offset of the
 * word's units in a pool, value — so a probe reads one cache line; every hit is checked unit
 * by unit. When full it is emptied and fills again.
 */

/** What {@link WordMemo.get} returns for a word it does not hold. */
export const NOT_MEMOIZED = -0x80000000;

/** Words to values; see the module comment. */
export class WordMemo {
  private readonly slots: Int32Array;
  private readonly pool: Uint16Array;
  private readonly mask: number;
  private readonly shift: number;
  private readonly capacity: number;
  private size = 0;
  private poolUsed = 0;

  /** @param bits log2 of the slots; at most half of them are filled, and the pool holds 16 units a word. */
  constructor(bits: number) {
    this.slots = new Int32Array(4 << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    this.capacity = 1 << (bits - 1);
    this.pool = new Uint16Array(16 << (bits - 1));
  }

  private slotOf(hash: number, len: number): number {
    return Math.imul((hash + Math.imul(len, 0x2545f491)) | 0, 0x9e3779b1) >>> this.shift;
  }

  /** The value of the word in `units[0, len)`, whose hash is `hash`, or {@link NOT_MEMOIZED}. */
  get(units: Uint16Array, len: number, hash: number): number {
    const { slots, pool, mask } = this;
    for (let i = this.slotOf(hash, len); ; i = (i + 1) & mask) {
      const l = slots[4 * i] as number;
      if (l === 0) return NOT_MEMOIZED;
      if (l !== len + 1 || slots[4 * i + 1] !== hash) continue;
      const o = slots[4 * i + 2] as number;
      let k = 0;
      while (k < len && pool[o + k] === units[k]) k++;
      if (k === len) return slots[4 * i + 3] as number;
    }
  }

  /** Remember `value` for the word in `units[0, len)` (not held yet), hash `hash`. */
  set(units: Uint16Array, len: number, hash: number, value: number): void {
    if (this.size >= this.capacity || this.poolUsed + len > this.pool.length) {
      this.slots.fill(0);
      this.size = 0;
      this.poolUsed = 0;
      if (len > this.pool.length) return;
    }
    const { slots, mask } = this;
    let i = this.slotOf(hash, len);
    while ((slots[4 * i] as number) !== 0) i = (i + 1) & mask;
    slots[4 * i] = len + 1;
    slots[4 * i + 1] = hash;
    slots[4 * i + 2] = this.poolUsed;
    slots[4 * i + 3] = value;
    this.pool.set(units.subarray(0, len), this.poolUsed);
    this.poolUsed += len;
    this.size++;
  }
}

/**
 * A compact byte-string → rank table for byte-level BPE, read from a tiktoken `.tiktoken` file
 * (lines `base64(token bytes) rank`). Everything lives in three typed arrays — all token bytes
 * back to back, their offsets, and an open-addressing hash — so the 200k o200k tokens cost
 * ~4 MB instead of the tens of MB that 200k JS strings and a Map take.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { TrcError } from '../contract/index.js';

/** The loaded table. Ranks are dense: token `r` is `bytes[offsets[r] .. offsets[r + 1])`. */
export interface BpeRankTable {
  /** All token bytes, token after token in rank order. */
  readonly bytes: Uint8Array;
  /** `size + 1` offsets into `bytes`. */
  readonly offsets: Uint32Array;
  /** Open-addressing slots holding `rank + 1` (0 = empty); length is a power of two. */
  readonly slots: Int32Array;
  readonly size: number;
  /** Length in bytes of the longest token: longer byte strings are surely not tokens. */
  readonly maxTokenBytes: number;
}

/** FNV-1a parameters (exported so a caller can hash while it writes the bytes). */
export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;
const READ_CHUNK = 1 << 16;

/** FNV-1a over `buf[start..end)`, as an unsigned-agnostic int32. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (buf[i] as number), FNV_PRIME);
  return h;
}

/**
 * The rank of the byte string `buf[start..end)`, or -1 when it is not a token.
 * @example lookupRank(table, new TextEncoder().encode('hello'), 0, 5) // 24912 in o200k_base
 */
export function lookupRank(table: BpeRankTable, buf: Uint8Array, start: number, end: number): number {
  const len = end - start;
  if (len > table.maxTokenBytes || len <= 0) return -1;
  return lookupHashed(table, buf, start, end, hashBytes(buf, start, end));
}

/** {@link lookupRank} when the caller already has `hashBytes(buf, start, end)`. */
export function lookupHashed(table: BpeRankTable, buf: Uint8Array, start: number, end: number, hash: number): number {
  const len = end - start;
  const { slots, offsets, bytes } = table;
  const mask = slots.length - 1;
  let slot = hash & mask;
  for (;;) {
    const entry = slots[slot] as number;
    if (entry === 0) return -1;
    const rank = entry - 1;
    const from = offsets[rank] as number;
    if ((offsets[rank + 1] as number) - from === len) {
      let i = 0;
      while (i < len && bytes[from + i] === buf[start + i]) i++;
      if (i === len) return rank;
    }
    slot = (slot + 1) & mask;
  }
}

const BASE64 = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++) BASE64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;

/** Growable byte/offset accumulators used only while loading. */
class Builder {
  bytes: Uint8Array;
  offsets: Uint32Array;
  used = 0;
  size = 0;
  maxTokenBytes = 0;

  constructor(byteCapacity: number, tokenCapacity: number) {
    this.bytes = new Uint8Array(byteCapacity);
    this.offsets = new Uint32Array(tokenCapacity + 1);
  }

  /** Decode one line (`base64 rank`, without its newline) held in `line[start..end)`. */
  addLine(line: Uint8Array, start: number, end: number, file: string): void {
    if (end > start && line[end - 1] === 0x0d) end--; // tolerate CRLF
    if (end === start) return;
    let space = start;
    while (space < end && line[space] !== 0x20) space++;
    let rank = 0;
    for (let i = space + 1; i < end; i++) {
      const d = (line[i] as number) - 0x30;
      if (d < 0 || d > 9) this.fail(file, 'rank is not a number');
      rank = rank * 10 + d;
    }
    // The table is indexed by rank, so the file must list ranks 0, 1, 2, … in order.
    if (space + 1 >= end || rank !== this.size) this.fail(file, `expected rank ${this.size}`);
    this.ensure(space - start);
    let acc = 0;
    let bits = 0;
    const first = this.used;
    for (let i = start; i < space; i++) {
      const c = line[i] as number;
      if (c === 0x3d) break; // '=' padding
      const v = BASE64[c] as number;
      if (v < 0) this.fail(file, 'token is not base64');
      acc = ((acc << 6) | v) & 0xffffff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        this.bytes[this.used++] = (acc >> bits) & 0xff;
      }
    }
    const len = this.used - first;
    if (len === 0) this.fail(file, 'empty token');
    if (len > this.maxTokenBytes) this.maxTokenBytes = len;
    if (this.size + 2 > this.offsets.length) {
      const grown = new Uint32Array(this.offsets.length * 2);
      grown.set(this.offsets);
      this.offsets = grown;
    }
    this.size++;
    this.offsets[this.size] = this.used;
  }

  private ensure(extra: number): void {
    if (this.used + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + extra));
    grown.set(this.bytes.subarray(0, this.used));
    this.bytes = grown;
  }

  private fail(file: string, why: string): never {
    throw new TrcError('TOKENIZER_DATA_INVALID', `bad tiktoken file ${file} at line ${this.size + 1}: ${why}`, { data: { file, line: this.size + 1 } });
  }

  finish(): BpeRankTable {
    // Views, not copies: the capacity guess overshoots by a few percent, and a copy would double
    // the peak while loading.
    const bytes = this.bytes.subarray(0, this.used);
    const offsets = this.offsets.subarray(0, this.size + 1);
    // Load factor ≤ 0.5 keeps linear probing short.
    let cap = 1;
    while (cap < this.size * 2) cap <<= 1;
    const slots = new Int32Array(cap);
    const mask = cap - 1;
    for (let rank = 0; rank < this.size; rank++) {
      let slot = hashBytes(bytes, offsets[rank] as number, offsets[rank + 1] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = rank + 1;
    }
    return { bytes, offsets, slots, size: this.size, maxTokenBytes: this.maxTokenBytes };
  }
}

/**
 * Read a `.tiktoken` file synchronously in 64 KB chunks (never the whole file as a string) into
 * a {@link BpeRankTable}. Throws `TrcError('TOKENIZER_DATA_INVALID')` on a malformed file.
 * @example const table = loadTiktokenFile(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'));
 */
export function loadTiktokenFile(file: string): BpeRankTable {
  const fd = openSync(file, 'r');
  try {
    const fileBytes = fstatSync(fd).size;
    // Decoded tokens take ~40% of the file, one line ~18 bytes: start near the final sizes.
    const builder = new Builder(Math.ceil(fileBytes * 0.4) + 1024, Math.ceil(fileBytes / 16) + 16);
    const chunk = new Uint8Array(READ_CHUNK);
    let carry: Uint8Array = new Uint8Array(256);
    let carried = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, READ_CHUNK, null);
      if (n === 0) break;
      let lineStart = 0;
      for (let i = 0; i < n; i++) {
        if (chunk[i] !== 0x0a) continue;
        if (carried > 0) {
          carry = appendTo(carry, carried, chunk, lineStart, i);
          builder.addLine(carry, 0, carried + i - lineStart, file);
          carried = 0;
        } else {
          builder.addLine(chunk, lineStart, i, file);
        }
        lineStart = i + 1;
      }
      carry = appendTo(carry, carried, chunk, lineStart, n);
      carried += n - lineStart;
    }
    if (carried > 0) builder.addLine(carry, 0, carried, file);
    if (builder.size === 0) throw new TrcError('TOKENIZER_DATA_INVALID', `empty tiktoken file ${file}`, { data: { file } });
    return builder.finish();
  } finally {
    closeSync(fd);
  }
}

/** `carry[0..carried)` followed by `src[from..to)`, growing `carry` when needed. */
function appendTo(carry: Uint8Array, carried: number, src: Uint8Array, from: number, to: number): Uint8Array {
  const need = carried + to - from;
  let out = carry;
  if (need > carry.length) {
    out = new Uint8Array(Math.max(need, carry.length * 2));
    out.set(carry.subarray(0, carried));
  }
  out.set(src.subarray(from, to), carried);
  return out;
}

import { createHash, type Hash } from 'node:crypto';
import { STORE_ERROR_CODES, storeError } from './errors.js';

/** Default size of a stored chunk (bytes). Big enough to amortize row overhead, small enough to stream. */
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/**
 * Re-cuts arbitrary writes into fixed-size chunks, hashing and counting as it goes, so a
 * resource of any size is held in memory at most one chunk at a time. Each full chunk is handed
 * to `flush` with its sequence number; `finish()` flushes the tail. Shared by every store.
 *
 * Pending bytes are gathered in one buffer that is reused for every chunk: a fresh buffer per
 * chunk (plus a copy per write) left ~200 MB of dead buffers behind a 100 MB spool, which the
 * GC freed too late to keep peak RSS low. The view handed to `flush` is therefore only valid
 * until the promise `flush` returns settles: a sink that keeps the bytes must copy them.
 */
export class Chunker {
  readonly #flush: (seq: number, data: Uint8Array) => Promise<void> | void;
  readonly #chunkBytes: number;
  readonly #hash: Hash = createHash('sha256');
  // Grows by doubling up to one chunk, so small resources do not pay for a full chunk.
  #buffer: Uint8Array = new Uint8Array(0);
  #pendingBytes = 0;
  #seq = 0;
  #bytes = 0;

  constructor(flush: (seq: number, data: Uint8Array) => Promise<void> | void, chunkBytes: number = DEFAULT_CHUNK_BYTES) {
    if (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1) {
      throw storeError(STORE_ERROR_CODES.badOptions, `chunkBytes must be a positive integer, got ${String(chunkBytes)}`);
    }
    this.#flush = flush;
    this.#chunkBytes = chunkBytes;
  }

  /** Total bytes written so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Append bytes; flushes every full chunk. The caller may reuse `chunk` once this settles. */
  async write(chunk: Uint8Array): Promise<void> {
    if (!(chunk instanceof Uint8Array)) {
      throw storeError(STORE_ERROR_CODES.badChunk, 'ResourceWriter.write expects a Uint8Array');
    }
    this.#hash.update(chunk);
    this.#bytes += chunk.byteLength;
    let offset = 0;
    const size = this.#chunkBytes;
    while (offset < chunk.byteLength) {
      const left = chunk.byteLength - offset;
      if (this.#pendingBytes === 0 && left >= size) {
        // A whole chunk of the caller's bytes: hand over a view, no copy (the caller waits for us).
        await this.#emit(chunk.subarray(offset, offset + size));
        offset += size;
        continue;
      }
      const take = Math.min(size - this.#pendingBytes, left);
      this.#reserve(this.#pendingBytes + take);
      this.#buffer.set(chunk.subarray(offset, offset + take), this.#pendingBytes);
      this.#pendingBytes += take;
      offset += take;
      if (this.#pendingBytes === size) await this.#emitPending();
    }
  }

  /** Flush the remaining bytes and return the totals. */
  async finish(): Promise<{ bytes: number; sha256: string; chunks: number }> {
    if (this.#pendingBytes > 0) await this.#emitPending();
    this.#buffer = new Uint8Array(0);
    return { bytes: this.#bytes, sha256: this.#hash.digest('hex'), chunks: this.#seq };
  }

  #reserve(bytes: number): void {
    if (bytes <= this.#buffer.byteLength) return;
    let size = Math.max(this.#buffer.byteLength * 2, 64 * 1024);
    while (size < bytes) size *= 2;
    const grown = new Uint8Array(Math.min(size, this.#chunkBytes));
    grown.set(this.#buffer.subarray(0, this.#pendingBytes));
    this.#buffer = grown;
  }

  async #emitPending(): Promise<void> {
    const data = this.#buffer.subarray(0, this.#pendingBytes);
    this.#pendingBytes = 0;
    await this.#emit(data);
  }

  async #emit(data: Uint8Array): Promise<void> {
    const seq = this.#seq;
    this.#seq += 1;
    await this.#flush(seq, data);
  }
}

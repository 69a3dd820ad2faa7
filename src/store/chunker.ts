import { createHash, type Hash } from 'node:crypto';
import { STORE_ERROR_CODES, storeError } from './errors.js';

/** Default size of a stored chunk (bytes). Big enough to amortize row overhead, small enough to stream. */
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/**
 * Re-cuts arbitrary writes into fixed-size chunks, hashing and counting as it goes, so a
 * resource of any size is held in memory at most one chunk at a time. Each full chunk is handed
 * to `flush` with its sequence number; `finish()` flushes the tail. Shared by every store.
 */
export class Chunker {
  readonly #flush: (seq: number, data: Uint8Array) => Promise<void> | void;
  readonly #chunkBytes: number;
  readonly #hash: Hash = createHash('sha256');
  #buffer: Uint8Array;
  #used = 0;
  #seq = 0;
  #bytes = 0;

  constructor(flush: (seq: number, data: Uint8Array) => Promise<void> | void, chunkBytes: number = DEFAULT_CHUNK_BYTES) {
    this.#flush = flush;
    this.#chunkBytes = chunkBytes;
    this.#buffer = new Uint8Array(chunkBytes);
  }

  /** Total bytes written so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Append bytes; flushes every full chunk. The caller may reuse `chunk` afterwards. */
  async write(chunk: Uint8Array): Promise<void> {
    if (!(chunk instanceof Uint8Array)) {
      throw storeError(STORE_ERROR_CODES.badChunk, 'ResourceWriter.write expects a Uint8Array');
    }
    this.#hash.update(chunk);
    this.#bytes += chunk.byteLength;
    let offset = 0;
    while (offset < chunk.byteLength) {
      const take = Math.min(this.#chunkBytes - this.#used, chunk.byteLength - offset);
      this.#buffer.set(chunk.subarray(offset, offset + take), this.#used);
      this.#used += take;
      offset += take;
      if (this.#used === this.#chunkBytes) await this.#emit();
    }
  }

  /** Flush the remaining bytes and return the totals. */
  async finish(): Promise<{ bytes: number; sha256: string; chunks: number }> {
    if (this.#used > 0) await this.#emit();
    return { bytes: this.#bytes, sha256: this.#hash.digest('hex'), chunks: this.#seq };
  }

  async #emit(): Promise<void> {
    const data = this.#buffer.subarray(0, this.#used);
    const seq = this.#seq;
    this.#seq += 1;
    // A fresh buffer per chunk: the flushed one may still be referenced by the backend.
    this.#buffer = new Uint8Array(this.#chunkBytes);
    this.#used = 0;
    await this.#flush(seq, data);
  }
}

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
  // Copies of pending pieces (the caller may reuse its buffers); at most one chunk's worth.
  #pending: Uint8Array[] = [];
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

  /** Append bytes; flushes every full chunk. The caller may reuse `chunk` afterwards. */
  async write(chunk: Uint8Array): Promise<void> {
    if (!(chunk instanceof Uint8Array)) {
      throw storeError(STORE_ERROR_CODES.badChunk, 'ResourceWriter.write expects a Uint8Array');
    }
    this.#hash.update(chunk);
    this.#bytes += chunk.byteLength;
    let offset = 0;
    while (offset < chunk.byteLength) {
      const take = Math.min(this.#chunkBytes - this.#pendingBytes, chunk.byteLength - offset);
      this.#pending.push(chunk.slice(offset, offset + take));
      this.#pendingBytes += take;
      offset += take;
      if (this.#pendingBytes === this.#chunkBytes) await this.#emit();
    }
  }

  /** Flush the remaining bytes and return the totals. */
  async finish(): Promise<{ bytes: number; sha256: string; chunks: number }> {
    if (this.#pendingBytes > 0) await this.#emit();
    return { bytes: this.#bytes, sha256: this.#hash.digest('hex'), chunks: this.#seq };
  }

  async #emit(): Promise<void> {
    const pieces = this.#pending;
    let data: Uint8Array;
    if (pieces.length === 1 && pieces[0] !== undefined) {
      data = pieces[0];
    } else {
      data = new Uint8Array(this.#pendingBytes);
      let at = 0;
      for (const piece of pieces) {
        data.set(piece, at);
        at += piece.byteLength;
      }
    }
    const seq = this.#seq;
    this.#seq += 1;
    this.#pending = [];
    this.#pendingBytes = 0;
    await this.#flush(seq, data);
  }
}

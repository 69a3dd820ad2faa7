import type { ResourceMeta, ResourceWriter } from './types.js';
import { Chunker, DEFAULT_CHUNK_BYTES } from './chunker.js';
import { asStoreError } from './backend-guard.js';
import { STORE_ERROR_CODES, storeError } from './errors.js';

/** What a backend supplies to get a {@link ResourceWriter}. */
export interface ChunkSink {
  /**
   * Persist one chunk (not yet visible). `data` is a view of a buffer the writer reuses once the
   * returned promise settles: copy it to keep it.
   */
  writeChunk(seq: number, data: Uint8Array): Promise<void> | void;
  /** Make the resource visible with these totals; return its metadata. */
  commit(totals: { bytes: number; sha256: string; chunks: number }): Promise<ResourceMeta> | ResourceMeta;
  /** Drop everything written so far. Must be safe to call after a failed write or commit. */
  discard(): Promise<void> | void;
}

/**
 * The writer state machine shared by all stores: writes are serialized, a failed write or
 * commit discards the partial resource, and after `commit`/`abort` the writer refuses use.
 */
export function createChunkedWriter(id: string, sink: ChunkSink, chunkBytes: number = DEFAULT_CHUNK_BYTES): ResourceWriter {
  const chunker = new Chunker((seq, data) => sink.writeChunk(seq, data), chunkBytes);
  let state: 'open' | 'committed' | 'aborted' = 'open';
  // Serialize calls: a caller that does not await write() must still get ordered chunks.
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = tail.then(task, task);
    tail = next.catch(() => undefined);
    return next;
  };
  const ensureOpen = (what: string): void => {
    if (state !== 'open') throw storeError(STORE_ERROR_CODES.writerClosed, `cannot ${what}: resource writer already ${state}`);
  };
  const failAndDiscard = async (cause: unknown, operation: string): Promise<never> => {
    state = 'aborted';
    await Promise.resolve().then(() => sink.discard()).catch(() => undefined);
    throw asStoreError(cause, operation);
  };
  return {
    id,
    write(chunk) {
      return serial(async () => {
        ensureOpen('write');
        if (!(chunk instanceof Uint8Array)) {
          throw storeError(STORE_ERROR_CODES.badChunk, 'ResourceWriter.write expects a Uint8Array');
        }
        try {
          await chunker.write(chunk);
        } catch (cause) {
          await failAndDiscard(cause, 'ResourceWriter.write');
        }
      });
    },
    commit() {
      return serial(async () => {
        ensureOpen('commit');
        try {
          const totals = await chunker.finish();
          const meta = await sink.commit(totals);
          state = 'committed';
          return meta;
        } catch (cause) {
          return failAndDiscard(cause, 'ResourceWriter.commit');
        }
      });
    },
    abort() {
      return serial(async () => {
        // Aborting twice, or after a failure, is a no-op; aborting a committed resource is not.
        if (state === 'aborted') return;
        ensureOpen('abort');
        state = 'aborted';
        try {
          await sink.discard();
        } catch (error) {
          throw asStoreError(error, 'ResourceWriter.abort');
        }
      });
    },
  };
}

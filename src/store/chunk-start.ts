/**
 * Where a read from byte `from` of a chunked resource starts: the first chunk that holds that
 * byte, and how many of its bytes come before it. A reader that resumes part-way (the gateway's
 * chunked `resources/read`) then reads that chunk on, instead of every chunk before it again.
 */

/** The chunk a read from `from` starts in; `seq` is the chunk count when `from` is at or past the end. */
export interface ChunkStart {
  readonly seq: number;
  readonly skip: number;
}

/**
 * Find the chunk holding byte `from`, given the chunks' lengths in order.
 * @example chunkStart([4, 4, 2], 5) // { seq: 1, skip: 1 }
 */
export function chunkStart(lengths: Iterable<number>, from: number): ChunkStart {
  let seq = 0;
  let at = 0;
  for (const length of lengths) {
    if (from < at + length) return { seq, skip: from - at };
    at += length;
    seq += 1;
  }
  return { seq, skip: 0 };
}

/** Byte offsets are whole numbers from 0: anything else reads from the start. */
export function startByte(from: number | undefined): number {
  return from !== undefined && Number.isSafeInteger(from) && from > 0 ? from : 0;
}

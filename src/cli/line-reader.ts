/**
 * Lines of a byte stream with a cap on the length of one line, for the JSON Lines readers.
 * `node:readline` builds every line as a string, so one line past V8's string limit (~512 MiB)
 * ends in an uncaught `RangeError`; this reader refuses a line beyond its cap instead, and
 * stops reading there, so memory stays at the cap.
 */
import { InputError, formatBytes } from './input.js';

/** A line longer than the reader's cap. */
export class LineTooLongError extends InputError {
  constructor(source: string, readonly line: number, readonly limit: number) {
    super(`${source}:${line}: the line is larger than ${formatBytes(limit)}, the limit for one line`);
  }
}

/** One line: its bytes without the line break (LF or CRLF) and its 1-based number. */
export interface Line {
  readonly bytes: Buffer;
  readonly number: number;
}

/**
 * Yield every line of `chunks`. A line is a view of the chunk it is in, or one buffer joined
 * once from the chunks it spans (which are kept, not copied, until then: the chunks of a
 * stream are fresh buffers, never reused). The last line may lack its line break; an empty
 * input has no lines. Throws {@link LineTooLongError} as soon as a line passes `maxLineBytes`.
 */
export async function* readLines(chunks: AsyncIterable<Buffer | string>, maxLineBytes: number, source: string): AsyncGenerator<Line> {
  let pieces: Buffer[] = [];
  let pending = 0;
  let number = 0;
  const finish = (tail: Buffer): Buffer => {
    pieces.push(tail);
    const whole = pieces.length === 1 ? tail : Buffer.concat(pieces, pending + tail.length);
    pieces = [];
    pending = 0;
    return whole.length > 0 && whole[whole.length - 1] === 0x0d ? whole.subarray(0, whole.length - 1) : whole;
  };
  for await (const part of chunks) {
    const chunk = typeof part === 'string' ? Buffer.from(part) : part;
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      number++;
      if (pending + nl - start > maxLineBytes) throw new LineTooLongError(source, number, maxLineBytes);
      yield { bytes: finish(chunk.subarray(start, nl)), number };
      start = nl + 1;
    }
    if (start < chunk.length) {
      pending += chunk.length - start;
      if (pending > maxLineBytes) throw new LineTooLongError(source, number + 1, maxLineBytes);
      pieces.push(chunk.subarray(start));
    }
  }
  if (pending > 0) {
    number++;
    yield { bytes: finish(Buffer.alloc(0)), number };
  }
}

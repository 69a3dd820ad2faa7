/**
 * A cap on the length of one line of a stream, for stdio transports that buffer a message
 * until its newline (the MCP SDK's stdio transport re-concatenates its buffer on every chunk,
 * so one endless line costs quadratic time and unbounded memory).
 */
import { Transform, type Readable } from 'node:stream';

/**
 * `input` with every line checked against `maxLineBytes`. The first line past the cap stops
 * the stream: nothing more is passed on, `input` is let go, and `onTooLong` is called once.
 */
export function capLineLength(input: Readable, maxLineBytes: number, onTooLong: () => void): Readable {
  let pending = 0;
  let tripped = false;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (tripped) return done();
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        if (pending + nl - start > maxLineBytes) break;
        pending = 0;
        start = nl + 1;
      }
      pending += chunk.length - start;
      if (pending > maxLineBytes || (start < chunk.length && chunk.indexOf(0x0a, start) !== -1)) {
        tripped = true;
        input.unpipe(capped);
        input.destroy();
        capped.end();
        onTooLong();
        return done();
      }
      done(null, chunk);
    },
  });
  input.pipe(capped);
  return capped;
}

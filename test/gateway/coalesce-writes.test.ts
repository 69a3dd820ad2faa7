/**
 * Coalesced stdio writes: the messages of one event-loop turn leave in one write, in order, and
 * notifications are never held back behind a later response.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from '../../src/gateway/index.js';

function sink(): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      writes.push(chunk.toString());
      cb();
    },
    writev(chunks, cb) {
      writes.push(chunks.map((c) => String(c.chunk)).join(''));
      cb();
    },
  });
  return { stream, writes };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('coalesced stdio writes', () => {
  const response = (i: number) => `{"jsonrpc":"2.0","id":${i},"result":{}}\n`;

  it('sends the first response of a turn at once and the rest of that turn in one write, in order', async () => {
    const { stream, writes } = sink();
    coalesceWrites(stream);
    for (let i = 0; i < 5; i++) stream.write(response(i));
    // Nothing waits for the end of the turn but what came after the first message.
    expect(writes).toEqual([response(0)]);
    await turn();
    await turn();
    expect(writes).toEqual([response(0), [1, 2, 3, 4].map(response).join('')]);
  });

  it('sends a lone message of a later turn at once too', async () => {
    const { stream, writes } = sink();
    coalesceWrites(stream);
    stream.write(response(1));
    stream.write(response(2));
    await turn();
    await turn();
    stream.write(response(3));
    expect(writes).toEqual([response(1), response(2), response(3)]);
  });

  it('writes a notification at once, after what was queued before it and before the response after it', async () => {
    const { stream, writes } = sink();
    coalesceWrites(stream);
    stream.write('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    stream.write('{"method":"notifications/progress","params":{"progress":3}}\n');
    stream.write('{"jsonrpc":"2.0","id":2,"result":{}}\n');
    await turn();
    await turn();
    expect(writes).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}\n', '{"method":"notifications/progress","params":{"progress":3}}\n', '{"jsonrpc":"2.0","id":2,"result":{}}\n']);
  });
});

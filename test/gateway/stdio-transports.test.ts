import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { lineTransport } from '../../src/gateway/stdio-transports.js';

/** A writable that takes one chunk per `release()` call, with a one-byte buffer. */
function slowReader(): { out: Writable; lines: string[]; release: () => void; pending: () => number } {
  const waiting: (() => void)[] = [];
  const lines: string[] = [];
  const out = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, callback) {
      lines.push(chunk.toString('utf8'));
      waiting.push(() => callback());
    },
  });
  return { out, lines, release: () => waiting.shift()?.(), pending: () => waiting.length };
}

const message = (i: number) => ({ jsonrpc: '2.0' as const, id: i, result: { n: i } });

describe('gateway — stdio transport writes', () => {
  it('waits for a full pipe without a listener per answer queued, and keeps their order', async () => {
    const reader = slowReader();
    const t = lineTransport(new PassThrough(), reader.out, { maxMessageBytes: 1024, side: 'client' });
    await t.start();
    let sent = 0;
    const sends = Array.from({ length: 200 }, (_, i) => t.send(message(i)).then(() => { sent++; }));
    await new Promise((r) => setImmediate(r));
    expect(reader.out.listenerCount('drain')).toBe(0);
    expect(reader.out.listenerCount('close')).toBeLessThanOrEqual(1);
    expect(sent).toBe(0);
    while (reader.pending() > 0 || sent < 200) {
      reader.release();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(sends);
    expect(reader.lines.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('fails the answers still queued when the pipe closes, and leaves no listener behind', async () => {
    const reader = slowReader();
    const t = lineTransport(new PassThrough(), reader.out, { maxMessageBytes: 1024, side: 'client' });
    await t.start();
    const outcomes = Array.from({ length: 20 }, (_, i) => t.send(message(i)).then(() => 'sent', (e: Error) => e.message));
    await new Promise((r) => setImmediate(r));
    reader.out.destroy();
    const settled = await Promise.all(outcomes);
    // None reached the reader's side (it took none of them): every send fails, none hangs.
    expect(settled).toEqual(Array.from({ length: 20 }, () => 'the pipe closed before the message was written'));
    expect(reader.out.listenerCount('close')).toBe(0);
  });
});

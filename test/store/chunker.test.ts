import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Chunker } from '../../src/store/chunker.js';
import { STORE_ERROR_CODES } from '../../src/store/index.js';
import { expectCode } from './store-helpers.js';

describe('chunker', () => {
  it('re-cuts any writes into full chunks plus one tail, keeping every byte in order (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 64 }), fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 20 }), async (size, writes) => {
        const flushed: { seq: number; data: Uint8Array }[] = [];
        const chunker = new Chunker((seq, data) => {
          flushed.push({ seq, data: data.slice() });
        }, size);
        for (const w of writes) await chunker.write(w);
        const totals = await chunker.finish();
        const input = Buffer.concat(writes);
        expect(Buffer.concat(flushed.map((f) => f.data)).equals(input)).toBe(true);
        expect(flushed.map((f) => f.seq)).toEqual(flushed.map((_, i) => i));
        expect(flushed.slice(0, -1).every((f) => f.data.byteLength === size)).toBe(true);
        expect(flushed.every((f) => f.data.byteLength > 0 && f.data.byteLength <= size)).toBe(true);
        expect(totals).toEqual({ bytes: input.byteLength, sha256: createHash('sha256').update(input).digest('hex'), chunks: flushed.length });
      }),
    );
  });

  it('refuses a chunk size that is not a positive integer', async () => {
    await expectCode(Promise.resolve().then(() => new Chunker(() => undefined, 0)), STORE_ERROR_CODES.badOptions);
    await expectCode(Promise.resolve().then(() => new Chunker(() => undefined, 1.5)), STORE_ERROR_CODES.badOptions);
  });
});

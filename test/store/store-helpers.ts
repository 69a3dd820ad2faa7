import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { isTrcError } from '../../src/contract/index.js';
import type { Store } from '../../src/store/index.js';

/** Concatenate everything an async byte stream yields. */
export async function collect(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts);
}

/** Expect a promise to reject with a TrcError carrying `code`. */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error, `expected rejection with ${code}`).toBeDefined();
  expect(isTrcError(error) ? error.code : error).toBe(code);
}

/** A ledgerBegin input for `key` with fixed, readable values. */
export function ledgerInput(key: string) {
  return { key, tool: 'pay', principal: 'alice', argsDigest: 'sha256:aa', callId: `call-${key}`, now: '2026-01-01T00:00:00.000Z' };
}

/** Parse a JSON fixture from `test/store/fixtures/`. */
export function readFixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as unknown;
}

/** `store`, counting the bytes its resource reads hand out (to show a reader reads what it needs). */
export function countingReads(store: Store): { store: Store; read: () => number } {
  let read = 0;
  const wrapped: Store = Object.assign(Object.create(store) as Store, {
    async *readResource(id: string, from?: number) {
      for await (const chunk of store.readResource(id, from)) {
        read += chunk.byteLength;
        yield chunk;
      }
    },
  });
  return { store: wrapped, read: () => read };
}

/**
 * The chunked `resources/read` of a large stored result: every chunk decodes on its own, the
 * joined chunks are the stored bytes, and each chunk is read from the store where it starts —
 * following `next` through a result used to re-read every chunk before the one asked for.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/budget/index.js';
import { READ_CHUNK_BYTES, readGatewayResource } from '../../src/gateway/stored-resource-read.js';
import type { SessionState } from '../../src/gateway/session-state.js';
import { createMemoryStore } from '../../src/store/index.js';
import { countingReads } from '../store/store-helpers.js';

describe('a 12 MB stored text read through resources/read', () => {
  it('reads back byte for byte in chunks under the client limit, each stored byte read about once', async () => {
    // 4-byte characters (surrogate pairs in UTF-16) and 3-byte ones, so chunk edges fall inside characters.
    const text = 'a😀中'.repeat(Math.ceil((12 * 1024 * 1024) / 8));
    const bytes = Buffer.byteLength(text);
    const base = createMemoryStore({ maxResourceBytes: 64 * 1024 * 1024 });
    const env = await fit({ content: text }, { maxBytes: 4096 }, { store: base, principal: 'alice', tool: 'read_file', raw: text });
    const uri = env.resources?.[0]?.uri ?? '';
    const { store, read } = countingReads(base);
    const state = { options: { store }, principal: 'alice' } as unknown as SessionState;

    let joined = '';
    let reads = 0;
    for (let next: string | null = uri; next !== null; reads++) {
      const answer = await readGatewayResource(state, next);
      const chunk = (answer['_meta'] as Record<string, { offset: number; bytes: number; sha256: string; next: string | null }>)['dev.tool-result-contract/chunk'];
      const part = (answer['contents'] as { text: string }[])[0]?.text ?? '';
      expect(chunk?.offset).toBe(Buffer.byteLength(joined));
      expect(Buffer.byteLength(part)).toBe(chunk?.bytes);
      expect(Buffer.byteLength(part)).toBeLessThanOrEqual(READ_CHUNK_BYTES);
      expect(part.includes('\uFFFD')).toBe(false);
      joined += part;
      next = chunk?.next ?? null;
    }
    expect(reads).toBeGreaterThanOrEqual(12);
    expect(joined === text).toBe(true);
    expect(createHash('sha256').update(joined).digest('hex')).toBe(env.resources?.[0]?.sha256);
    // Each read starts at the stored chunk holding its offset: at most one stored chunk (1 MiB)
    // read beyond its own bytes, instead of everything before it.
    expect(read()).toBeLessThanOrEqual(bytes + reads * 2 * READ_CHUNK_BYTES);
  });

  it('refuses every chunk to another principal, as it refuses the first', async () => {
    const store = createMemoryStore();
    const text = 'x'.repeat(3 * READ_CHUNK_BYTES);
    const env = await fit({ content: text }, { maxBytes: 4096 }, { store, principal: 'alice', tool: 'read_file', raw: text });
    const uri = env.resources?.[0]?.uri ?? '';
    const bob = { options: { store }, principal: 'bob' } as unknown as SessionState;
    for (const u of [uri, `${uri}?offset=${READ_CHUNK_BYTES}`]) await expect(readGatewayResource(bob, u)).rejects.toMatchObject({ code: -32002 });
  });
});

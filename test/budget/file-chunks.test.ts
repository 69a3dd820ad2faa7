import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileChunks, fit, fitStream } from '../../src/budget/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/types.js';
import { readStored } from './helpers.js';

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trc-budget-files-'));
  store = await openSqliteStore({ path: join(dir, 'trc.sqlite') });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ROWS = Array.from({ length: 40 }, (_, i) => ({ id: i, s: ['a,]"}', 'é😀', '\\"', '中文'][i % 4], n: i * 1.5 }));

describe('fileChunks', () => {
  it('yields the bytes of a file in order, reusing one buffer', async () => {
    const path = join(dir, 'plain.bin');
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    writeFileSync(path, bytes);
    const views: Uint8Array[] = [];
    const copies: Buffer[] = [];
    for await (const chunk of fileChunks(path, 64)) {
      views.push(chunk);
      copies.push(Buffer.from(chunk));
    }
    expect(Buffer.concat(copies).equals(bytes)).toBe(true);
    expect(copies.length).toBe(Math.ceil(1000 / 64));
    expect(new Set(views.map((v) => v.buffer)).size).toBe(1);
  });

  it('lets fitStream fit a file read through a reused buffer at every small chunk size, storing it byte for byte', async () => {
    const text = JSON.stringify(ROWS, null, 1);
    const path = join(dir, 'rows.json');
    writeFileSync(path, text);
    const whole = await fit(ROWS, { maxItems: 5 }, { tool: 't', callId: 'c' });
    for (const size of [1, 2, 3, 5, 7, 16, 61]) {
      const env = await fitStream(fileChunks(path, size), { maxItems: 5 }, { store, principal: 'p', tool: 't', callId: 'c' });
      expect(env.data).toEqual(whole.data);
      expect(env.completeness).toMatchObject({ returned_items: 5, available_items: ROWS.length });
      expect(env.summary?.stats).toEqual(whole.summary?.stats);
      const uri = env.resources?.[0]?.uri ?? '';
      expect((await readStored(store, uri, 'p')).toString('utf8')).toBe(text);
    }
  });

  it('parses a file that is not a top-level array whole, however small the reused buffer', async () => {
    const value = { rows: ROWS, note: 'ünïcode 😀' };
    const path = join(dir, 'object.json');
    writeFileSync(path, JSON.stringify(value));
    const env = await fitStream(fileChunks(path, 3), { maxItems: 4 }, { store, principal: 'p', tool: 't' });
    const direct = await fit(value, { maxItems: 4 }, { tool: 't' });
    expect(env.data).toEqual(direct.data);
  });
});

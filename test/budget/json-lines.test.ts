import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit, fitStream, page } from '../../src/budget/index.js';
import { isTrcError, validate } from '../../src/contract/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/types.js';
import { chunked, readStored } from './helpers.js';

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trc-jsonl-'));
  store = await openSqliteStore({ path: join(dir, 'trc.sqlite') });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const row = fc.record({ id: fc.integer(), name: fc.string(), score: fc.double({ noNaN: true, noDefaultInfinity: true }), tags: fc.array(fc.string(), { maxLength: 3 }) });

describe('fitStream with format jsonl', () => {
  it('fits JSON Lines exactly as fit fits the same rows as an array, whatever the chunking, line endings and blank lines (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 40 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.integer({ min: 1, max: 10 }),
        async (rows, eol, blanks, cuts, maxItems) => {
          const text = rows.map((r) => JSON.stringify(r)).join(blanks ? `${eol}${eol}  ${eol}` : eol) + (blanks ? eol : '');
          const bytes = Buffer.from(text);
          const ctx = { tool: 't', callId: 'c', now: () => new Date('2026-01-01T00:00:00Z') };
          const streamed = await fitStream(chunked(bytes, cuts.map((c) => c % bytes.length)), { maxItems }, { ...ctx, format: 'jsonl' });
          // The rows as JSON gives them back (-0 is written as 0).
          const whole = await fit(rows.map((r) => JSON.parse(JSON.stringify(r)) as unknown), { maxItems }, ctx);
          expect(validate(streamed).valid).toBe(true);
          expect(streamed.data).toEqual(whole.data);
          expect(streamed.completeness).toEqual(whole.completeness);
          expect(streamed.summary?.stats).toEqual(whole.summary?.stats);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('stores the raw JSON Lines byte for byte, as application/jsonl', async () => {
    const text = Array.from({ length: 50 }, (_, i) => JSON.stringify({ i, s: 'é😀\\n' })).join('\n');
    const env = await fitStream(chunked(Buffer.from(text), [7, 300]), { maxItems: 5 }, { store, principal: 'alice', tool: 'export', format: 'jsonl' });
    expect(env.completeness).toMatchObject({ returned_items: 5, available_items: 50 });
    expect(env.resources?.[0]?.mime_type).toBe('application/jsonl');
    expect((await readStored(store, env.resources?.[0]?.uri ?? '', 'alice')).toString('utf8')).toBe(text);
  });

  it('pages through a fitted JSON Lines result to its last line, with exact counts on every page', async () => {
    const rows = Array.from({ length: 47 }, (_, i) => ({ i, s: 'é😀' }));
    const text = rows.map((r) => JSON.stringify(r)).join('\r\n') + '\n\n';
    const env = await fitStream(chunked(Buffer.from(text), [5, 200]), { maxItems: 10 }, { store, principal: 'alice', tool: 'export', format: 'jsonl' });
    const seen: unknown[] = [...(env.data as unknown[])];
    let cursor = env.completeness?.next?.value ?? null;
    while (cursor !== null) {
      const next = await page(cursor, 'alice', { store, pageSize: 15 });
      expect(validate(next).valid).toBe(true);
      expect(next.completeness).toMatchObject({ returned_items: (next.data as unknown[]).length, available_items: rows.length - seen.length });
      seen.push(...(next.data as unknown[]));
      cursor = next.completeness?.next?.value ?? null;
      if (cursor === null) expect(next.completeness?.state).toBe('complete');
    }
    expect(seen).toEqual(rows);
  });

  it('names the line of a value that is not JSON, and stores nothing', async () => {
    for (const maxItems of [100, 1]) {
      const err = await fitStream(chunked(Buffer.from('{"a":1}\n\n{"a":2}\n{"a": 3,}\n{"a":4}\n'), [12]), { maxItems }, { store, principal: 'alice', format: 'jsonl' }).catch((e: unknown) => e);
      expect(isTrcError(err, 'INPUT_NOT_JSON')).toBe(true);
      expect((err as { data: { line: number } }).data.line).toBe(4);
    }
    // Two values on one line are not JSON Lines.
    const two = await fitStream(chunked(Buffer.from('{"a":1} {"a":2}\n'), []), {}, { format: 'jsonl' }).catch((e: unknown) => e);
    expect(isTrcError(two, 'INPUT_NOT_JSON')).toBe(true);
  });
});

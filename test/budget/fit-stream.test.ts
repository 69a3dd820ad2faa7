import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit, fitStream } from '../../src/budget/index.js';
import { isTrcError, resolvePointer, validate } from '../../src/contract/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/types.js';
import { chunked, parseExact, readStored } from './helpers.js';
import { jsonTexts, objectRows } from './json-element-arbitraries.js';

let dir: string;
let dbPath: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trc-budget-'));
  dbPath = join(dir, 'trc.sqlite');
  store = await openSqliteStore({ path: dbPath });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ROWS = [{ id: 1, s: 'a,]"}' }, { id: 2, s: 'é😀' }, { id: 3, s: '\\"' }, { id: 4, s: '中文' }, { id: 5, s: 'x' }];
const TEXT = JSON.stringify(ROWS, null, 1);

const resourceRows = (): number => {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM resources').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('fitStream', () => {
  it('gives the same envelope data and books as fit, at every chunk split point', async () => {
    const bytes = Buffer.from(TEXT, 'utf8');
    const whole = await fit(ROWS, { maxItems: 2 }, { tool: 't' });
    for (let i = 0; i <= bytes.length; i++) {
      const out = await fitStream(chunked(bytes, [i]), { maxItems: 2 }, { tool: 't' });
      expect(out.data).toEqual(whole.data);
      expect(out.completeness?.trimmed).toEqual(whole.completeness?.trimmed);
      expect(out.summary).toEqual(whole.summary);
    }
  });

  it('spools the raw bytes to SQLite, reproducing the input byte for byte', async () => {
    const bytes = Buffer.from(TEXT, 'utf8');
    const out = await fitStream(chunked(bytes, [3, 17, 40]), { maxItems: 2 }, { store, principal: 'alice', tool: 't' });
    expect(validate(out).valid).toBe(true);
    expect(out.completeness).toMatchObject({ state: 'truncated', returned_items: 2, available_items: 5 });
    const stored = await readStored(store, out.resources?.[0]?.uri ?? '', 'alice');
    expect(stored.equals(bytes)).toBe(true);
  });

  it('counts every element of a long stream while keeping only the budget', async () => {
    async function* rows() {
      yield '[';
      for (let i = 0; i < 20_000; i++) yield (i > 0 ? ',' : '') + JSON.stringify({ id: i, v: i % 7 });
      yield ']';
    }
    const out = await fitStream(rows(), { maxItems: 10 }, {});
    expect(out.completeness).toMatchObject({ returned_items: 10, available_items: 20_000 });
    expect(out.summary?.stats).toMatchObject({ lists: [{ total: 20_000, kept: 10, omitted: { count: 19_990, fields: { id: { min: 10, max: 19_999 } } } }] });
  });

  it('parses input that is not a top-level array whole and stores it byte for byte', async () => {
    const text = ` \n{"items": ${TEXT}}`;
    const out = await fitStream(chunked(Buffer.from(text), [1, 2, 9]), { maxItems: 2 }, { store, principal: 'alice' });
    expect(out.completeness).toMatchObject({ returned_items: 2, available_items: 5 });
    expect((await readStored(store, out.resources?.[0]?.uri ?? '', 'alice')).toString('utf8')).toBe(text);
  });

  it('stores nothing when the result already fits', async () => {
    const before = resourceRows();
    const out = await fitStream(chunked(Buffer.from(TEXT), [5]), {}, { store, principal: 'alice' });
    expect(out.status).toBe('succeeded');
    expect(resourceRows()).toBe(before);
  });

  it('fails on not-JSON with line and column and leaves nothing half-written in the store', async () => {
    const before = resourceRows();
    const text = '[{"id":1},\n {"id": 2,}]';
    // maxItems 1 sends the bad element down the omitted-run path, 100 down the kept path.
    for (const [cut, maxItems] of [[0, 100], [5, 100], [14, 1], [20, 1], [0, 1], [5, 1]] as const) {
      const err = await fitStream(chunked(Buffer.from(text), [cut]), { maxItems }, { store, principal: 'alice' }).catch((e: unknown) => e);
      expect(isTrcError(err, 'INPUT_NOT_JSON')).toBe(true);
      expect((err as { data: unknown }).data).toMatchObject({ line: 2, column: 11 });
    }
    const bad = await fitStream(chunked(Buffer.from('{"a": [1, 2'), []), {}, { store, principal: 'alice' }).catch((e: unknown) => e);
    expect(isTrcError(bad, 'INPUT_NOT_JSON')).toBe(true);
    expect(resourceRows()).toBe(before);
  });

  it('accepts a mutated array exactly when JSON.parse does, and leaves nothing in the store when it refuses (property)', async () => {
    const before = resourceRows();
    let refused = 0;
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ id: fc.integer(), s: fc.string(), n: fc.double({ noNaN: true, noDefaultInfinity: true }), t: fc.array(fc.boolean(), { maxLength: 3 }) }), { minLength: 2, maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom('replace', 'insert', 'delete'),
        fc.array(fc.nat(), { maxLength: 3 }),
        async (rows, at, byte, how, cuts) => {
          const good = Buffer.from(JSON.stringify(rows));
          const i = at % good.length;
          const bytes = how === 'delete' ? Buffer.concat([good.subarray(0, i), good.subarray(i + 1)])
            : Buffer.concat([good.subarray(0, i), Buffer.from([byte]), good.subarray(how === 'insert' ? i : i + 1)]);
          let parses = isUtf8(bytes);
          try {
            JSON.parse(bytes.toString('utf8'));
          } catch {
            parses = false;
          }
          const got = await fitStream(chunked(bytes, cuts.map((c) => c % bytes.length)), { maxItems: 1 }, { store, principal: 'alice' }).then(
            (env) => ({ env, err: null }),
            (err: unknown) => ({ env: null, err }),
          );
          if (parses) {
            expect(got.err).toBeNull();
            expect(validate(got.env).valid).toBe(true);
            stored += got.env?.resources?.length ?? 0;
          } else {
            refused++;
            expect(isTrcError(got.err, 'INPUT_NOT_JSON')).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(refused).toBeGreaterThan(0);
    // Accepted inputs that were trimmed committed their spool; refused ones left nothing behind.
    expect(resourceRows() - before).toBe(stored);
  });

  it('refuses invalid UTF-8 inside an element', async () => {
    const bytes = Buffer.concat([Buffer.from('["ok", "'), Buffer.from([0xc3, 0x28]), Buffer.from('"]')]);
    const err = await fitStream(chunked(bytes, [9]), {}, {}).catch((e: unknown) => e);
    expect(isTrcError(err, 'INPUT_NOT_JSON')).toBe(true);
    expect((err as Error).message).toContain('UTF-8');
    expect((err as { data: unknown }).data).toMatchObject({ line: 1, column: 9, offset: 8 });
  });

  it('names the line and column of the bad byte on a later line of an element', async () => {
    const bytes = Buffer.concat([Buffer.from('[{"a":\n  "é'), Buffer.from([0xff]), Buffer.from('"}]')]);
    const err = await fitStream(chunked(bytes, [4]), {}, {}).catch((e: unknown) => e);
    expect((err as { data: unknown }).data).toMatchObject({ line: 2, column: 5, offset: 12 });
  });
});

describe('fitStream on random arrays and chunkings', () => {
  it('agrees with fit on data, books and totals, however the bytes are chunked', async () => {
    const fc = (await import('fast-check')).default;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue({ maxDepth: 3, depthSize: 'small', stringUnit: 'grapheme' }), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer({ min: 0, max: 8 }),
        async (items, cutSeeds, maxItems) => {
          const bytes = Buffer.from(JSON.stringify(items, null, cutSeeds.length % 2 === 0 ? undefined : 1), 'utf8');
          const cuts = cutSeeds.map((c) => c % (bytes.length + 1));
          const parsed = JSON.parse(bytes.toString('utf8')) as unknown[];
          const streamed = await fitStream(chunked(bytes, cuts), { maxItems, maxTokens: 400 }, { tool: 't', callId: 'c' });
          const whole = await fit(parsed, { maxItems, maxTokens: 400 }, { tool: 't', callId: 'c' });
          expect(validate(streamed).valid).toBe(true);
          expect(streamed.data).toEqual(whole.data);
          expect(streamed.completeness?.trimmed).toEqual(whole.completeness?.trimmed);
          expect(streamed.completeness?.available_items).toBe(whole.completeness?.available_items);
          expect(streamed.summary?.stats).toEqual(whole.summary?.stats);
        },
      ),
      { numRuns: Number(process.env['FC_RUNS'] ?? 150) },
    );
  });
});

describe('fitStream statistics of omitted elements (scanned, not parsed)', () => {
  const NOW = new Date('2026-01-02T03:04:05.000Z');
  const ctx = { tool: 't', callId: 'c', now: () => NOW };
  /** JSON with -0 kept apart from 0. */
  const exact = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (Object.is(x, -0) ? '-0' : x));

  it('gives the same whole envelope as fit on hand-written rows, however the bytes are chunked', async () => {
    const fc = (await import('fast-check')).default;
    const element = fc.oneof({ weight: 4, arbitrary: objectRows }, { weight: 1, arbitrary: fc.array(jsonTexts, { maxLength: 5 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(element, { minLength: 1, maxLength: 3 }).map((groups) => groups.flat()),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 0, max: 6 }),
        async (elements, cutSeeds, maxItems) => {
          const bytes = Buffer.from(`[${elements.join(',')}]`, 'utf8');
          const cuts = cutSeeds.map((c) => c % (bytes.length + 1));
          // Tokens to spare: the stream then keeps exactly what fit keeps, and adds the omitted
          // items to the statistics in the same order, so even float sums must agree to the bit.
          const budget = { maxItems, maxTokens: 100_000 };
          const streamed = await fitStream(chunked(bytes, cuts), budget, ctx);
          // fit() is given values, not text: the stream alone can tell which numbers a double
          // cannot hold. Both keep their exact digits; only the stream can say so.
          const whole = await fit(parseExact(bytes.toString('utf8')) as unknown[], budget, ctx);
          expect(validate(streamed).valid).toBe(true);
          const kept = streamed.warnings.filter((w) => typeof w !== 'string' && w.code === 'NUMBER_KEPT_AS_TEXT');
          for (const w of kept) {
            const at = typeof w === 'string' ? undefined : w.pointer;
            const r = at === undefined ? undefined : resolvePointer(streamed, at);
            if (r !== undefined) expect(r.ok && typeof r.value, at).toBe('string');
          }
          expect(exact({ ...streamed, warnings: streamed.warnings.filter((w) => !kept.includes(w)) })).toBe(exact(whole));
        },
      ),
      { numRuns: Number(process.env['FC_RUNS'] ?? 150) },
    );
  });

  it('gives the same envelope as fit for the seed fixture and for a long list of rows', async () => {
    const seed = readFileSync(new URL('./fixtures/seed-25-items.json', import.meta.url));
    for (const maxItems of [5, 20, 100]) {
      const whole = await fit(JSON.parse(seed.toString('utf8')) as unknown, { maxItems }, ctx);
      expect(exact(await fitStream(chunked(seed, [7, 300]), { maxItems }, ctx))).toBe(exact(whole));
    }
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i, score: (i * 7919) % 1000 / 10, tiny: i * 1e-300, big: i * 1e300, name: `n${i}`, ...(i % 7 === 0 ? { extra: -i } : {}) }));
    const bytes = Buffer.from(JSON.stringify(rows), 'utf8');
    const budget = { maxItems: 40, maxTokens: 100_000 };
    const whole = await fit(JSON.parse(bytes.toString('utf8')) as unknown[], budget, ctx);
    expect(exact(await fitStream(chunked(bytes, [1000, 50_000, 50_001]), budget, ctx))).toBe(exact(whole));
  });

  it('refuses invalid UTF-8 in an omitted element, naming the offending byte', async () => {
    const bytes = Buffer.concat([Buffer.from('[1,\n 2, "ok", "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"]')]);
    for (const cut of [0, 10, 16]) {
      const err = await fitStream(chunked(bytes, [cut]), { maxItems: 1 }, {}).catch((e: unknown) => e);
      expect(isTrcError(err, 'INPUT_NOT_JSON')).toBe(true);
      expect((err as Error).message).toContain('UTF-8');
      // The element starts at column 11 (offset 14); its bad byte follows the quote.
      expect((err as { data: unknown }).data).toMatchObject({ line: 2, column: 12, offset: 15 });
      expect((err as Error).message).toContain('byte 0xed');
    }
  });
});

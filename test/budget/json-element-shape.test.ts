import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { objectShape, ShapeCache, ShapeMemo, shapeHash } from '../../src/budget/json-element-shape.js';
import { JsonElementScanner } from '../../src/budget/json-element-scanner.js';
import { objectRows } from './json-element-arbitraries.js';
import { parseExact } from './helpers.js';

const RUNS = Number(process.env['FC_RUNS'] ?? 300);

/** Scan an object text with its own scanner (so several can be held at once). */
function scanned(text: string): JsonElementScanner {
  const scanner = new JsonElementScanner();
  const bytes = Buffer.from(text, 'utf8');
  expect(scanner.scan(bytes, 0, bytes.length), text).toBe(-1);
  return scanner;
}

/** The raw key bytes of a scanned object, as one comparable string. */
const rawKeys = (e: JsonElementScanner): string =>
  JSON.stringify(Array.from({ length: e.keyCount }, (_, i) => Buffer.from(e.bytes.subarray(e.keyFrom[i], e.keyTo[i])).toString('latin1')));

describe('objectShape', () => {
  it('lists fields exactly as Object.keys of the parsed object does', () => {
    fc.assert(
      fc.property(objectRows, (rows) => {
        for (const row of rows) {
          const parsed = parseExact(row) as Record<string, unknown>;
          const e = scanned(row);
          const shape = objectShape(e);
          expect(shape.keys).toEqual(Object.keys(parsed));
          // Each field's value is the one at its last occurrence (here: its number, or NaN).
          shape.keys.forEach((key, j) => {
            const v = parsed[key];
            const got = e.keyNumber[shape.source[j] as number];
            expect(Object.is(got, typeof v === 'number' ? v : Number.NaN), key).toBe(true);
          });
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('ShapeMemo and ShapeCache', () => {
  it('a memo matches exactly the objects with the same raw keys in the same order', () => {
    fc.assert(
      fc.property(objectRows, (rows) => {
        const scans = rows.map(scanned);
        for (const a of scans) {
          const memo = new ShapeMemo(a);
          for (const b of scans) {
            expect(memo.matches(b)).toBe(rawKeys(a) === rawKeys(b));
            if (rawKeys(a) === rawKeys(b)) expect(shapeHash(a)).toBe(shapeHash(b));
          }
        }
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('never answers with the value of another shape, even when it fills up and starts afresh', () => {
    fc.assert(
      fc.property(objectRows, fc.integer({ min: 1, max: 4 }), (rows, size) => {
        const cache = new ShapeCache<string>(size);
        let hits = 0;
        for (const row of rows) {
          const e = scanned(row);
          const got = cache.get(e);
          if (got === undefined) cache.set(e, rawKeys(e));
          else {
            hits++;
            expect(got).toBe(rawKeys(e));
          }
        }
        // A row that repeats the previous row's shape is always a hit.
        const repeats = rows.filter((row, i) => i > 0 && rawKeys(scanned(row)) === rawKeys(scanned(rows[i - 1] as string))).length;
        expect(hits).toBeGreaterThanOrEqual(repeats);
      }),
      { numRuns: RUNS },
    );
  });

  it('tells apart keys that share bytes but split them differently', () => {
    const a = scanned('{"ab":1,"":2}');
    const b = scanned('{"a":1,"b":2}');
    expect(new ShapeMemo(a).matches(b)).toBe(false);
    expect(shapeHash(a)).not.toBe(shapeHash(b));
    const cache = new ShapeCache<number>();
    cache.set(a, 1);
    expect(cache.get(b)).toBeUndefined();
    expect(cache.get(scanned('{"ab" : 7, "" : [1]}'))).toBe(1);
  });
});

import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonError } from '../../src/budget/json-error-position.js';
import { objectShape } from '../../src/budget/json-element-shape.js';
import { JsonElementScanner } from '../../src/budget/json-element-scanner.js';
import { ListStats, MAX_TRACKED_FIELDS } from '../../src/budget/list-stats.js';
import { isExactNumber } from '../../src/contract/index.js';
import { parseExact } from './helpers.js';
import { jsonTexts, numberText, objectRows, wideObjectRows } from './json-element-arbitraries.js';

const RUNS = Number(process.env['FC_RUNS'] ?? 300);
const scanner = new JsonElementScanner();

/** Scan a whole buffer; -1 when accepted, else the error offset. */
const scanBytes = (bytes: Uint8Array): number => scanner.scan(bytes, 0, bytes.length);
const scanText = (text: string): number => scanBytes(Buffer.from(text, 'utf8'));

/** What fitStream's parse path accepts: valid UTF-8 that JSON.parse takes. */
function jsonParseAccepts(bytes: Uint8Array): boolean {
  if (!isUtf8(bytes)) return false;
  try {
    JSON.parse(Buffer.from(bytes).toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** JSON of the statistics with -0 kept apart from 0, so "identical" means identical. */
const exactJson = (stats: ListStats): string => JSON.stringify(stats.toJSON(), (_k, v: unknown) => (Object.is(v, -0) ? '-0' : v));

/**
 * Feed the same texts to addScanned (through the scanner) and to add() of the parsed value and
 * compare. Parsed as the budget's text readers parse: numbers a double cannot hold keep their
 * exact digits (strings), which the statistics count as present, not numeric.
 */
function expectSameStats(texts: readonly string[]): void {
  const scanned = new ListStats();
  const parsed = new ListStats();
  for (const text of texts) {
    expect(scanText(text), text).toBe(-1);
    scanned.addScanned(scanner);
    parsed.add(parseExact(text));
  }
  expect(exactJson(scanned)).toBe(exactJson(parsed));
}

type Mutation = readonly ['delete' | 'insert' | 'replace' | 'truncate', number, number];

function mutate(bytes: Buffer, [op, at, byte]: Mutation): Buffer {
  const k = at % (bytes.length + 1);
  if (op === 'truncate') return bytes.subarray(0, k);
  if (op === 'insert') return Buffer.concat([bytes.subarray(0, k), Buffer.from([byte]), bytes.subarray(k)]);
  if (k === bytes.length) return bytes;
  if (op === 'delete') return Buffer.concat([bytes.subarray(0, k), bytes.subarray(k + 1)]);
  const out = Buffer.from(bytes);
  out[k] = byte;
  return out;
}

/** Bytes that matter to the grammar, and some that break UTF-8. */
const INTERESTING = [...'{}[],:"\\ \t\n\r0123456789.eE+-truefalsnu/bx'].map((c) => c.charCodeAt(0)).concat([0x00, 0x1f, 0x7f, 0x80, 0xbf, 0xc3, 0xe2, 0xed, 0xf0, 0xff]);
const mutation: fc.Arbitrary<Mutation> = fc.tuple(
  fc.constantFrom('delete' as const, 'insert' as const, 'replace' as const, 'truncate' as const),
  fc.nat(),
  fc.oneof(fc.constantFrom(...INTERESTING), fc.integer({ min: 0, max: 255 })),
);

describe('JsonElementScanner on valid JSON', () => {
  it('accepts every JSON text and gives the statistics JSON.parse would give', () => {
    fc.assert(fc.property(fc.array(jsonTexts, { maxLength: 12 }), (texts) => expectSameStats(texts)), { numRuns: RUNS });
  });

  it('reads every number exactly as JSON.parse does when a double holds it, else as NaN (not numeric), at the top and as a field', () => {
    fc.assert(
      fc.property(numberText, (text) => {
        const expected = isExactNumber(text) ? (JSON.parse(text) as number) : Number.NaN;
        expect(scanText(text)).toBe(-1);
        expect(Object.is(scanner.number, expected), `${text} → ${scanner.number}`).toBe(true);
        expect(scanner.type).toBe(isExactNumber(text) ? 'number' : 'string');
        expect(scanText(`{"n":${text}}`)).toBe(-1);
        expect(Object.is(scanner.keyNumber[0], expected), text).toBe(true);
      }),
      { numRuns: RUNS * 10 },
    );
  });

  it('counts numbers a double cannot hold as present but not numeric, like add() of their exact digits', () => {
    expectSameStats(['1e999', '-1e999', '{"a":1e999,"b":-0,"c":1e-999}', '{"a":2,"b":0,"c":-5e-324}', '0e99999999999999999999']);
  });

  it('takes fields in Object.keys order with integer-like, escaped, duplicate and __proto__ keys', () => {
    fc.assert(fc.property(objectRows, (rows) => expectSameStats(rows)), { numRuns: RUNS });
  });

  it('tracks the same fields as add() when objects have more fields than the tracking cap', () => {
    fc.assert(fc.property(wideObjectRows, (rows) => expectSameStats(rows)), { numRuns: Math.ceil(RUNS / 3) });
  });

  it('orders a shape like Object.keys and keeps the last value of a duplicate key', () => {
    const text = '{"b":1,"10":2,"a":3,"2":4,"b":5,"__proto__":6,"\\u0062":7}';
    expect(scanText(text)).toBe(-1);
    const shape = objectShape(scanner);
    expect(shape.keys).toEqual(Object.keys(JSON.parse(text) as object));
    expect(shape.keys).toEqual(['2', '10', 'b', 'a', '__proto__']);
    // "b" is written three times (once escaped): the last one, the value 7, is what JSON.parse keeps.
    expect(shape.source.map((i) => scanner.keyNumber[i])).toEqual([4, 2, 7, 3, 6]);
  });

  it('accepts lone surrogate escapes, which are valid JSON', () => {
    for (const text of ['"\\ud800"', '"\\udc00\\ud800"', '{"\\ud800":1,"\\udfff":2}', '["\\uD83D"]']) {
      expect(JSON.parse(text)).toBeDefined();
      expectSameStats([text]);
    }
  });

  it('accepts the edges of the grammar that JSON.parse accepts', () => {
    const valid = ['-0', '0e0', '0.0e-0', '1E+2', '1e-2', ' \t\n\r1 \n', '[]', '{}', '[[]]', '[{}]', '{"":0}', '"\\u0000"', '"\\/"', '"😀"', '"\x7f"', 'null', 'true', 'false', '[ 1 , 2 ]', '{ "a" : [ ] }'];
    for (const text of valid) expectSameStats([text]);
  });

  it('does not overflow the stack on 100,000 levels of nesting', () => {
    for (const n of [10_000, 100_000]) {
      expectSameStats(['['.repeat(n) + ']'.repeat(n), '{"a":'.repeat(n) + '1' + '}'.repeat(n), '[{"a":'.repeat(n) + '[]' + '}]'.repeat(n)]);
      expect(scanText('['.repeat(n) + ']'.repeat(n - 1))).toBeGreaterThanOrEqual(0);
      expect(scanText('['.repeat(n) + '}'.repeat(n))).toBe(n);
    }
  });
});

describe('JsonElementScanner on invalid JSON', () => {
  it('rejects the classic mistakes where JSON.parse does, at the offset findJsonError names', () => {
    const invalid = [
      'tru', 'nul', 'fals', 'True', '01', '-01', '1.', '.5', '-', '+1', '--1', '1e', '1e+', '1.e5', '0x10', 'NaN', 'Infinity', '"\\x"', '"\\u12G4"', '"\\u12"',
      '"a\tb"', '"a\nb"', '"\x1f"', '"abc', '{"a" 1}', '{"a":1,}', '{"a"}', '{a:1}', "{'a':1}", '[1,]', '[,1]', '{,}', '[1 2]', '{"a":1}}', '[1]x', '1 2', '',
      '   ', '[', ']', '{', '}', '{"a":', '\ufeff1', '"\\"', '[1,2', 'nulll', 'true false',
    ];
    for (const text of invalid) {
      expect(jsonParseAccepts(Buffer.from(text)), text).toBe(false);
      const at = scanText(text);
      expect(at, text).toBeGreaterThanOrEqual(0);
      expect(at, text).toBe(Buffer.byteLength(text.slice(0, findJsonError(text)?.offset ?? -1)));
    }
  });

  it('accepts a mutated text exactly when JSON.parse does', () => {
    fc.assert(
      fc.property(jsonTexts, fc.array(mutation, { minLength: 1, maxLength: 3 }), (text, mutations) => {
        const bytes = mutations.reduce(mutate, Buffer.from(text, 'utf8'));
        const accepted = jsonParseAccepts(bytes);
        const at = scanBytes(bytes);
        expect(at === -1, bytes.toString('latin1')).toBe(accepted);
        if (accepted) expectSameStats([bytes.toString('utf8')]);
        else if (bytes.every((b) => b < 0x80)) {
          // On ASCII input the first error is where the strict reference checker puts it.
          expect(at).toBe(findJsonError(bytes.toString('latin1'))?.offset);
        }
      }),
      { numRuns: RUNS * 10 },
    );
  });

  it('accepts a string of raw bytes exactly when they are valid UTF-8', () => {
    const plain = fc.integer({ min: 0x20, max: 0xff }).filter((b) => b !== 0x22 && b !== 0x5c);
    fc.assert(
      fc.property(fc.array(fc.oneof(plain, fc.constantFrom(0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0x9f, 0xa0, 0x90, 0x8f)), { maxLength: 12 }), (body) => {
        const bytes = Buffer.from([0x22, ...body, 0x22]);
        expect(scanBytes(bytes) === -1).toBe(isUtf8(bytes));
      }),
      { numRuns: RUNS * 10 },
    );
    for (const bad of [[0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xf8, 0x80, 0x80, 0x80, 0x80], [0x80]]) {
      expect(scanBytes(Buffer.from([0x22, ...bad, 0x22]))).toBe(1);
    }
  });

  it('never reads past the end of its range', () => {
    const cases: [string, string][] = [['tru', 'e'], ['"abc', '"'], ['1e', '5'], ['-', '1'], ['"\\u12', '34"'], ['[1', ']'], ['{"a":1', '}'], ['"\\', '""'], ['1.', '5'], ['"\xc3', '\xa9"']];
    for (const [inside, after] of cases) {
      const bytes = Buffer.from(`[${inside}${after}`, 'latin1');
      expect(scanner.scan(bytes, 1, 1 + inside.length), inside).toBeGreaterThanOrEqual(1);
    }
    const one = Buffer.from('x1.5x');
    expect(scanner.scan(one, 1, 2)).toBe(-1);
    expect(scanner.number).toBe(1);
  });

  it('gives the same answer for a text in the middle of a larger buffer', () => {
    fc.assert(
      fc.property(jsonTexts, fc.option(mutation, { nil: undefined }), fc.uint8Array({ maxLength: 4 }), fc.uint8Array({ maxLength: 4 }), (text, m, before, after) => {
        const bytes = m === undefined ? Buffer.from(text, 'utf8') : mutate(Buffer.from(text, 'utf8'), m);
        const alone = scanBytes(bytes);
        const statsAlone = new ListStats();
        if (alone === -1) statsAlone.addScanned(scanner);
        const framed = Buffer.concat([before, bytes, after]);
        const inFrame = scanner.scan(framed, before.length, before.length + bytes.length);
        expect(inFrame).toBe(alone === -1 ? -1 : alone + before.length);
        if (inFrame === -1) {
          const statsFramed = new ListStats();
          statsFramed.addScanned(scanner);
          expect(exactJson(statsFramed)).toBe(exactJson(statsAlone));
        }
      }),
      { numRuns: RUNS * 3 },
    );
  });
});

describe('ListStats.addScanned', () => {
  it('tells apart consecutive shapes whose keys share bytes but split them differently', () => {
    expectSameStats(['{"a":1,"b":2}', '{"ab":3,"":4}', '{"ab":5,"":6}', '{"a":7,"b":8}', '{"a":9}', '{"a":1,"b":2,"c":3}']);
  });

  it('keeps statistics right when many shapes take turns', () => {
    const rows: string[] = [];
    for (let round = 0; round < 4; round++) {
      for (let j = 0; j < 13; j++) {
        const shape = (j * (round + 3)) % 13;
        rows.push(`{"a${shape}":${round},"b${shape % 5}":${j}${shape % 2 === 0 ? `,"c":${shape}` : ''}}`);
      }
    }
    expectSameStats(rows);
  });

  it('reports the tracking cap the same way as add()', () => {
    const row = `{${Array.from({ length: MAX_TRACKED_FIELDS + 5 }, (_, i) => `"f${i}":${i}`).join(',')}}`;
    expectSameStats([row, row, '{"z":1}']);
    const stats = new ListStats();
    expect(scanText(row)).toBe(-1);
    stats.addScanned(scanner);
    expect(stats.toJSON().untracked_fields).toBe(5);
  });
});

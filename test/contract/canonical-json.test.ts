import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, isTrcError, nonJsonAt } from '../../src/contract/index.js';
import { serializeDeep } from '../../src/contract/canonical-deep.js';
import { shapedRows } from './fixtures/codegen/shaped-rows.js';

/** The oracle: the `canonicalize` library, or the name of what it refused. */
function oracle(value: unknown): string {
  try {
    return canonicalize(value) ?? 'undefined';
  } catch {
    return 'refused';
  }
}

function ours(value: unknown): string {
  try {
    return canonicalJson(value);
  } catch (e) {
    if (isTrcError(e, 'JCS_UNREPRESENTABLE')) return 'refused';
    throw e;
  }
}

// Strings of any UTF-16 units (lone surrogates too), keys of any kind: what a tool may return.
const anyString = fc.string({ unit: 'binary', maxLength: 12 });
const keyish = fc.oneof(anyString, fc.constantFrom('', '10', '9', 'a', 'A', 'é', '\u{1f600}', '\ufb33', 'ud800', '\\ud800', 'constructor', 'toString'));
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 0.1 + 0.2),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    anyString,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(keyish, tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('canonicalJson agrees with the canonicalize library', () => {
  it('on random JSON values with any strings and keys', () => {
    fc.assert(fc.property(jsonish, (v) => { expect(ours(v)).toBe(oracle(v)); }), { numRuns: 3000 });
  });

  it('on fast-check JSON values (both refusing the same lone surrogates)', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => { expect(ours(v)).toBe(oracle(v)); }), { numRuns: 2000 });
  });

  it('on lists of records sharing their keys (the common shape of tool data)', () => {
    const record = fc.record({ id: fc.string(), qty: fc.integer(), price: fc.double({ noNaN: true, noDefaultInfinity: true }), note: fc.option(anyString) });
    fc.assert(fc.property(fc.array(record, { maxLength: 40 }), (rows) => { expect(ours({ rows })).toBe(oracle({ rows })); }), { numRuns: 300 });
  });

  it('on lists of objects of many shapes (more than the shapes remembered)', () => {
    const wide = fc.array(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.integer(), { minKeys: 1, maxKeys: 3 }), { minLength: 20, maxLength: 120 });
    fc.assert(fc.property(wide, (v) => { expect(ours(v)).toBe(oracle(v)); }), { numRuns: 200 });
  });
});

describe('canonicalJson on shapes it compiles a builder for', () => {
  it('keeps member names that read as code (quotes, backslashes, line separators) as names', () => {
    const rows = shapedRows();
    // The first uses rebuild from the template, later ones through the compiled builder.
    for (let n = 1; n <= rows.length; n++) expect(ours(rows.slice(0, n))).toBe(oracle(rows.slice(0, n)));
  });

  it('agrees on records of repeated shapes with values of any kind', () => {
    const keys = fc.uniqueArray(keyish.filter((k) => k !== '__proto__'), { minLength: 1, maxLength: 6 });
    const rows = keys.chain((ks) => fc.array(fc.tuple(...ks.map(() => jsonish)).map((vs) => Object.fromEntries(ks.map((k, i) => [k, vs[i]]))), { minLength: 5, maxLength: 12 }));
    fc.assert(fc.property(rows, (v) => { expect(ours(v)).toBe(oracle(v)); }), { numRuns: 300 });
  });

  it('writes the same text where code generation is refused', () => {
    const child = fileURLToPath(new URL('./fixtures/codegen/print-canonical.ts', import.meta.url));
    const text = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', child], { encoding: 'utf8' });
    expect(text).toBe(oracle({ rows: shapedRows() }));
    expect(text).toBe(canonicalJson({ rows: shapedRows() }));
  });
});

describe('canonicalJson on values the native writer cannot take as they are', () => {
  it('honours toJSON, as JSON.stringify and canonicalize do', () => {
    const when = new Date(Date.UTC(2026, 0, 2));
    const v = { z: when, a: [when], m: { toJSON: () => ({ b: 2, a: 1 }) } };
    expect(canonicalJson(v)).toBe(canonicalize(v));
    expect(canonicalJson(v)).toBe('{"a":["2026-01-02T00:00:00.000Z"],"m":{"a":1,"b":2},"z":"2026-01-02T00:00:00.000Z"}');
  });

  it('writes an own __proto__ member once, and never the prototype of other objects', () => {
    const v = JSON.parse('{"x":{"__proto__":{"k":1}},"y":{"a":1}}') as unknown;
    expect(canonicalJson(v)).toBe('{"x":{"__proto__":{"k":1}},"y":{"a":1}}');
  });

  it('serializes only own enumerable members of class instances', () => {
    class Point {
      constructor(readonly y: number, readonly x: number) {}
      get norm(): number { return Math.hypot(this.x, this.y); }
    }
    const v = { p: new Point(2, 1), q: { norm: 5 } };
    expect(canonicalJson(v)).toBe('{"p":{"x":1,"y":2},"q":{"norm":5}}');
  });

  it('tells a lone surrogate from an escaped backslash before "ud800"', () => {
    expect(canonicalJson({ k: '\\ud800' })).toBe('{"k":"\\\\ud800"}');
    expect(canonicalJson({ k: '\\\\ud83d' })).toBe('{"k":"\\\\\\\\ud83d"}');
    expect(ours({ k: 'a\\\ud800' })).toBe('refused');
    expect(ours({ ['\udfff']: 1 })).toBe('refused');
  });

  it('sorts integer-like keys as strings ("10" before "9")', () => {
    expect(canonicalJson({ 9: 'a', 10: 'b', x: { 2: 0, 10: 1 } })).toBe('{"10":"b","9":"a","x":{"10":1,"2":0}}');
  });

  it('refuses BigInt, and a cycle deeper than the tracking depth', () => {
    expect(ours({ a: [1n] })).toBe('refused');
    const deep: Record<string, unknown> = {};
    let cur = deep;
    for (let i = 0; i < 100; i++) cur = (cur['n'] = {}) as Record<string, unknown>;
    cur['back'] = deep;
    expect(ours(deep)).toBe('refused');
  });

  it('refuses what JSON would write as {} or an index map (a Map, binary data, an Error), and keeps toJSON values', () => {
    for (const lossy of [new Map([['a', 1]]), new Set([1]), new ArrayBuffer(2), new Uint8Array([1]), new Error('x'), Promise.resolve(1), /re/u]) {
      expect(ours({ v: [lossy] })).toBe('refused');
    }
    expect(ours({ when: new Date(0), bytes: Buffer.from('hi') })).toBe(canonicalize({ when: new Date(0), bytes: Buffer.from('hi') }));
  });

  it('keeps data nested deeper than the tracking depth', () => {
    let v: unknown = 'leaf';
    for (let i = 0; i < 300; i++) v = i % 2 === 0 ? [v] : { k: v };
    expect(canonicalJson(v)).toBe(canonicalize(v));
  });
});

describe('canonicalJson on nesting deeper than a recursive walk can go', () => {
  const deepOracle = (v: unknown): string => {
    try {
      return serializeDeep(v) ?? 'undefined';
    } catch {
      return 'refused';
    }
  };

  it('writes what the canonicalize library writes, through the iterative writer too', () => {
    // The iterative writer alone, on the shallow values the library can take (lone surrogates
    // are refused by its caller, from the finished text; nonJsonAt stands in for that here).
    fc.assert(fc.property(jsonish, (v) => { expect(nonJsonAt(v) === null ? deepOracle(v) : 'refused').toBe(oracle(v)); }), { numRuns: 2000 });
  });

  it('digests 100,000 nested arrays and objects (it threw "nesting too deep")', () => {
    const arrays = JSON.parse('['.repeat(100_000) + '1' + ']'.repeat(100_000)) as unknown;
    expect(canonicalJson(arrays)).toBe('['.repeat(100_000) + '1' + ']'.repeat(100_000));
    const objects = JSON.parse('{"b":1,"a":'.repeat(50_000) + 'null' + '}'.repeat(50_000)) as unknown;
    expect(canonicalJson(objects)).toBe('{"a":'.repeat(50_000) + 'null' + ',"b":1}'.repeat(50_000));
  });

  it('still refuses a cycle or a NaN found deep down', () => {
    const deep: unknown[] = [];
    let at = deep;
    for (let i = 0; i < 100_000; i++) at = (at[0] = []) as unknown[];
    at.push(NaN);
    expect(ours(deep)).toBe('refused');
    at[0] = deep;
    expect(ours(deep)).toBe('refused');
    at[0] = new Map();
    expect(ours(deep)).toBe('refused');
  });
});

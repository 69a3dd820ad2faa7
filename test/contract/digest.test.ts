import { readFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, digest, isTrcError, sha256Hex } from '../../src/contract/index.js';

const JCS = new URL('./fixtures/jcs/', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, JCS), 'utf8');

describe('canonicalJson on the RFC 8785 test vectors', () => {
  const files = readdirSync(new URL('input/', JCS)).filter((f) => f.endsWith('.json'));

  it('has every vector file of the reference implementation', () => {
    expect(files.sort()).toEqual(['arrays.json', 'french.json', 'structures.json', 'unicode.json', 'values.json', 'weird.json']);
  });

  it.each(files)('canonicalizes %s exactly as the reference output', (file) => {
    expect(canonicalJson(JSON.parse(read(`input/${file}`)))).toBe(read(`output/${file}`));
  });

  const numbers = read('numbers.csv')
    .trim()
    .split('\n')
    .map((line) => line.split(',') as [string, string]);
  it.each(numbers)('serializes the IEEE-754 double %s as %s', (hex, expected) => {
    const value = Buffer.from(hex, 'hex').readDoubleBE(0);
    expect(canonicalJson(value)).toBe(expected);
    expect(canonicalJson([value])).toBe(`[${expected}]`);
  });

  it('writes 1e21 in exponent form, -0 as 0, 5e-324 and 0.000001 as ECMAScript does', () => {
    expect(canonicalJson({ a: 1e21, b: -0, c: 5e-324, d: 0.000001, e: 1e-7 })).toBe('{"a":1e+21,"b":0,"c":5e-324,"d":0.000001,"e":1e-7}');
  });

  it('sorts keys by UTF-16 code units, not by code points', () => {
    // U+1F600 is the surrogate pair D83D DE00, which sorts before U+FB33 in UTF-16.
    expect(canonicalJson({ '\ufb33': 1, '\u{1f600}': 2 })).toBe('{"\u{1f600}":2,"\ufb33":1}');
  });
});

describe('canonicalJson refuses what JCS cannot represent', () => {
  const cases: [string, unknown][] = [
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['NaN inside an object', { a: [1, NaN] }],
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate inside an array', ['ok', 'x\udc00y']],
    ['a lone surrogate in a key', { ['\ud83d']: 1 }],
    ['undefined at the top', undefined],
  ];
  it.each(cases)('throws JCS_UNREPRESENTABLE on %s', (_name, value) => {
    let thrown: unknown;
    try {
      canonicalJson(value);
    } catch (e) {
      thrown = e;
    }
    expect(isTrcError(thrown, 'JCS_UNREPRESENTABLE')).toBe(true);
  });

  it('throws JCS_UNREPRESENTABLE on a cycle', () => {
    const a: Record<string, unknown> = {};
    a['self'] = a;
    expect(() => canonicalJson(a)).toThrow(/canonical/);
  });

  it('accepts a well-formed surrogate pair', () => {
    expect(canonicalJson('\ud83d\ude02')).toBe('"\u{1f602}"');
  });
});

describe('digest', () => {
  it('is sha256 over the canonical UTF-8 bytes, prefixed with sha256:', () => {
    const value = JSON.parse(read('input/weird.json')) as unknown;
    expect(digest(value)).toBe('sha256:' + sha256Hex(Buffer.from(read('output/weird.json'), 'utf8')));
  });

  it('does not depend on key order or insignificant whitespace', () => {
    expect(digest(JSON.parse('{"b": [1, 2.50], "a": "x"}'))).toBe(digest({ a: 'x', b: [1, 2.5] }));
  });

  it('gives the known SHA-256 of "null" for null data', () => {
    expect(digest(null)).toBe('sha256:74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b');
  });
});

describe('sha256Hex', () => {
  it('gives the SHA-256 of the UTF-8 bytes, below and above the size where it changes method', () => {
    for (const n of [0, 1, 1000, 65_535, 65_536, 65_537, 300_000]) {
      const text = 'é😀a'.repeat(Math.ceil(n / 4)).slice(0, n);
      const want = createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
      expect(sha256Hex(text)).toBe(want);
      expect(sha256Hex(Buffer.from(text, 'utf8'))).toBe(want);
    }
  });
});

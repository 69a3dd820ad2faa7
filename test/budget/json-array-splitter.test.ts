import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonArraySplitter, findJsonError } from '../../src/budget/index.js';
import { isTrcError } from '../../src/contract/index.js';

/** Tricky elements: brackets and commas inside strings, escapes, multi-byte UTF-8, nesting. */
const TRICKY = '[{"a":"x,]}\\"y"},"é😀中\\\\",[1,[2,{"b":"\\\\\\""}]],null, -1.5e3 ,"\\u005d\\n",{"k":{"[":"]"}},true]';
const EXPECTED = JSON.parse(TRICKY) as unknown[];

function split(bytes: Uint8Array, cuts: readonly number[]): unknown[] {
  const out: unknown[] = [];
  const s = new JsonArraySplitter((b, from, to) => out.push(JSON.parse(Buffer.from(b.subarray(from, to)).toString('utf8'))));
  let from = 0;
  for (const cut of cuts) {
    s.push(bytes.subarray(from, cut));
    from = cut;
  }
  s.push(bytes.subarray(from));
  s.end();
  return out;
}

function errorOf(text: string, cuts: readonly number[] = []): { line: unknown; column: unknown } {
  try {
    const s = new JsonArraySplitter((b, from, to) => JSON.parse(Buffer.from(b.subarray(from, to)).toString('utf8')));
    const bytes = Buffer.from(text, 'utf8');
    let from = 0;
    for (const cut of cuts) {
      s.push(bytes.subarray(from, cut));
      from = cut;
    }
    s.push(bytes.subarray(from));
    s.end();
  } catch (e) {
    if (isTrcError(e, 'INPUT_NOT_JSON')) return { line: e.data?.['line'], column: e.data?.['column'] };
    throw e;
  }
  throw new Error('no error');
}

describe('JsonArraySplitter', () => {
  const bytes = Buffer.from(TRICKY, 'utf8');

  it('splits the same elements at every single split point (inside strings, escapes and multi-byte characters)', () => {
    expect(bytes.length).toBeGreaterThan(TRICKY.length); // really multi-byte
    for (let i = 0; i <= bytes.length; i++) expect(split(bytes, [i])).toEqual(EXPECTED);
  });

  it('splits the same elements at every pair of split points', () => {
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j++) expect(split(bytes, [i, j])).toEqual(EXPECTED);
    }
  });

  it('splits random values full of quotes and backslash runs the same, wherever the chunks are cut', () => {
    const text = fc.stringMatching(/^["\\,\][{}aé😀]*$/u);
    const value = fc.array(fc.oneof(text, fc.dictionary(text, text, { maxKeys: 3 }), fc.array(text, { maxLength: 3 })), { maxLength: 6 });
    fc.assert(
      fc.property(value, fc.array(fc.nat(), { maxLength: 5 }), (v, raw) => {
        const input = Buffer.from(JSON.stringify(v), 'utf8');
        const cuts = raw.map((c) => c % (input.length + 1)).sort((a, b) => a - b);
        expect(split(input, cuts)).toEqual(v);
      }),
      { numRuns: 300 },
    );
  });

  it('splits the same elements when fed one byte at a time', () => {
    expect(split(bytes, Array.from({ length: bytes.length }, (_, i) => i + 1))).toEqual(EXPECTED);
  });

  it('handles empty arrays and surrounding whitespace', () => {
    expect(split(Buffer.from(' \n[ ]\n '), [])).toEqual([]);
    expect(split(Buffer.from('[ 1 ]'), [])).toEqual([1]);
  });

  it('reports the line and column of a stray comma, wherever the chunks split', () => {
    const text = '[1,\n  2,,3]';
    for (let i = 0; i <= text.length; i++) expect(errorOf(text, [i])).toEqual({ line: 2, column: 5 });
  });

  it('reports an unclosed array at the end of input', () => {
    expect(errorOf('[1, 2')).toEqual({ line: 1, column: 6 });
  });

  it('reports data after the top-level array', () => {
    expect(errorOf('[1]\n x')).toEqual({ line: 2, column: 2 });
  });

  it('says the input is not an array so the caller parses it whole', () => {
    const s = new JsonArraySplitter(() => undefined);
    s.push(Buffer.from('  {"a":1}'));
    expect(s.isArray).toBe(false);
  });
});

describe('findJsonError', () => {
  it('finds the first bad character with line and code-point column', () => {
    expect(findJsonError('{"a":\n  "é😀", x}')).toMatchObject({ line: 2, column: 9 });
    expect(findJsonError('{"a":1}')).toBeNull();
    expect(findJsonError('"\\q"')).toMatchObject({ line: 1, column: 2 });
    expect(findJsonError('[1,]')).toMatchObject({ column: 4 });
    expect(findJsonError('')).toMatchObject({ line: 1, column: 1 });
  });

  it('agrees with JSON.parse on what is valid', () => {
    for (const t of ['1', '-0.5e+2', '"\\u00e9"', '[[],{}]', '{"a":[true,false,null]}', '01', '1.', '.5', '[1 2]', '{"a" 1}', 'tru', '"a\nb"']) {
      let valid = true;
      try {
        JSON.parse(t);
      } catch {
        valid = false;
      }
      expect(findJsonError(t) === null).toBe(valid);
    }
  });
});

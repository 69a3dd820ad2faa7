import { describe, expect, it } from 'vitest';
import { lineAndColumn, parseJson } from '../../src/contract/index.js';

describe('parseJson', () => {
  it('returns the value of valid JSON', () => {
    expect(parseJson('{"a":[1,null]}')).toEqual({ ok: true, value: { a: [1, null] } });
  });

  const cases: [string, string, number, number][] = [
    // V8 gives no position for these two: the scanner finds it.
    ['{\n  "status": "succeeded",\n  "data": }', "Unexpected token '}'", 3, 11],
    ['{"a": tru}', "Unexpected token '}'", 1, 10],
    // V8 gives the position for these.
    ['{\n  "a": 1\n  "b": 2\n}', "Expected ',' or '}' after property value", 3, 3],
    ['{"a":1,}', 'Expected double-quoted property name', 1, 8],
    ['[1,2]x', 'Unexpected non-whitespace character after JSON', 1, 6],
    ['', 'Unexpected end of JSON input', 1, 1],
    ['{"a":\n[1,', 'Unexpected end of JSON input', 2, 4],
  ];
  it.each(cases)('locates the error in %j', (text, message, line, column) => {
    expect(parseJson(text)).toMatchObject({ ok: false, message, line, column });
  });

  it('finds the error after 10,000 levels of nesting without overflowing', () => {
    const text = '['.repeat(10_000) + '}' + ']'.repeat(10_000);
    expect(parseJson(text)).toMatchObject({ ok: false, line: 1, column: 10_001 });
  });

  it('counts columns from 1 after the last newline', () => {
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

/**
 * A member name repeated in one object is found by the readers of JSON text (JSON.parse keeps
 * the last silently), at its pointer, escapes and nesting included, in one linear pass.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDuplicateKeys, validateText } from '../../src/contract/index.js';

describe('findDuplicateKeys', () => {
  it('names each repeat by its pointer, nested in arrays and objects', () => {
    expect(findDuplicateKeys('{"a":1,"a":2}')).toEqual(['/a']);
    expect(findDuplicateKeys('{"x":[{"k":1},{"k":1,"k":2}],"y":{"a/b":1,"a\\/b":2}}')).toEqual(['/x/1/k', '/y/a~1b']);
    expect(findDuplicateKeys('{"a":"\\"a\\":","b":{"a":1},"c":["a","a"]}')).toEqual([]);
  });

  it('finds none in what JSON.stringify writes, and one per key written twice', () => {
    const key = fc.string({ maxLength: 5 });
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string(), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 }), (obj) => {
        const text = JSON.stringify(obj);
        expect(findDuplicateKeys(text)).toEqual([]);
        const first = Object.keys(obj)[0] as string;
        const doubled = `${text.slice(0, -1)},${JSON.stringify(first)}:null}`;
        expect(findDuplicateKeys(doubled)).toEqual(['/' + first.replaceAll('~', '~0').replaceAll('/', '~1')]);
      }),
      { numRuns: 500 },
    );
  });

  it('finds the one repeat among a million members', () => {
    const text = `{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":${i}`).join(',')},"k7":0}`;
    expect(findDuplicateKeys(text)).toEqual(['/k7']);
  });

  it('makes validateText report the envelope invalid at the repeated member', () => {
    const r = validateText('{"status":"succeeded","status":"failed"}');
    expect(r.ok && r.findings.filter((f) => f.rule === 'JSON.duplicate-key').map((f) => f.pointer)).toEqual(['/status']);
    expect(r.ok && r.valid).toBe(false);
  });
});

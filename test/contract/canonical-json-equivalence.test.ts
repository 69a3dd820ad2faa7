import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/contract/index.js';

// The own RFC 8785 serializer replaced the `canonicalize` package for speed; on JSON data the
// two must agree byte for byte, or every stored result_digest would change.
describe('canonicalJson agrees with the canonicalize package', () => {
  it('serializes arbitrary JSON values (full Unicode, doubles, nesting) exactly as canonicalize@4', () => {
    const json = fc.jsonValue({ maxDepth: 6, stringUnit: 'binary' });
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('serializes doubles across the whole IEEE-754 range exactly as canonicalize@4', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(canonicalJson({ x, y: [x] })).toBe(canonicalize({ x, y: [x] }));
      }),
      { numRuns: 5000 },
    );
  });

  it('honours toJSON and leaves out undefined members like canonicalize@4', () => {
    const value = { when: new Date(Date.UTC(2026, 0, 2)), gone: undefined, list: [1, undefined, 'x'] };
    expect(canonicalJson(value)).toBe(canonicalize(value));
  });

  it('treats a value shared by two branches as no cycle', () => {
    const shared = { a: 1 };
    expect(canonicalJson({ x: shared, y: [shared] })).toBe('{"x":{"a":1},"y":[{"a":1}]}');
  });
});

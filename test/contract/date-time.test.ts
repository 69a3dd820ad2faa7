import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDateTime } from '../../src/contract/date-time.js';

// The oracle: ajv-formats' full date-time, which the published schema's `format` means.
const require = createRequire(import.meta.url);
const oracle = (require('ajv-formats/dist/formats') as { fullFormats: Record<string, { validate: (s: string) => boolean }> })
  .fullFormats['date-time']!.validate;

const pad = (n: number, w: number) => String(n).padStart(w, '0');
// Strings near the format: valid layouts with any field values, then edited by a few characters.
const near = fc
  .record({
    y: fc.integer({ min: 0, max: 9999 }), mo: fc.integer({ min: 0, max: 19 }), d: fc.integer({ min: 0, max: 39 }),
    sep: fc.constantFrom('T', 't', ' ', '\u00a0', '\u2028', '\t', '\n', '\r', '\v', '\f', '\u001f', '\u3000', '\ufeff', '\u0085', 'x', '_', ''),
    h: fc.integer({ min: 0, max: 29 }), mi: fc.integer({ min: 0, max: 69 }), s: fc.integer({ min: 0, max: 69 }),
    frac: fc.constantFrom('', '.5', '.123456', '.', '.9999999999999999999', '.x'),
    tz: fc.constantFrom('Z', 'z', '+00:00', '-05:30', '+0530', '+05', '+24:00', '-00:60', '+05:', '', 'ZZ', '+5:30', ' Z'),
  })
  .map((r) => `${pad(r.y, 4)}-${pad(r.mo, 2)}-${pad(r.d, 2)}${r.sep}${pad(r.h, 2)}:${pad(r.mi, 2)}:${pad(r.s, 2)}${r.frac}${r.tz}`);
const edited = fc.tuple(near, fc.nat(40), fc.nat(40), fc.string({ maxLength: 3 })).map(([s, at, del, ins]) => s.slice(0, at % (s.length + 1)) + ins + s.slice((at % (s.length + 1)) + (del % 3)));

describe('the envelope date-time format', () => {
  it('accepts and refuses exactly what ajv-formats does, near the format', () => {
    fc.assert(fc.property(fc.oneof(near, edited), (s) => { expect(isDateTime(s)).toBe(oracle(s)); }), { numRuns: 20_000 });
  });

  it('agrees with ajv-formats on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (s) => { expect(isDateTime(s)).toBe(oracle(s)); }), { numRuns: 5_000 });
  });

  it('knows leap years, leap seconds and offsets', () => {
    const cases: [string, boolean][] = [
      ['2024-02-29T00:00:00Z', true], ['2023-02-29T00:00:00Z', false], ['1900-02-29T00:00:00Z', false], ['2000-02-29T00:00:00Z', true],
      ['2026-12-31T23:59:60Z', true], ['2026-12-31T22:59:60-01:00', true], ['2026-12-31T12:00:60Z', false],
      ['2026-09-01T02:00:00.123+05:30', true], ['2026-09-01T02:00:00', false], ['2026-09-01 02:00:00z', true],
      ['2026-09-01T02:00:00+24:00', false], ['2026-13-01T02:00:00Z', false], ['2026-09-01T02:00:00Zt', false],
    ];
    for (const [s, want] of cases) {
      expect(isDateTime(s), s).toBe(want);
      expect(oracle(s), s).toBe(want);
    }
  });
});

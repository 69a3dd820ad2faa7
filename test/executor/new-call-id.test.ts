import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newCallId } from '../../src/executor/index.js';

// RFC 9562: 48-bit Unix milliseconds, version nibble 7, variant bits 10.
const V7 = /^call_([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const timeOf = (id: string): number => {
  const m = V7.exec(id);
  if (m === null) throw new Error(`not a version-7 call id: ${id}`);
  return parseInt(`${m[1]}${m[2]}`, 16);
};

describe('newCallId', () => {
  it('makes a version-7 UUID whose first 48 bits are the given millisecond', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffffffff }), (ms) => timeOf(newCallId(ms)) === ms));
  });

  it('stamps the current time by default', () => {
    const before = Date.now();
    const id = newCallId();
    expect(timeOf(id)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id)).toBeLessThanOrEqual(Date.now());
  });

  it('sorts an id of a later millisecond after an earlier one, as text', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xfffffffffffe }), fc.integer({ min: 1, max: 1e9 }), (a, d) => newCallId(a) < newCallId(Math.min(a + d, 0xffffffffffff))));
  });

  it('keeps 74 random bits: ten thousand ids of one millisecond are all different', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newCallId(1_700_000_000_000)));
    expect(ids.size).toBe(10_000);
  });

  it('clamps a time outside the 48-bit range instead of making a malformed id', () => {
    expect(timeOf(newCallId(-5))).toBe(0);
    expect(timeOf(newCallId(2 ** 60))).toBe(0xffffffffffff);
    expect(timeOf(newCallId(1.9))).toBe(1);
    expect(timeOf(newCallId(Number.NaN))).toBe(0);
    expect(timeOf(newCallId(Number.NEGATIVE_INFINITY))).toBe(0);
    expect(timeOf(newCallId(Number.POSITIVE_INFINITY))).toBe(0xffffffffffff);
  });
});

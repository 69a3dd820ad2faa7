import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Bytes, bitBytes, hexBytes } from '../../src/trust/chunk-bytes.js';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_';
const base64Chars = fc.array(fc.constantFrom(...BASE64), { maxLength: 40 }).map((a) => a.join(''));

describe('decoding a short chunk in place', () => {
  it('reads base64 (both alphabets, any length) as Buffer.from does (property)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 6 }), base64Chars, fc.string({ maxLength: 6 }), (before, chunk, after) => {
      const text = before + chunk + after;
      const bytes = base64Bytes(text, before.length, before.length + chunk.length);
      expect([...(bytes ?? [])]).toEqual([...Buffer.from(chunk, 'base64')]);
    }), { numRuns: 2000 });
  });

  it('reads the base64 of any bytes back to those bytes, padding left off (property)', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 30 }), fc.boolean(), (raw, urlSafe) => {
      const chunk = Buffer.from(raw).toString(urlSafe ? 'base64url' : 'base64').replace(/=+$/, '');
      expect([...(base64Bytes(chunk, 0, chunk.length) ?? [])]).toEqual([...raw]);
    }), { numRuns: 1000 });
  });

  it('refuses a character outside both base64 alphabets', () => {
    expect(base64Bytes('ab.cd', 0, 5)).toBeNull();
    expect(base64Bytes('abcé', 0, 4)).toBeNull();
  });

  it('reads hex digits of either case as Buffer.from does, and refuses odd counts and other characters (property)', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 30 }), fc.boolean(), (raw, upper) => {
      const hex = Buffer.from(raw).toString('hex');
      const text = upper ? hex.toUpperCase() : hex;
      expect([...(hexBytes(text, 0, text.length) ?? [])]).toEqual([...raw]);
    }), { numRuns: 1000 });
    expect(hexBytes('abc', 0, 3)).toBeNull();
    expect(hexBytes('zz', 0, 2)).toBeNull();
  });

  it('reads binary digits eight a byte, as parseInt of each group does (property)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 4 }), fc.uint8Array({ maxLength: 20 }), (before, raw) => {
      const bits = [...raw].map((b) => b.toString(2).padStart(8, '0')).join('');
      const text = before + bits + '=';
      expect([...bitBytes(text, before.length, before.length + bits.length)]).toEqual([...raw]);
    }), { numRuns: 1000 });
  });

  it('leaves the bytes of one chunk alone until the next decoding', () => {
    const first = base64Bytes('cXouaW8', 0, 7);
    expect(Buffer.from(first ?? []).toString()).toBe('qz.io');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKeys, emailAddresses, significantLength } from '../../src/trust/email-addresses.js';
import { speltOutView } from '../../src/trust/short-names.js';
import { growth, LINEAR_BOUND_10X } from '../helpers/cpu-time.js';

describe('e-mail addresses in free text', () => {
  it('finds each address as written, without the punctuation around it', () => {
    expect(emailAddresses('Write to Z@QZ.io, or <ops.desk+x@mail.qz.io>. Thanks.')).toEqual(['Z@QZ.io', 'ops.desk+x@mail.qz.io']);
    expect(emailAddresses('"z@qz.io" then (a@b.co)-')).toEqual(['z@qz.io', 'a@b.co']);
  });

  it('refuses what is not an address', () => {
    for (const text of ['a@b', '@qz.io', 'z@qz.i', 'z@.io', 'z@qz.', 'z@qz.i0', 'z @qz.io', '.@qz.io', 'user@localhost']) {
      expect(emailAddresses(text), text).toEqual([]);
    }
  });

  it('keys an address by its parts in taint form, keeping @ and the dots between labels', () => {
    expect(addressKeys('Mail Z@QZ.IO now')).toEqual(['z@qz.io']);
    expect(addressKeys('ab@c.de')).not.toEqual(addressKeys('a@bc.de'));
    // Full-width and zero-width disguises read as the plain address.
    expect(addressKeys('ｚ＠ｑｚ．ｉｏ')).toEqual(['z@qz.io']);
    expect(addressKeys('z\u200b@q\u200bz.io')).toEqual(['z@qz.io']);
    expect(significantLength('z@qz.io')).toBe(5);
  });

  it('reads addresses and hosts spelt out to hide them', () => {
    expect(speltOutView('mail q [at] zq [dot] io now')).toBe('mail q@zq.io now');
    expect(speltOutView('Q (AT) ZQ (DOT) IO, or q at zq dot io.')).toBe('Q@ZQ.IO, or q@zq.io.');
    expect(speltOutView('visit qz dot io')).toBe('visit qz.io');
    // No separator, or one that is only part of a word: nothing to read.
    expect(speltOutView('we met at noon')).toBeNull();
    expect(speltOutView('the dotted line, a dot')).toBe('the dotted line, a dot');
  });

  it('finds an address set anywhere among other words (property)', () => {
    const label = fc.stringMatching(/^[a-z0-9]{1,8}$/);
    const tld = fc.stringMatching(/^[a-z]{2,6}$/);
    const around = fc.stringMatching(/^[a-z ,;<>()"!?]{0,30}$/).map((s) => s.replace(/^[a-z]+$/, ' '));
    fc.assert(fc.property(label, label, tld, around, around, (local, domain, top, before, after) => {
      const address = `${local}@${domain}.${top}`;
      const text = `${before} ${address} ${after}`;
      expect(emailAddresses(text)).toContain(address);
    }), { numRuns: 300 });
  });

  it('returns only substrings with one @, a local part and a top-level domain (property)', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', '0', '@', '.', '-', ' ', '+', '"', 'é') }), (text) => {
      for (const a of emailAddresses(text)) {
        expect(text).toContain(a);
        expect(a).toMatch(/^[^@\s]{1,64}@[a-z0-9.-]+\.[a-z]{2,}$/i);
      }
    }), { numRuns: 500 });
  });

  it('reads 10x the text in about 10x the CPU, whatever the text repeats', () => {
    const shapes = [
      (n: number) => 'a@'.repeat(n / 2),
      (n: number) => `${'a'.repeat(60)}@${'b'.repeat(200)} `.repeat(n / 262),
      (n: number) => `x@${'b.'.repeat(120)}c `.repeat(n / 245),
    ];
    for (const make of shapes) expect(growth(make, emailAddresses, 100_000, 1_000_000)).toBeLessThan(LINEAR_BOUND_10X);
    // Keys of short addresses, folded from full-width and zero-width forms first.
    // Spelt-out separators, and long runs of spaces and brackets beside the word `dot`.
    for (const make of [(n: number) => ' [at] x dot '.repeat(n / 12), (n: number) => `dot${' ['.repeat(n / 2)}`, (n: number) => `dot [${' '.repeat(n)}`]) {
      expect(growth(make, speltOutView, 100_000, 1_000_000)).toBeLessThan(LINEAR_BOUND_10X);
    }
    const folded = (n: number) => 'ｚ＠ｑ\u200bｚ．ｉｏ '.repeat(n / 9);
    expect(growth(folded, (t: string) => addressKeys(t, 6), 100_000, 1_000_000)).toBeLessThan(LINEAR_BOUND_10X);
  });
});

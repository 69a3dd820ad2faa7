import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentHost, hostNames } from '../../src/trust/host-names.js';
import { growth, LINEAR_BOUND_10X } from '../helpers/cpu-time.js';

describe('host names in free text', () => {
  it('finds each host, lower-cased, without the punctuation around it', () => {
    expect(hostNames('Mirror: QZ.io/c, or x.co. Docs at docs.example-site.com.')).toEqual(['qz.io', 'x.co', 'docs.example-site.com']);
    expect(hostNames('visit qz.io or docs.example-site.com', 6)).toEqual(['qz.io']);
  });

  it('refuses what only looks like a host', () => {
    for (const text of ['v1.2', 'e.g.', 'i.e.', 'U.S.', 'fig.2', 'a..io', '.io', 'x', 'qz.i', 'qz.i0']) expect(hostNames(text), text).toEqual([]);
  });

  it('reads the host an argument names: a URL\'s, after any credentials and before the port, or the whole argument', () => {
    expect(argumentHost('https://QZ.io:8443/c?d=1')).toBe('qz.io');
    expect(argumentHost('https://user:p@ss@qz.io/x')).toBe('qz.io');
    expect(argumentHost('  qz.io ')).toBe('qz.io');
    expect(argumentHost('https://qz.io?u=a@b.co#x@y.io')).toBe('qz.io');
    for (const v of ['see qz.io', 'a@qz.io', 'https:///x', 'mailto:z@qz.io', 'v1.2', 'see https://qz.io', '://qz.io']) expect(argumentHost(v), v).toBeNull();
  });

  it('returns only hosts that are in the text (property)', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'Q', '0', '.', '-', ' ', '/', '@', 'é') }), (text) => {
      for (const h of hostNames(text)) {
        expect(text.toLowerCase()).toContain(h);
        expect(h).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/);
      }
    }), { numRuns: 500 });
  });

  it('reads 10x the text in about 10x the CPU, whatever the text repeats', () => {
    const shapes = [(n: number) => 'a.'.repeat(n / 2), (n: number) => `${'b.'.repeat(120)}1 `.repeat(n / 243), (n: number) => 'qz.io '.repeat(n / 6)];
    for (const make of shapes) expect(growth(make, (t: string) => hostNames(t, 6), 100_000, 1_000_000)).toBeLessThan(LINEAR_BOUND_10X);
  });
});

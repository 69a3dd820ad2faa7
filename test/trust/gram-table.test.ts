import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GramTable } from '../../src/trust/gram-table.js';
import { TAINT_MIN_CHARS as K } from '../../src/trust/taint-normalize.js';

/** What a gram table must answer: each window's first piece, windows stored in order up to `max`. */
function reference(texts: readonly string[], max: number): { pieces: number[]; first: Map<string, number>; full: boolean } {
  const first = new Map<string, number>();
  const pieces: number[] = [];
  let full = false;
  let next = 0;
  for (const text of texts) {
    const piece = next;
    let stored = 0;
    for (let i = 0; i + K <= text.length; i++) {
      if (first.size >= max) { full = true; break; }
      const w = text.slice(i, i + K);
      if (!first.has(w)) { first.set(w, piece); stored++; }
    }
    pieces.push(stored > 0 ? piece : -1);
    if (stored > 0) next++;
  }
  return { pieces, first, full };
}

describe('gram table', () => {
  it('answers every look-up as a plain map of first occurrences would, whatever it keeps of each text', () => {
    // A small alphabet, so texts share most of their windows and many keep only stretches.
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 120 });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 25 }), fc.array(text, { maxLength: 10 }), fc.integer({ min: 1, max: 400 }), (texts, queries, max) => {
        const table = new GramTable(max);
        const pieces = texts.map((t) => table.add(t));
        const ref = reference(texts, max);
        expect(pieces).toEqual(ref.pieces);
        expect(table.full).toBe(ref.full);
        for (const q of [...texts, ...queries]) {
          for (let i = 0; i + K <= q.length; i++) expect(table.find(q, i)).toBe(ref.first.get(q.slice(i, i + K)) ?? -1);
        }
        expect(table.stats().grams).toBe(ref.first.size);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps only the stretches around the few new windows of a long text', () => {
    const table = new GramTable();
    const page = 'the quarterly maintenance contract renews every april. '.repeat(2_000);
    table.add(page);
    const before = table.stats().chars;
    // The same page with three new values in it: three new stretches, not another copy.
    const again = `${page.slice(0, 30_000)} ACCT-7731 ${page.slice(30_000, 60_000)} ACCT-9913 ${page.slice(60_000)} ACCT-0042`;
    expect(table.add(again)).toBeGreaterThan(0);
    const kept = table.stats().chars - before;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(3 * 4 * K);
    for (const value of ['ACCT-7731', 'ACCT-9913', 'ACCT-0042']) {
      const at = again.indexOf(value);
      expect(at).toBeGreaterThan(0);
      for (let i = at - K + 1; i < at + value.length && i + K <= again.length; i++) if (!page.includes(again.slice(i, i + K))) expect(table.find(again, i)).toBe(1);
    }
  });

  it('keeps nothing of a text whose windows it has, or once full', () => {
    const table = new GramTable(50);
    expect(table.add('abcdefghijklmnop')).toBe(0);
    expect(table.add('abcdefghijklmnop')).toBe(-1);
    expect(table.add('abc')).toBe(-1);
    while (!table.full) table.add(Math.random().toString(36).slice(2));
    const { texts, chars } = table.stats();
    for (let i = 0; i < 100; i++) expect(table.add(`never stored ${i} ${'x'.repeat(i)}`)).toBe(-1);
    expect(table.stats()).toMatchObject({ texts, chars });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { triggerTables } from '../../src/trust/trigger-tables.js';
import { hashString } from '../../src/trust/word-index.js';
import { NOT_MEMOIZED, WordMemo } from '../../src/trust/word-memo.js';
import { lookup, MAX_SHORT_WORD, shortWordIndex } from '../../src/trust/word-lookup.js';

const units = (w: string): Uint16Array => Uint16Array.from(w, (c) => c.charCodeAt(0));

describe('word memo', () => {
  it('answers what was set, word by word, and nothing for a word with the same hash', () => {
    const memo = new WordMemo(6);
    memo.set(units('customer'), 8, hashString('customer'), 7);
    expect(memo.get(units('customer'), 8, hashString('customer'))).toBe(7);
    // Another word given the same hash and length is checked unit by unit.
    expect(memo.get(units('costumer'), 8, hashString('customer'))).toBe(NOT_MEMOIZED);
    expect(memo.get(units('customers'), 9, hashString('customers'))).toBe(NOT_MEMOIZED);
  });

  it('empties itself when full and keeps answering exactly', () => {
    const memo = new WordMemo(4); // 8 words at most
    const seen = new Map<string, number>();
    fc.assert(fc.property(fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,20}$/), fc.integer({ min: -9, max: 9999 })), { maxLength: 200 }), (pairs) => {
      for (const [w, v] of pairs) {
        const got = memo.get(units(w), w.length, hashString(w));
        // Whatever it still holds is what was last set for that very word.
        if (got !== NOT_MEMOIZED) expect(got).toBe(seen.get(w));
        else { memo.set(units(w), w.length, hashString(w), v); seen.set(w, v); }
      }
    }), { numRuns: 200 });
  });
});

describe('short words', () => {
  it('reads every word of one to three letters a-z as the string lookup does', () => {
    const m = triggerTables().matcher;
    const cache = new Map<string, number>();
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const words: string[] = [...letters];
    for (let len = 2; len <= MAX_SHORT_WORD; len++) for (const w of words.filter((x) => x.length === len - 1)) for (const c of letters) words.push(w + c);
    for (const w of words) expect(m.shortIds[shortWordIndex(units(w), w.length)], w).toBe(lookup(m, w, cache));
  });
});

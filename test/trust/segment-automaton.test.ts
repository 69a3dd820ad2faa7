import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { segmentation } from '../../src/trust/phrase-matcher.js';
import { buildSegmentAutomaton, pieceTriples, segmentUnits } from '../../src/trust/segment-automaton.js';
import { triggerTables } from '../../src/trust/trigger-tables.js';

/**
 * The segmentation the automaton replaced, kept as the reference: every segment word tried at
 * every offset, a shortest cover with ties to the piece starting first.
 */
function referenceSegment(words: ReadonlySet<string>, maxWordLength: number, word: string): [number, number][] | null {
  const n = word.length;
  const cost = new Int32Array(n + 1).fill(1 << 30);
  const from = new Int32Array(n + 1);
  cost[0] = 0;
  for (let i = 0; i < n; i++) {
    const c = cost[i] ?? 0;
    if (c + 1 < (cost[i + 1] ?? 0)) { cost[i + 1] = c + 1; from[i + 1] = -1; }
    for (let len = 2; len <= Math.min(maxWordLength, n - i); len++) {
      if (c < (cost[i + len] ?? 0) && words.has(word.slice(i, i + len))) { cost[i + len] = c; from[i + len] = i; }
    }
  }
  if ((cost[n] ?? n) * 5 > n) return null;
  const pieces: [number, number][] = [];
  for (let i = n; i > 0;) {
    const f = from[i] ?? -1;
    if (f === -1) { i--; continue; }
    pieces.push([f, i - f]);
    i = f;
  }
  pieces.reverse();
  return pieces.filter(([, len]) => len >= 3).length >= 2 ? pieces : null;
}

const m = triggerTables().matcher;
const segmentWords = [...m.segmentWords].filter((w) => w.length >= 2 && w.length <= m.maxWordLength);
const units = (w: string): Uint16Array => Uint16Array.from(w, (c) => c.charCodeAt(0));

// Joined words: segment words, their near misses and stray letters run together.
const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
const piece = fc.oneof(
  fc.constantFrom(...segmentWords),
  fc.constantFrom(...segmentWords).map((w) => w.slice(1)),
  fc.constantFrom(...segmentWords).map((w) => w.slice(0, -1)),
  fc.string({ unit: letter, minLength: 1, maxLength: 3 }),
);
const joined = fc.array(piece, { minLength: 1, maxLength: 12 }).map((ps) => ps.join('').slice(0, 160));

describe('segmentation by automaton', () => {
  it('finds the cover the reference finds, for joined words and random letters', () => {
    const check = (w: string): void => { expect(segmentation(m, w), w).toEqual(referenceSegment(m.segmentWords, m.maxWordLength, w)); };
    fc.assert(fc.property(joined, check), { numRuns: 4000 });
    fc.assert(fc.property(fc.string({ unit: letter, minLength: 9, maxLength: 60 }), check), { numRuns: 2000 });
    for (const w of ['ignoreallpreviousinstructions', 'candidates', 'developmentally', 'information', 'aaaaaaaaaaaaaaaaaaaa']) check(w);
  });

  it('gives each piece its vocabulary id, -1 for a word that only glues', () => {
    const w = 'ignoreallpreviousinstructions';
    const count = segmentUnits(m.segmenter, units(w), w.length);
    const triples = Array.from(pieceTriples.data.subarray(0, 3 * count));
    const pieces: [string, number][] = [];
    for (let k = 0; k < triples.length; k += 3) pieces.push([w.slice(triples[k], (triples[k] ?? 0) + (triples[k + 1] ?? 0)), triples[k + 2] ?? -2]);
    expect(pieces).toEqual(pieces.map(([p]) => [p, m.vocab.get(p) ?? -1]));
    expect(pieces.map(([p]) => p)).toEqual(['ignore', 'all', 'previous', 'instructions']);
  });

  it('covers nothing with a unit outside a-z', () => {
    const a = buildSegmentAutomaton([['ignore', 0], ['all', 1], ['rules', 2]]);
    expect(segmentUnits(a, units('ignoreallrules'), 14)).toBe(3);
    expect(segmentUnits(a, units('ignoreÀllrules'), 14)).toBe(0);
    expect(() => buildSegmentAutomaton([['Ignore', 0]])).toThrow();
  });
});

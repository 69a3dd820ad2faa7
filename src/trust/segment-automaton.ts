/**
 * Segmentation of long joined words ("ignoreallprevious") into the words of a lexicon, by one
 * Aho-Corasick pass: each letter moves a DFA over every segment word at once, and the words that
 * end there relax a shortest-cover table. It finds the same cover as trying every word at every
 * offset (the reference in word-lookup's `segment`, which this replaces), in time linear in the
 * word times the few words ending at each letter, with no string built: most long words (about
 * 98 % of ordinary text's) do not segment, and a pass says so in a few nanoseconds a letter.
 */

/** The state bits of a transition; the bit above says words end in that state. */
const STATE = 0x7fff;

/** The automaton: a DFA over `a`-`z` and, per state, the words ending there. */
export interface SegmentAutomaton {
  /** `next[state * 26 + letter]` (state 0 is the root), with 0x8000 set when words end in the state reached. */
  readonly next: Uint16Array;
  /** Words ending at each state (its own and its suffixes'): `outLen`/`outId` from `outStart[state]` to `outStart[state + 1]`. */
  readonly outStart: Int32Array;
  readonly outLen: Int32Array;
  /** The vocabulary id of each word, -1 for a word that only glues others together. */
  readonly outId: Int32Array;
}

/**
 * The automaton of `words` (lower-case `a`-`z`, each with its vocabulary id or -1).
 * @example buildSegmentAutomaton([['all', 0], ['ignore', 1]]).outStart.length > 0 // true
 */
export function buildSegmentAutomaton(words: Iterable<readonly [string, number]>): SegmentAutomaton {
  const goto: number[][] = [new Array<number>(26).fill(-1)];
  const own: [number, number][][] = [[]];
  for (const [word, id] of words) {
    let s = 0;
    for (let k = 0; k < word.length; k++) {
      const c = word.charCodeAt(k) - 0x61;
      if (c < 0 || c >= 26) throw new Error(`segment word ${word} is not lower-case a-z`);
      const row = goto[s] ?? [];
      let t = row[c] ?? -1;
      if (t < 0) {
        t = goto.length;
        row[c] = t;
        goto.push(new Array<number>(26).fill(-1));
        own.push([]);
      }
      s = t;
    }
    own[s]?.push([word.length, id]);
  }
  // Breadth first: a state's failure state is shallower, so its DFA row and outputs are final.
  // States are renumbered in that order, so the shallow ones most letters visit sit together.
  const states = goto.length;
  const order = [0];
  for (let q = 0; q < order.length; q++) for (const t of goto[order[q] ?? 0] ?? []) if (t >= 0) order.push(t);
  const renamed = new Int32Array(states);
  order.forEach((old, k) => (renamed[old] = k));
  if (states > STATE) throw new Error('segment automaton: too many states for 15-bit transitions');
  const next = new Uint16Array(states * 26);
  const fail = new Int32Array(states);
  const outputs: [number, number][][] = order.map((old) => [...(own[old] ?? [])]);
  for (let s = 0; s < states; s++) {
    const row = goto[order[s] ?? 0] ?? [];
    for (let c = 0; c < 26; c++) {
      const t = row[c] ?? -1;
      // The root's missing letters stay at the root; a deeper state's follow its failure state.
      const viaFail = s === 0 ? 0 : next[(fail[s] ?? 0) * 26 + c] ?? 0;
      if (t < 0) next[s * 26 + c] = viaFail;
      else {
        const u = renamed[t] ?? 0;
        next[s * 26 + c] = u;
        fail[u] = s === 0 ? 0 : viaFail;
      }
    }
    if (s > 0) outputs[s]?.push(...(outputs[fail[s] ?? 0] ?? []));
  }
  // A transition into a state where words end carries the flag bit: most letters need no look.
  for (let k = 0; k < next.length; k++) if ((outputs[next[k] ?? 0]?.length ?? 0) > 0) next[k] = (next[k] ?? 0) | (STATE + 1);
  const outStart = new Int32Array(states + 1);
  for (let s = 0; s < states; s++) outStart[s + 1] = (outStart[s] ?? 0) + (outputs[s]?.length ?? 0);
  const outLen = new Int32Array(outStart[states] ?? 0);
  const outId = new Int32Array(outLen.length);
  for (let s = 0; s < states; s++) {
    let k = outStart[s] ?? 0;
    for (const [len, id] of outputs[s] ?? []) { outLen[k] = len; outId[k] = id; k++; }
  }
  return { next, outStart, outLen, outId };
}

// The cover table, shared (one word at a time): fewest letters left over in the first j, where
// the last piece starts (-1: letter j-1 is left over), and that piece's id.
let cost = new Int32Array(161);
let from = new Int32Array(161);
let fromId = new Int32Array(161);

/** The fewest letters of `units[0, n)` a cover by segment words leaves over. */
function coverCost(a: SegmentAutomaton, units: Uint16Array, n: number): number {
  const { next, outStart, outLen } = a;
  const cst = cost;
  cst[0] = 0;
  let s = 0;
  let last = 0;
  for (let j = 1; j <= n; j++) {
    const c = (units[j - 1] as number) - 0x61;
    const t = c >= 0 && c < 26 ? (next[s * 26 + c] as number) : 0;
    s = t & STATE;
    let best = last + 1;
    if (t > STATE) {
      for (let k = outStart[s] as number, e = outStart[s + 1] as number; k < e; k++) {
        const v = cst[j - (outLen[k] as number)] as number;
        if (v < best) best = v;
      }
    }
    cst[j] = best;
    last = best;
  }
  return last;
}

/** {@link coverCost}'s pass again, recording where each position's best piece starts and its id. */
function recordCover(a: SegmentAutomaton, units: Uint16Array, n: number): void {
  const { next, outStart, outLen, outId } = a;
  cost[0] = 0;
  let s = 0;
  for (let j = 1; j <= n; j++) {
    const c = (units[j - 1] ?? 0) - 0x61;
    const t = c >= 0 && c < 26 ? next[s * 26 + c] ?? 0 : 0;
    s = t & STATE;
    // Ties go to the piece starting first; leaving letter j-1 over (from j-1) loses every tie.
    let best = (cost[j - 1] ?? 0) + 1;
    let start = j - 1;
    let id = -1;
    for (let k = outStart[s] ?? 0, e = outStart[s + 1] ?? 0; k < e; k++) {
      const len = outLen[k] ?? 0;
      const v = cost[j - len] ?? 0;
      if (v < best || (v === best && j - len < start)) { best = v; start = j - len; id = outId[k] ?? -1; }
    }
    cost[j] = best;
    from[j] = start === j - 1 ? -1 : start;
    fromId[j] = id;
  }
}

/** The segmentation found by {@link segmentUnits}: [offset, length, id] per piece, valid until the next call. */
export const pieceTriples = { data: new Int32Array(3 * 161), count: 0 };

/**
 * Segment the lower-case letters `units[0, n)` (any other unit is never covered): the cover
 * with the fewest letters left over, ties going to the piece that starts first, accepted when at
 * most a fifth of the letters are left over and at least two pieces have three letters or more.
 * Returns the number of pieces (0: it does not segment), written to {@link pieceTriples}.
 * @example segmentUnits(automaton, Uint16Array.from('ignoreall', (c) => c.charCodeAt(0)), 9) // 2
 */
export function segmentUnits(a: SegmentAutomaton, units: Uint16Array, n: number): number {
  if (cost.length <= n) {
    cost = new Int32Array(n + 1);
    from = new Int32Array(n + 1);
    fromId = new Int32Array(n + 1);
  }
  // Most long words do not segment: a first pass only counts the letters left over, and the
  // pieces are recorded by a second pass for the few that do.
  if (coverCost(a, units, n) * 5 > n) return 0;
  recordCover(a, units, n);
  // Walk back from the end; then reverse the pieces into reading order.
  const out = pieceTriples.data.length >= 3 * n ? pieceTriples.data : (pieceTriples.data = new Int32Array(3 * n));
  let count = 0;
  let long = 0;
  for (let j = n; j > 0;) {
    const f = from[j] ?? -1;
    if (f < 0) { j--; continue; }
    out[3 * count] = f;
    out[3 * count + 1] = j - f;
    out[3 * count + 2] = fromId[j] ?? -1;
    if (j - f >= 3) long++;
    count++;
    j = f;
  }
  if (long < 2) return 0;
  for (let x = 0, y = count - 1; x < y; x++, y--) {
    for (let k = 0; k < 3; k++) {
      const t = out[3 * x + k] ?? 0;
      out[3 * x + k] = out[3 * y + k] ?? 0;
      out[3 * y + k] = t;
    }
  }
  pieceTriples.count = count;
  return count;
}

/**
 * Word lookup for the instruction detector: a token's vocabulary id from its exact form, then a
 * plural/-ing/-ed fallback (an `e` dropped before -ing included), then a distance-1 typo lookup
 * for long words (precomputed deletion variants), then a ROT13, reversed or leet spelling of a
 * long keyword (counted as evidence for those decodings). Long unknown runs of letters may be
 * segmented into vocabulary words ("ignoreallpreviousinstructions").
 *
 * {@link lookup} states the semantics on strings. {@link resolveWord} gives the same answer
 * from code units and their hash without building a string for nearly every word:
 * every exact, inflected and disguised form is in one hashed table, and the typo and leet
 * branches are entered only when the hashed deletion index says a match is possible.
 */
import { buildSegmentAutomaton, pieceTriples, segmentUnits, type SegmentAutomaton } from './segment-automaton.js';
import { buildHashSet, buildWordTable, deletionMayMatch, HASH_BASE, type HashSet, type WordTable } from './word-index.js';

/** Special ids of tokens that spell a keyword in ROT13, backwards, or with digits as letters. */
export const ROT13_ID = -2;
export const REVERSED_ID = -3;
export const LEET_ID = -4;

const MIN_TYPO_LENGTH = 7;
const MAX_TYPO_LENGTH = 24;
/** Endings read as inflections of a rule word ("instructions" of "instruction"). */
export const SUFFIXES = ['s', 'es', 'ing', 'ed', 'd'] as const;

const isVowel = (c: string): boolean => c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u';

/**
 * The spellings an inflected `word` may have been made from, most likely first: the word without
 * one of {@link SUFFIXES} ("ignores" → "ignore"), then with the `e` an `-ing` dropped restored
 * ("including" → "include"). Doubled consonants are not undone: tried on the corpora, that read
 * nouns as verbs ("beginning" as "begin"), for a false positive and few gains.
 * @example inflectionBases('including') // ['includ', 'include']
 */
export function inflectionBases(word: string): string[] {
  const out: string[] = [];
  for (const suffix of SUFFIXES) if (word.length > suffix.length + 2 && word.endsWith(suffix)) out.push(word.slice(0, -suffix.length));
  if (word.length > 6 && word.endsWith('ing')) {
    const last = word[word.length - 4] ?? '';
    if (!isVowel(last) && last !== 'y' && last !== 'w') out.push(word.slice(0, -3) + 'e');
  }
  return out;
}

/**
 * The inflected spellings {@link inflectionBases} reads back as `word` (its inverse, for the
 * precomputed table of forms).
 * @example inflectedForms('include') // ['includes', 'includees', 'includeing', 'includeed', 'included', 'including']
 */
export function inflectedForms(word: string): string[] {
  if (word.length <= 2) return [];
  const out: string[] = SUFFIXES.map((s) => word + s);
  if (word.endsWith('e')) out.push(word.slice(0, -1) + 'ing');
  return out.filter((f) => inflectionBases(f).includes(word));
}
/** Longest word read as a leet spelling. */
const MAX_LEET_LENGTH = 24;
const LEET_DIGITS: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g', '6': 'g', '2': 'z' };
// Short function words that glue keywords together in a de-spaced run ("ignoreallthe…").
const GLUE = [
  'a', 'an', 'the', 'to', 'of', 'and', 'or', 'in', 'on', 'at', 'is', 'it', 'me', 'my', 'we', 'us', 'be', 'by', 'as',
  'for', 'with', 'from', 'that', 'this', 'what', 'then', 'than', 'instead', 'please', 'now', 'say', 'said', 'them',
  'you', 'your', 'are', 'were', 'was', 'been', 'have', 'has', 'had', 'not', 'no', 'do', 'does', 'did', 'just', 'only',
  'so', 'if', 'but', 'here', 'there', 'these', 'those', 'which', 'who', 'will', 'can', 'must', 'should', 'tell',
];

/** The vocabulary of a rule set and the indexes derived from it. */
export interface Lexicon {
  readonly vocab: ReadonlyMap<string, number>;
  readonly typoIndex: ReadonlyMap<string, number>;
  /** ROT13 (-2) and reversed (-3) spellings of long keywords. */
  readonly disguised: ReadonlyMap<string, number>;
  /** Words a long token may be segmented into: the vocabulary plus common short words. */
  readonly segmentWords: ReadonlySet<string>;
  readonly maxWordLength: number;
  /** Every exact, inflected and disguised form, with the id {@link lookup} gives it. */
  readonly forms: WordTable;
  /** The vocabulary itself (what a leet spelling must fold to), found from code units. */
  readonly words: WordTable;
  /** Hashes of the typo index's keys and of the long vocabulary words. */
  readonly typoKeys: HashSet;
  /** The segment words (two letters up to {@link maxWordLength}), with their vocabulary ids. */
  readonly segmenter: SegmentAutomaton;
  /** {@link lookup}'s answer for every word of one to three letters a-z, by {@link shortWordIndex}. */
  readonly shortIds: Int16Array;
}

/** Longest word {@link Lexicon.shortIds} answers for. */
export const MAX_SHORT_WORD = 3;

/**
 * The index in {@link Lexicon.shortIds} of the lower-case word `units[0, len)` (1 to 3 letters
 * a-z): its letters as base-27 digits 1-26, so each length has indexes of its own.
 */
export function shortWordIndex(units: Uint16Array, len: number): number {
  let x = 0;
  for (let k = 0; k < len; k++) x = x * 27 + ((units[k] as number) - 0x60);
  return x;
}

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** ROT13 of the ASCII letters of `s`. */
export function rot13(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) out += String.fromCharCode(((c - 0x61 + 13) % 26) + 0x61);
    else if (c >= 0x41 && c <= 0x5a) out += String.fromCharCode(((c - 0x41 + 13) % 26) + 0x41);
    else out += s[i];
  }
  return out;
}

/**
 * The id of one token (already normalized), or -1. The reference semantics, on strings.
 * @example lookup(lexicon, 'ignored', new Map()) === lexicon.vocab.get('ignore')
 */
export function lookup(m: Pick<Lexicon, 'vocab' | 'typoIndex' | 'disguised'>, word: string, cache: Map<string, number>): number {
  const exact = m.vocab.get(word);
  if (exact !== undefined) return exact;
  const cached = cache.get(word);
  if (cached !== undefined) return cached;
  let id = -1;
  // Inflections the rule lists do not spell out.
  for (const base of inflectionBases(word)) {
    const hit = m.vocab.get(base);
    if (hit !== undefined) { id = hit; break; }
  }
  // One typo (insert, delete, substitute, swap) in a long word, e.g. "iunstructions".
  if (id === -1 && word.length >= MIN_TYPO_LENGTH - 1 && word.length <= MAX_TYPO_LENGTH) {
    id = m.typoIndex.get(word) ?? -1;
    if (id === -1) {
      for (const d of deletions(word)) {
        const hit = (d.length >= MIN_TYPO_LENGTH ? m.vocab.get(d) : undefined) ?? m.typoIndex.get(d);
        if (hit !== undefined) { id = hit; break; }
      }
    }
  }
  if (id === -1) id = m.disguised.get(word) ?? -1;
  if (id === -1 && word.length >= 4 && word.length <= MAX_LEET_LENGTH && /[0-9]/.test(word) && /[a-z]/.test(word)) {
    for (const one of ['i', 'l']) {
      const folded = word.replace(/[0-9]/g, (d) => (d === '1' ? one : LEET_DIGITS[d] ?? d));
      if (m.vocab.has(folded)) { id = LEET_ID; break; }
    }
  }
  if (cache.size < 100_000) cache.set(word, id);
  return id;
}

/**
 * Build the lookup indexes of a vocabulary (word → id, words already folded).
 * @example buildLexicon(new Map([['ignore', 0]])).forms.getString('ignores', -9) // 0
 */
export function buildLexicon(vocab: ReadonlyMap<string, number>): Lexicon {
  const typoIndex = new Map<string, number>();
  const disguised = new Map<string, number>();
  const segmentWords = new Set<string>(GLUE);
  let maxWordLength = 0;
  for (const [word, id] of vocab) {
    if (/^[a-z]+$/.test(word)) {
      segmentWords.add(word);
      maxWordLength = Math.max(maxWordLength, word.length);
      if (word.length >= 5) {
        const r = rot13(word);
        const rev = [...word].reverse().join('');
        if (!vocab.has(r)) disguised.set(r, ROT13_ID);
        if (!vocab.has(rev) && rev !== word) disguised.set(rev, REVERSED_ID);
      }
    }
    if (word.length < MIN_TYPO_LENGTH) continue;
    for (const d of deletions(word)) if (!typoIndex.has(d)) typoIndex.set(d, id);
  }
  const partial = { vocab, typoIndex, disguised, segmentWords, maxWordLength };
  const scratch = new Map<string, number>();
  const forms = new Map<string, number>();
  const addForm = (f: string): void => { if (!forms.has(f)) forms.set(f, lookup(partial, f, scratch)); };
  for (const word of vocab.keys()) {
    addForm(word);
    for (const f of inflectedForms(word)) addForm(f);
  }
  for (const word of disguised.keys()) addForm(word);
  const longWords = [...vocab.keys()].filter((w) => w.length >= MIN_TYPO_LENGTH);
  // Short words have no typo, leet or disguised reading: their forms entry is the whole answer.
  const shortIds = new Int16Array(27 ** MAX_SHORT_WORD).fill(-1);
  for (const [f, id] of forms) {
    if (f.length > MAX_SHORT_WORD || !/^[a-z]+$/.test(f)) continue;
    if (id !== (id << 16) >> 16 || id < -1) throw new Error(`short word ${f}: id ${id} is not a vocabulary id in 16 bits`);
    shortIds[shortWordIndex(Uint16Array.from(f, (c) => c.charCodeAt(0)), f.length)] = id;
  }
  return {
    ...partial,
    forms: buildWordTable(forms),
    words: buildWordTable(vocab),
    typoKeys: buildHashSet([...typoIndex.keys(), ...longWords]),
    shortIds,
    segmenter: buildSegmentAutomaton([...segmentWords].filter((w) => w.length >= 2 && w.length <= maxWordLength).map((w) => [w, vocab.get(w) ?? -1] as const)),
  };
}

const lookupCache = new WeakMap<Lexicon, Map<string, number>>();
const MISSING = -0x7fffffff;
// LEET_DIGITS as code units, by digit; '1' is tried as both 'i' and 'l'.
const LEET_UNITS = Uint16Array.from('0123456789', (d) => (LEET_DIGITS[d] ?? d).charCodeAt(0));
const LEET_ONES = [0x69, 0x6c]; // i, l
const leetScratch = new Uint16Array(MAX_LEET_LENGTH);

/**
 * Whether the word in `units[0, len)` with its digits read as letters is a vocabulary word:
 * {@link lookup}'s leet branch, from code units. An alphanumeric id ("m1234", "sku_12") is in
 * nearly every tool result, and is unique more often than not, so no string or cache entry is made.
 */
function spellsLeet(m: Lexicon, units: Uint16Array, len: number): boolean {
  for (const one of LEET_ONES) {
    let h = 0;
    for (let k = 0; k < len; k++) {
      const u = units[k] ?? 0;
      const f = u === 0x31 ? one : u >= 0x30 && u <= 0x39 ? LEET_UNITS[u - 0x30] ?? u : u;
      leetScratch[k] = f;
      h = (Math.imul(h, HASH_BASE) + f) | 0;
    }
    if (m.words.get(leetScratch, len, h, MISSING) !== MISSING) return true;
  }
  return false;
}

/**
 * {@link lookup} of the word in `units[0, len)`, whose hash is `hash` (see word-index);
 * `digitsAndLetters` says whether it holds both an ASCII digit and an ASCII lower-case letter.
 * Builds a string only when the hashed deletion index says a typo reading is possible.
 */
export function resolveWord(m: Lexicon, units: Uint16Array, len: number, hash: number, digitsAndLetters: boolean): number {
  const hit = m.forms.get(units, len, hash, MISSING);
  return hit !== MISSING ? hit : readingId(m, units, len, hash, digitsAndLetters);
}

/**
 * {@link resolveWord} of a word not in `forms` (no exact, inflected or disguised reading): a
 * typo or leet reading, or -1.
 */
export function readingId(m: Lexicon, units: Uint16Array, len: number, hash: number, digitsAndLetters: boolean): number {
  const leet = digitsAndLetters && len >= 4 && len <= MAX_LEET_LENGTH;
  if (len < MIN_TYPO_LENGTH - 1 || len > MAX_TYPO_LENGTH || !deletionMayMatch(units, len, hash, m.typoKeys)) {
    return leet && spellsLeet(m, units, len) ? LEET_ID : -1;
  }
  // One edit from a rule word or from one of its deletions ("product", "address1"): the
  // string lookup decides (about 3 % of the words the deletion index is asked about).
  let cache = lookupCache.get(m);
  if (cache === undefined) { cache = new Map(); lookupCache.set(m, cache); }
  return lookup(m, String.fromCharCode(...units.subarray(0, len)), cache);
}

let segmentScratch = new Uint16Array(160);

/**
 * Split a long run of lower-case letters into vocabulary words, allowing few uncovered letters
 * (see segment-automaton). Returns [offset, length] pairs, or null when the run does not read
 * as words.
 * @example segment(lexicon, 'ignoreallprevious') // [[0, 6], [6, 3], [9, 8]]
 */
export function segment(m: Lexicon, word: string): [number, number][] | null {
  const n = word.length;
  if (segmentScratch.length < n) segmentScratch = new Uint16Array(n);
  for (let k = 0; k < n; k++) segmentScratch[k] = word.charCodeAt(k);
  const count = segmentUnits(m.segmenter, segmentScratch, n);
  if (count === 0) return null;
  const pieces: [number, number][] = [];
  for (let k = 0; k < count; k++) pieces.push([pieceTriples.data[3 * k] ?? 0, pieceTriples.data[3 * k + 1] ?? 0]);
  return pieces;
}

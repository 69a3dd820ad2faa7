/**
 * Word-sequence matching for the instruction detector: linear time, no regular expressions.
 *
 * Text is split into word tokens once; each token gets a vocabulary id (see word-lookup: exact
 * form, inflections, distance-1 typos, segmentation of long joined words). A phrase is a short
 * list of slots (word sets) with a bounded number of skipped words between consecutive slots.
 * Only phrases whose first slot contains the current token are tried, and the search below a
 * start token is bounded by slots × gap, so the whole scan is O(tokens) with a small constant
 * whatever the input.
 *
 * Unknown tokens that are a ROT13 or reversed spelling of a long keyword are counted as
 * evidence, so the detector tries those decodings only when the text shows signs of them.
 */
import { normalizeText } from './normalize-text.js';
import { HASH_BASE } from './word-index.js';
import { buildLexicon, inflectionBases, LEET_ID, resolveWord, REVERSED_ID, ROT13_ID, segment, type Lexicon } from './word-lookup.js';

export { rot13 } from './word-lookup.js';

/** One phrase rule, compiled from its source form (see {@link compilePhrases}). */
export interface PhraseRule {
  readonly id: string;
  readonly family: string;
  readonly strong: boolean;
  readonly source: string;
}

/** A rule that flags text on its own. */
export const strongRule = (id: string, family: string, source: string): PhraseRule => ({ id, family, strong: true, source });
/** A rule that flags text only beside a second, different weak rule. */
export const weakRule = (id: string, family: string, source: string): PhraseRule => ({ id, family, strong: false, source });

/**
 * Word groups of several rule modules as one record. A name defined twice would silently replace
 * the first list for every rule naming it (a second `actVerb` once took the base list's verbs
 * from two of its rules), so it is refused.
 * @example mergeGroups({ a: ['x'] }, { b: ['y'] }) // { a: ['x'], b: ['y'] }
 */
export function mergeGroups(...sets: readonly Readonly<Record<string, readonly string[]>>[]): Readonly<Record<string, readonly string[]>> {
  const out: Record<string, readonly string[]> = {};
  for (const set of sets) {
    for (const [name, words] of Object.entries(set)) {
      if (Object.hasOwn(out, name)) throw new Error(`phrase group @${name} is defined twice`);
      out[name] = words;
    }
  }
  return out;
}

/** A rule compiled against the vocabulary. */
export interface CompiledPhrase extends PhraseRule {
  /** Per slot: membership table over vocabulary ids. */
  readonly slots: readonly Uint8Array[];
  /** Per slot after the first: how many tokens may be skipped before it. */
  readonly gaps: readonly number[];
}

/** A compiled rule set: the lexicon of its words, and phrases indexed by their first slot. */
export interface PhraseMatcher extends Lexicon {
  readonly byFirstWord: readonly (readonly CompiledPhrase[])[];
  /** Every phrase once, in rule order. */
  readonly phrases: readonly CompiledPhrase[];
}

/** A phrase found: its rule and [start, end) in the scanned text. */
export interface PhraseHit {
  readonly rule: PhraseRule;
  readonly startChar: number;
  readonly endChar: number;
}

/** Tokens of a normalized text: char offsets and vocabulary ids (-1 when unknown). */
export interface Tokens {
  readonly count: number;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly ids: Int32Array;
  /** Unknown tokens that spell a keyword in ROT13 / backwards. */
  readonly rot13Evidence: number;
  readonly reversedEvidence: number;
  /** Unknown tokens mixing letters and digits that read as a keyword with digits as letters ("1gn0r3"). */
  readonly leetEvidence: number;
  /** Runs of three or more one-letter tokens ("i g n o r e"), and tokens ending in -ay (pig latin). */
  readonly singleLetterRuns: number;
  readonly ayWords: number;
  /** Char offsets of those evidence tokens (at most 4096), kind 2 = ROT13, 3 = reversed, 4 = leet, 5 = spread letters, 6 = -ay word. */
  readonly evidenceAt: readonly (readonly [number, 2 | 3 | 4 | 5 | 6])[];
}

const MIN_SEGMENT_LENGTH = 9;
const MAX_SEGMENT_LENGTH = 160;
const MAX_TOKEN_LENGTH = 40;

/** Fold a rule word the way the normalizer folds text, so non-English words match. */
function fold(word: string): string {
  return normalizeText(word).text;
}

/**
 * Compile phrase sources. Source syntax: slots separated by spaces; a slot is `a|b|c` (words)
 * or `@group` (a named word list); `~N` before a slot allows N skipped words before it.
 * @example compilePhrases({ ignore: ['ignore', 'disregard'] }, [{ id: 'x', family: 'override', strong: true, source: '@ignore ~3 instructions' }])
 */
export function compilePhrases(groups: Readonly<Record<string, readonly string[]>>, rules: readonly PhraseRule[]): PhraseMatcher {
  const vocab = new Map<string, number>();
  const idOf = (w: string): number => {
    const f = fold(w);
    let id = vocab.get(f);
    if (id === undefined) { id = vocab.size; vocab.set(f, id); }
    return id;
  };
  const parsed = rules.map((rule) => {
    const slots: number[][] = [];
    const gaps: number[] = [];
    let gap = 0;
    for (const part of rule.source.split(/\s+/)) {
      if (part === '') continue;
      if (part.startsWith('~')) { gap = Number(part.slice(1)); continue; }
      const words = part.startsWith('@') ? groups[part.slice(1)] : part.split('|');
      if (words === undefined) throw new Error(`phrase ${rule.id}: unknown group ${part}`);
      slots.push(words.map(idOf));
      if (slots.length > 1) gaps.push(gap);
      gap = 0;
    }
    return { rule, slots, gaps };
  });
  const size = vocab.size;
  // A word some rule spells out ("keys") is its own vocabulary entry, so it no longer reads as
  // an inflection of its base ("key"): a slot naming the base takes those spelled-out forms too,
  // so adding a word to one rule never narrows another.
  const inflected: number[][] = Array.from({ length: size }, () => []);
  for (const [word, id] of vocab) {
    for (const spelling of inflectionBases(word)) {
      const base = vocab.get(spelling);
      if (base !== undefined && base !== id) inflected[base]?.push(id);
    }
  }
  for (const p of parsed) p.slots.forEach((ids, i) => (p.slots[i] = [...new Set(ids.flatMap((id) => [id, ...(inflected[id] ?? [])]))]));
  const byFirstWord: CompiledPhrase[][] = Array.from({ length: size }, () => []);
  const phrases: CompiledPhrase[] = [];
  for (const { rule, slots, gaps } of parsed) {
    const tables = slots.map((ids) => {
      const t = new Uint8Array(size);
      for (const id of ids) t[id] = 1;
      return t;
    });
    const compiled: CompiledPhrase = { ...rule, slots: tables, gaps };
    phrases.push(compiled);
    for (const id of new Set(slots[0] ?? [])) byFirstWord[id]?.push(compiled);
  }
  return { ...buildLexicon(vocab), byFirstWord, phrases };
}

/** Letters and digits of alphabetic scripts; emoji, symbols, CJK and surrogates separate words. */
export function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) ||
    (c >= 0x370 && c <= 0x6ff) || (c >= 0x900 && c <= 0xdff);
}

/** Reads one word's units (a shared buffer: one word at a time). */
export const WORD_BUFFER_LENGTH = MAX_SEGMENT_LENGTH;
const units = new Uint16Array(WORD_BUFFER_LENGTH);

/**
 * The segmentation of a long unknown token, or null.
 * @example segmentation(matcher, 'ignoreallprevious') // [[0, 6], [6, 3], [9, 8]]
 */
export function segmentation(m: PhraseMatcher, word: string): [number, number][] | null {
  return segment(m, word);
}

/** A vocabulary word, or a short word a joined run may contain. */
export function isKnownWord(m: PhraseMatcher, word: string): boolean {
  return m.vocab.has(word) || m.segmentWords.has(word);
}

/** Whether a token of `len` units may be segmented (when its id is unknown). */
export function segmentable(len: number, lowerAscii: boolean): boolean {
  return lowerAscii && len >= MIN_SEGMENT_LENGTH && len <= MAX_SEGMENT_LENGTH;
}

/** Whether a token of `len` units is looked up at all (longer ones are unknown). */
export function lookedUp(len: number): boolean {
  return len <= MAX_TOKEN_LENGTH;
}

/**
 * Split normalized text into word tokens and resolve their vocabulary ids.
 * @example tokenize(matcher, "ignore all previous").count // 3
 */
export function tokenize(m: PhraseMatcher, text: string): Tokens {
  let cap = Math.ceil(text.length / 2) + 16;
  let starts = new Uint32Array(cap);
  let ends = new Uint32Array(cap);
  let ids = new Int32Array(cap);
  const push = (s: number, e: number, id: number): void => {
    if (count >= cap) {
      cap *= 2;
      const s2 = new Uint32Array(cap); s2.set(starts); starts = s2;
      const e2 = new Uint32Array(cap); e2.set(ends); ends = e2;
      const i2 = new Int32Array(cap); i2.set(ids); ids = i2;
    }
    starts[count] = s; ends[count] = e; ids[count] = id; count++;
  };
  let count = 0;
  let rot13Evidence = 0;
  let reversedEvidence = 0;
  let leetEvidence = 0;
  const evidenceAt: [number, 2 | 3 | 4 | 5 | 6][] = [];
  let singleLetterRuns = 0;
  let singles = 0;
  let ayWords = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (!isWordChar(c)) { i++; continue; }
    const s = i;
    // Apostrophes split words ("don't" → don, t), so rules allow one skipped word there.
    let h = 0;
    let digit = false;
    let lower = false;
    let other = false;
    while (i < n && isWordChar(c = text.charCodeAt(i))) {
      const k = i - s;
      if (k < WORD_BUFFER_LENGTH) {
        units[k] = c;
        h = (Math.imul(h, HASH_BASE) + c) | 0;
      }
      if (c <= 0x39) digit = true;
      else if (c <= 0x7a) lower = true;
      else other = true;
      i++;
    }
    const len = i - s;
    if (len === 1) { if (++singles === 3) singleLetterRuns++; } else singles = 0;
    const ay = len >= 4 && text.charCodeAt(i - 1) === 0x79 && text.charCodeAt(i - 2) === 0x61;
    if (ay) ayWords++;
    let id = -1;
    if (len <= MAX_TOKEN_LENGTH) {
      id = resolveWord(m, units, len, h, digit && lower);
      if (id === ROT13_ID) rot13Evidence++;
      else if (id === REVERSED_ID) reversedEvidence++;
      else if (id === LEET_ID) leetEvidence++;
      if (id <= ROT13_ID && evidenceAt.length < 4096) evidenceAt.push([s, -id as 2 | 3 | 4]);
      if (len === 1 && singles === 3 && evidenceAt.length < 4096) evidenceAt.push([s, 5]);
      if (ay && evidenceAt.length < 4096) evidenceAt.push([s, 6]);
    }
    if (id < 0 && segmentable(len, lower && !digit && !other)) {
      const word = text.slice(s, i);
      const pieces = segmentation(m, word);
      if (pieces !== null) {
        for (const [off, plen] of pieces) push(s + off, s + off + plen, m.vocab.get(word.slice(off, off + plen)) ?? -1);
        continue;
      }
    }
    push(s, i, id < 0 ? -1 : id);
  }
  return { count, starts, ends, ids, rot13Evidence, reversedEvidence, leetEvidence, evidenceAt, singleLetterRuns, ayWords };
}

/**
 * Where phrase `p` matched from its slot `slot - 1` at token `at` ends: the last token of the
 * first way (in token order) its remaining slots are filled within their gaps, or -1.
 */
export function matchFrom(p: CompiledPhrase, slot: number, at: number, ids: Int32Array, count: number): number {
  if (slot === p.slots.length) return at;
  const table = p.slots[slot];
  const gap = p.gaps[slot - 1] ?? 0;
  if (table === undefined) return -1;
  const last = Math.min(count - 1, at + 1 + gap);
  for (let j = at + 1; j <= last; j++) {
    const id = ids[j] ?? -1;
    if (id >= 0 && table[id] === 1) {
      const end = matchFrom(p, slot + 1, j, ids, count);
      if (end >= 0) return end;
    }
  }
  return -1;
}

/** The hit of phrase `p` over tokens [t, last]. */
export function phraseHit(p: CompiledPhrase, tokens: Tokens, t: number, last: number): PhraseHit {
  return { rule: { id: p.id, family: p.family, strong: p.strong, source: p.source }, startChar: tokens.starts[t] ?? 0, endChar: tokens.ends[last] ?? 0 };
}

/**
 * Find every phrase that matches, starting at each token. Bounded search per start token.
 * Hits come in token order, then rule order; at most `limit`.
 * @example findPhrases(matcher, tokenize(matcher, 'ignore all previous instructions'))
 */
export function findPhrases(m: PhraseMatcher, tokens: Tokens, limit = 256): PhraseHit[] {
  const hits: PhraseHit[] = [];
  const { count, ids } = tokens;
  for (let t = 0; t < count; t++) {
    const id = ids[t] ?? -1;
    if (id < 0) continue;
    // A rule is listed once under each of its first words, so (rule, start) never repeats.
    for (const p of m.byFirstWord[id] ?? []) {
      const last = matchFrom(p, 1, t, ids, count);
      if (last < 0) continue;
      hits.push(phraseHit(p, tokens, t, last));
      if (hits.length >= limit) return hits;
    }
  }
  return hits;
}

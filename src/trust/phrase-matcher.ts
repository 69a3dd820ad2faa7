/**
 * Word-sequence matching for the instruction detector: linear time, no regular expressions.
 *
 * Text is split into word tokens once; each token gets a vocabulary id (exact form, then a
 * plural/-ing/-ed fallback, then a distance-1 typo lookup for long words via precomputed
 * deletion variants, then — for long unknown tokens — a segmentation into vocabulary words, so
 * `ignoreAllPreviousInstructions` or a de-spaced `i g n o r e a l l` reads as words). A phrase
 * is a short list of slots (word sets) with a bounded number of skipped words between
 * consecutive slots. Only phrases whose first slot contains the current token are tried, and
 * the search below a start token is bounded by slots × gap, so the whole scan is O(tokens) with
 * a small constant whatever the input.
 *
 * Unknown tokens that are a ROT13 or reversed spelling of a long keyword are counted as
 * evidence, so the detector tries those decodings only when the text shows signs of them.
 */
import { normalizeText } from './normalize-text.js';

/** One phrase rule, compiled from its source form (see {@link compilePhrases}). */
export interface PhraseRule {
  readonly id: string;
  readonly family: string;
  readonly strong: boolean;
  readonly source: string;
}

interface CompiledPhrase extends PhraseRule {
  /** Per slot: membership table over vocabulary ids. */
  readonly slots: readonly Uint8Array[];
  /** Per slot after the first: how many tokens may be skipped before it. */
  readonly gaps: readonly number[];
}

/** A compiled rule set: vocabulary, typo index, and phrases indexed by their first slot. */
export interface PhraseMatcher {
  readonly vocab: ReadonlyMap<string, number>;
  readonly typoIndex: ReadonlyMap<string, number>;
  readonly byFirstWord: readonly (readonly CompiledPhrase[])[];
  /** ROT13 (-2) and reversed (-3) spellings of long keywords. */
  readonly disguised: ReadonlyMap<string, number>;
  /** Words a long token may be segmented into: the vocabulary plus common short words. */
  readonly segmentWords: ReadonlySet<string>;
  readonly maxWordLength: number;
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

const MIN_TYPO_LENGTH = 7;
const MAX_TYPO_LENGTH = 24;
const MIN_SEGMENT_LENGTH = 9;
const MAX_SEGMENT_LENGTH = 160;
const MAX_TOKEN_LENGTH = 40;
const ROT13_ID = -2;
const LEET_DIGITS: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g', '6': 'g', '2': 'z' };
const LEET_ID = -4;
const REVERSED_ID = -3;
// Short function words that glue keywords together in a de-spaced run ("ignoreallthe…").
const GLUE = [
  'a', 'an', 'the', 'to', 'of', 'and', 'or', 'in', 'on', 'at', 'is', 'it', 'me', 'my', 'we', 'us', 'be', 'by', 'as',
  'for', 'with', 'from', 'that', 'this', 'what', 'then', 'than', 'instead', 'please', 'now', 'say', 'said', 'them',
  'you', 'your', 'are', 'were', 'was', 'been', 'have', 'has', 'had', 'not', 'no', 'do', 'does', 'did', 'just', 'only',
  'so', 'if', 'but', 'here', 'there', 'these', 'those', 'which', 'who', 'will', 'can', 'must', 'should', 'tell',
];

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
  const byFirstWord: CompiledPhrase[][] = Array.from({ length: size }, () => []);
  for (const { rule, slots, gaps } of parsed) {
    const tables = slots.map((ids) => {
      const t = new Uint8Array(size);
      for (const id of ids) t[id] = 1;
      return t;
    });
    const compiled: CompiledPhrase = { ...rule, slots: tables, gaps };
    for (const id of new Set(slots[0] ?? [])) byFirstWord[id]?.push(compiled);
  }
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
  return { vocab, typoIndex, byFirstWord, disguised, segmentWords, maxWordLength };
}

/** Letters and digits of alphabetic scripts; emoji, symbols, CJK and surrogates separate words. */
function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) ||
    (c >= 0x370 && c <= 0x6ff) || (c >= 0x900 && c <= 0xdff);
}

function isLowerAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}

function lookup(m: PhraseMatcher, word: string, cache: Map<string, number>): number {
  const exact = m.vocab.get(word);
  if (exact !== undefined) return exact;
  const cached = cache.get(word);
  if (cached !== undefined) return cached;
  let id = -1;
  // Inflections the rule lists do not spell out.
  for (const suffix of ['s', 'es', 'ing', 'ed', 'd']) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) {
      const base = m.vocab.get(word.slice(0, -suffix.length));
      if (base !== undefined) { id = base; break; }
    }
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
  if (id === -1 && word.length >= 4 && word.length <= 24 && /[0-9]/.test(word) && /[a-z]/.test(word)) {
    for (const one of ['i', 'l']) {
      const folded = word.replace(/[0-9]/g, (d) => (d === '1' ? one : LEET_DIGITS[d] ?? d));
      if (m.vocab.has(folded)) { id = LEET_ID; break; }
    }
  }
  if (cache.size < 100_000) cache.set(word, id);
  return id;
}

/**
 * Split a long run of letters into vocabulary words, allowing few uncovered letters. Returns
 * [offset, length] pairs, or null when the run does not read as words.
 */
function segment(m: PhraseMatcher, word: string): [number, number][] | null {
  const n = word.length;
  // cost[i]: fewest uncovered letters in word[0, i); from[i]: where the last piece started (-1 = skip one).
  const cost = new Int32Array(n + 1).fill(1 << 30);
  const from = new Int32Array(n + 1);
  cost[0] = 0;
  for (let i = 0; i < n; i++) {
    const c = cost[i] ?? 0;
    if (c + 1 < (cost[i + 1] ?? 0)) { cost[i + 1] = c + 1; from[i + 1] = -1; }
    const max = Math.min(m.maxWordLength, n - i);
    for (let len = 2; len <= max; len++) {
      if (c < (cost[i + len] ?? 0) && m.segmentWords.has(word.slice(i, i + len))) { cost[i + len] = c; from[i + len] = i; }
    }
  }
  if ((cost[n] ?? n) * 5 > n) return null;
  const pieces: [number, number][] = [];
  let i = n;
  while (i > 0) {
    const f = from[i] ?? -1;
    if (f === -1) { i--; continue; }
    pieces.push([f, i - f]);
    i = f;
  }
  pieces.reverse();
  return pieces.filter(([, len]) => len >= 3).length >= 2 ? pieces : null;
}

// Per matcher: vocabulary ids and segmentations of words already looked up (bounded; reset when full).
const wordCache = new WeakMap<PhraseMatcher, Map<string, number>>();
const segmentCache = new WeakMap<PhraseMatcher, Map<string, [number, number][] | null>>();

/**
 * Split normalized text into word tokens and resolve their vocabulary ids.
 * @example tokenize(matcher, "ignore all previous").count // 3
 */
export function tokenize(m: PhraseMatcher, text: string): Tokens {
  let cap = Math.ceil(text.length / 2) + 16;
  let starts = new Uint32Array(cap);
  let ends = new Uint32Array(cap);
  let ids = new Int32Array(cap);
  let cache = wordCache.get(m);
  if (cache === undefined || cache.size > 200_000) {
    cache = new Map<string, number>();
    wordCache.set(m, cache);
  }
  let segments = segmentCache.get(m);
  if (segments === undefined || segments.size > 20_000) {
    segments = new Map();
    segmentCache.set(m, segments);
  }
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
    if (!isWordChar(text.charCodeAt(i))) { i++; continue; }
    const s = i;
    // Apostrophes split words ("don't" → don, t), so rules allow one skipped word there.
    while (i < n && isWordChar(text.charCodeAt(i))) i++;
    const len = i - s;
    if (len === 1) { if (++singles === 3) singleLetterRuns++; } else singles = 0;
    if (len >= 4 && text.charCodeAt(i - 1) === 0x79 && text.charCodeAt(i - 2) === 0x61) ayWords++;
    let id = -1;
    if (len <= MAX_TOKEN_LENGTH) {
      id = lookup(m, text.slice(s, i), cache);
      if (id === ROT13_ID) rot13Evidence++;
      else if (id === REVERSED_ID) reversedEvidence++;
      else if (id === LEET_ID) leetEvidence++;
      if (id <= ROT13_ID && evidenceAt.length < 4096) evidenceAt.push([s, -id as 2 | 3 | 4]);
      if (len === 1 && singles === 3 && evidenceAt.length < 4096) evidenceAt.push([s, 5]);
      if (len >= 4 && text.charCodeAt(i - 1) === 0x79 && text.charCodeAt(i - 2) === 0x61 && evidenceAt.length < 4096) evidenceAt.push([s, 6]);
    }
    if (id < 0 && len >= MIN_SEGMENT_LENGTH && len <= MAX_SEGMENT_LENGTH) {
      const word = text.slice(s, i);
      let pieces = segments.get(word);
      if (pieces === undefined) {
        pieces = isLowerAscii(word) ? segment(m, word) : null;
        segments.set(word, pieces);
      }
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
 * Find every phrase that matches, starting at each token. Bounded search per start token.
 * @example findPhrases(matcher, tokenize(matcher, 'ignore all previous instructions'))
 */
export function findPhrases(m: PhraseMatcher, tokens: Tokens, limit = 256): PhraseHit[] {
  const hits: PhraseHit[] = [];
  const seen = new Set<string>();
  const { count, ids, starts, ends } = tokens;
  const match = (p: CompiledPhrase, slot: number, at: number): number => {
    if (slot === p.slots.length) return at;
    const table = p.slots[slot];
    const gap = p.gaps[slot - 1] ?? 0;
    if (table === undefined) return -1;
    const last = Math.min(count - 1, at + 1 + gap);
    for (let j = at + 1; j <= last; j++) {
      const id = ids[j] ?? -1;
      if (id >= 0 && table[id] === 1) {
        const end = match(p, slot + 1, j);
        if (end >= 0) return end;
      }
    }
    return -1;
  };
  for (let t = 0; t < count; t++) {
    const id = ids[t] ?? -1;
    if (id < 0) continue;
    const candidates = m.byFirstWord[id];
    if (candidates === undefined || candidates.length === 0) continue;
    for (const p of candidates) {
      const last = match(p, 1, t);
      if (last < 0) continue;
      // One hit per rule and start keeps output bounded on repetitive input.
      const key = `${p.id}:${t}`;
      if (seen.has(key)) continue;
      seen.add(key);
      hits.push({ rule: { id: p.id, family: p.family, strong: p.strong, source: p.source }, startChar: starts[t] ?? 0, endChar: ends[last] ?? 0 });
      if (hits.length >= limit) return hits;
    }
  }
  return hits;
}

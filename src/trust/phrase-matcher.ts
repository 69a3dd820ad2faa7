/**
 * Word-sequence matching for the instruction detector: linear time, no regular expressions.
 *
 * Text is split into word tokens once; each token gets a vocabulary id (exact form, then a
 * plural/-ing/-ed fallback, then a distance-1 typo lookup for long words via precomputed
 * deletion variants). A phrase is a short list of slots (word sets) with a bounded number of
 * skipped words between consecutive slots. Only phrases whose first slot contains the current
 * token are tried, and the search below a start token is bounded by slots × gap, so the whole
 * scan is O(tokens) with a small constant whatever the input.
 */

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
}

/** A phrase found in token terms: [first token, last token]. */
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
}

const MIN_TYPO_LENGTH = 7;
const MAX_TYPO_LENGTH = 24;

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/**
 * Compile phrase sources. Source syntax: slots separated by spaces; a slot is `a|b|c` (words)
 * or `@group` (a named word list); `~N` before a slot allows N skipped words before it.
 * @example compilePhrases({ ignore: ['ignore', 'disregard'] }, [{ id: 'x', family: 'override', strong: true, source: '@ignore ~3 instructions' }])
 */
export function compilePhrases(groups: Readonly<Record<string, readonly string[]>>, rules: readonly PhraseRule[]): PhraseMatcher {
  const vocab = new Map<string, number>();
  const idOf = (w: string): number => {
    let id = vocab.get(w);
    if (id === undefined) { id = vocab.size; vocab.set(w, id); }
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
  for (const [word, id] of vocab) {
    if (word.length < MIN_TYPO_LENGTH) continue;
    for (const d of deletions(word)) if (!typoIndex.has(d)) typoIndex.set(d, id);
  }
  return { vocab, typoIndex, byFirstWord };
}

/** Letters and digits of alphabetic scripts; emoji, symbols and surrogates separate words. */
function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) ||
    (c >= 0x370 && c <= 0x6ff) || (c >= 0x900 && c <= 0xdff);
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
  if (cache.size < 100_000) cache.set(word, id);
  return id;
}

// Vocabulary ids of words already looked up, per matcher (bounded; reset when full).
const wordCache = new WeakMap<PhraseMatcher, Map<string, number>>();

/**
 * Split normalized text into word tokens and resolve their vocabulary ids.
 * @example tokenize(matcher, "ignore all previous").count // 3
 */
export function tokenize(m: PhraseMatcher, text: string): Tokens {
  const cap = Math.ceil(text.length / 2) + 1;
  const starts = new Uint32Array(cap);
  const ends = new Uint32Array(cap);
  const ids = new Int32Array(cap);
  let cache = wordCache.get(m);
  if (cache === undefined || cache.size > 200_000) {
    cache = new Map<string, number>();
    wordCache.set(m, cache);
  }
  let count = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (!isWordChar(text.charCodeAt(i))) { i++; continue; }
    const s = i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (isWordChar(c)) { i++; continue; }
      // Apostrophes split words ("don't" → don, t), so rules allow one skipped word there.
      break;
    }
    starts[count] = s;
    ends[count] = i;
    ids[count] = i - s > 40 ? -1 : lookup(m, text.slice(s, i), cache);
    count++;
  }
  return { count, starts, ends, ids };
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

/**
 * Tables of the detector's fast path (trigger-scan), compiled once from the detector's own
 * rules so they cannot drift from them: per vocabulary word, the phrase slots it fills and the
 * phrases it can end, with each phrase's other slots and the most tokens a match can span; the
 * marker scan's trigger words.
 */
import { PHRASE_GROUPS, PHRASE_RULES } from './phrase-rule-set.js';
import { markerWords } from './marker-scan.js';
import { compilePhrases, type PhraseMatcher } from './phrase-matcher.js';
import { probeWords, type ProbeWords } from './trigger-probes.js';
import { buildWordTable, type WordTable } from './word-index.js';

/** Compiled tables; lists are stored as offsets into flat arrays (CSR). */
export interface TriggerTables {
  readonly matcher: PhraseMatcher;
  readonly slotCount: number;
  /**
   * What reading vocabulary id v does, as one run of `touchPlan` from `touchStart[v]`: the count
   * of slots v fills and those slots (none for a common word, see `commonOf`); then the count of
   * phrases v can end and, per phrase, its index, the most tokens a match spans, the length of
   * the rest of its record, and per other slot: the slot, the count of its common words and
   * their common-word numbers (one sequential read: this runs for every rule word of every text).
   * Slots without common words come first: in ordinary text they are the ones left unfilled.
   */
  readonly touchStart: Int32Array;
  readonly touchPlan: Int32Array;
  /**
   * Per vocabulary id, its number among the common words, or -1. A common word ("the", "is")
   * fills many slots and is read everywhere: it records when it was last read, once, and the
   * slots holding it ask it, instead of it writing to each of them (32 slots for "the").
   */
  readonly commonOf: Int32Array;
  readonly commonCount: number;
  /** The largest phrase span. */
  readonly maxSpan: number;
  readonly tagWords: ProbeWords;
  readonly hashWords: WordTable;
  readonly labelEnds: WordTable;
  readonly jsonKeys: ProbeWords;
}

// The commonest English function words: which words are read-side is a choice of cost only
// (a phrase candidate is the same either way), made without looking at any corpus.
const COMMON_WORDS = [
  'the', 'a', 'an', 'to', 'of', 'and', 'or', 'in', 'on', 'at', 'is', 'it', 'be', 'by', 'as', 'for', 'with', 'from',
  'that', 'this', 'you', 'your', 'are', 'was', 'were', 'have', 'has', 'had', 'not', 'will', 'can', 'if', 'but', 'we',
  'i', 'me', 'my', 'do', 'so', 'no', 'all', 'they', 'he', 'she', 'his', 'her', 'our', 'their', 'its', 'what', 'which',
];

function csr(lists: readonly (readonly number[])[]): [Int32Array, Int32Array] {
  const start = new Int32Array(lists.length + 1);
  for (const [i, l] of lists.entries()) start[i + 1] = (start[i] ?? 0) + l.length;
  const flat = new Int32Array(start[lists.length] ?? 0);
  for (const [i, l] of lists.entries()) flat.set(l, start[i] ?? 0);
  return [start, flat];
}

function build(): TriggerTables {
  const matcher = compilePhrases(PHRASE_GROUPS, PHRASE_RULES);
  const size = matcher.vocab.size;
  const slotKeys = new Map<string, number>();
  const slotMembers: number[][] = [];
  const phraseSlots: number[][] = [];
  const spans: number[] = [];
  const ends: number[][] = Array.from({ length: size }, () => []);
  for (const [p, phrase] of matcher.phrases.entries()) {
    const slots = phrase.slots.map((table) => {
      const members: number[] = [];
      for (let id = 0; id < size; id++) if (table[id] === 1) members.push(id);
      const key = members.join(',');
      let index = slotKeys.get(key);
      if (index === undefined) {
        index = slotMembers.length;
        slotKeys.set(key, index);
        slotMembers.push(members);
      }
      return index;
    });
    phraseSlots.push(slots);
    spans.push(phrase.gaps.reduce((a, g) => a + g + 1, 0));
    for (const id of slotMembers[slots[slots.length - 1] ?? 0] ?? []) ends[id]?.push(p);
  }
  const commonOf = new Int32Array(size).fill(-1);
  let commonCount = 0;
  for (const w of COMMON_WORDS) {
    const id = matcher.vocab.get(w);
    if (id !== undefined && (commonOf[id] ?? -1) < 0) commonOf[id] = commonCount++;
  }
  const isCommon = (id: number): boolean => (commonOf[id] ?? -1) >= 0;
  const ofWord: number[][] = Array.from({ length: size }, () => []);
  for (const [s, members] of slotMembers.entries()) for (const id of members) if (!isCommon(id)) ofWord[id]?.push(s);
  const commonIn = slotMembers.map((members) => members.filter(isCommon).map((id) => commonOf[id] ?? 0));
  const plans = ofWord.map((slots, id) => {
    const plan = [slots.length, ...slots, ends[id]?.length ?? 0];
    for (const p of ends[id] ?? []) {
      const own = phraseSlots[p] ?? [];
      // The last slot holds v, so reading v has just filled it (and every repeat of it).
      const others = own.filter((s) => s !== own[own.length - 1]);
      others.sort((a, b) => (commonIn[a]?.length ?? 0) - (commonIn[b]?.length ?? 0));
      const record = others.flatMap((s) => [s, commonIn[s]?.length ?? 0, ...(commonIn[s] ?? [])]);
      plan.push(p, spans[p] ?? 0, record.length, ...record);
    }
    return plan;
  });
  const [touchStart, touchPlan] = csr(plans);
  const words = markerWords();
  const table = (list: readonly string[]): WordTable => buildWordTable(list.map((w) => [w, 1] as const));
  return {
    matcher,
    slotCount: slotMembers.length,
    touchStart,
    touchPlan,
    commonOf,
    commonCount,
    maxSpan: Math.max(0, ...spans),
    tagWords: probeWords(words.tags),
    hashWords: table(words.hashHeaders),
    labelEnds: table(words.labelEnds),
    jsonKeys: probeWords(words.jsonKeys),
  };
}

let tables: TriggerTables | undefined;

/**
 * The compiled tables (built on first use). The detector's phrase matcher is the one here.
 * @example triggerTables().matcher.vocab.has('ignore') // true
 */
export function triggerTables(): TriggerTables {
  tables ??= build();
  return tables;
}

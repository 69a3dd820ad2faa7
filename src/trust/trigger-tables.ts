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
   * of slots v fills and those slots; then the count of phrases v can end and, per phrase, the
   * most tokens a match spans, the count of its other slots and those slots (one sequential
   * read: this runs for every rule word of every text).
   */
  readonly touchStart: Int32Array;
  readonly touchPlan: Int32Array;
  /** The largest phrase span. */
  readonly maxSpan: number;
  readonly tagWords: ProbeWords;
  readonly hashWords: WordTable;
  readonly labelEnds: WordTable;
  readonly jsonKeys: ProbeWords;
}

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
  const ofWord: number[][] = Array.from({ length: size }, () => []);
  for (const [s, members] of slotMembers.entries()) for (const id of members) ofWord[id]?.push(s);
  const plans = ofWord.map((slots, id) => {
    const plan = [slots.length, ...slots, ends[id]?.length ?? 0];
    for (const p of ends[id] ?? []) {
      const own = phraseSlots[p] ?? [];
      // The last slot holds v, so reading v has just filled it (and every repeat of it).
      const others = own.filter((s) => s !== own[own.length - 1]);
      plan.push(spans[p] ?? 0, others.length, ...others);
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

/**
 * What the detector's fast path (trigger-scan) does when a word ends: its vocabulary id (a
 * table read for short words; the forms table, then a memo of typo and segmentation readings
 * for long ones), its token and decoding evidence, and the phrase slots it fills. A rule is a
 * candidate when its last slot is filled and every other slot was filled within the rule's
 * span (see trigger-tables); each candidate is recorded with the token it ends at, so the
 * phrase scan reads only there (phrase-candidates).
 */
import { pushCandidate, pushEvidence, pushToken, tokensUnusable } from './fast-tokens.js';
import { segmentable } from './phrase-matcher.js';
import * as raw from './raw-classes.js';
import { pieceTriples, segmentUnits } from './segment-automaton.js';
import * as bits from './trigger-bits.js';
import { triggerTables, type TriggerTables } from './trigger-tables.js';
import { NOT_MEMOIZED, WordMemo } from './word-memo.js';
import { LEET_ID, MAX_SHORT_WORD, readingId, REVERSED_ID, ROT13_ID, shortWordIndex } from './word-lookup.js';

// Local copies: imported bindings read once a word cost more than module constants.
const { R_DIGIT, R_LETTER } = raw;
const { TRIGGER } = bits;

/** Units of a word kept (a longer one is hashed and looked up by its first ones). */
export const MAX_WORD = 160;
/** A word unit outside ASCII, beside the R_ classes of ASCII ones in a word's flags. */
export const F_OTHER = 256;
/** The word being read, folded; the pass writes it, {@link endWord} reads it. */
export const units = new Uint16Array(MAX_WORD);

const MAX_LOOKUP = 40;
// Words of letters this long or longer, outside the forms table, go through the memo.
const MEMO_MIN = 6;
const memo = new WordMemo(16);

let tables: TriggerTables;
let lastSeen = new Float64Array(0); // per phrase slot: the word number that last filled it
let commonSeen = new Float64Array(0); // per common word: the word number that last read it
let word = 0; // word number; only grows, so slots filled by earlier calls are out of every span
let ay1 = 0;
let ay2 = 0;

/** Start the words of a new text; returns the tables. */
export function startWords(): TriggerTables {
  tables = triggerTables();
  if (lastSeen.length !== tables.slotCount) lastSeen = new Float64Array(tables.slotCount).fill(-Infinity);
  if (commonSeen.length !== tables.commonCount) commonSeen = new Float64Array(tables.commonCount).fill(-Infinity);
  word += tables.maxSpan + 2;
  ay1 = -Infinity;
  ay2 = -Infinity;
  return tables;
}

/**
 * Mark the slots word id `id` fills; the phrase bit when one of the phrases it ends is complete,
 * each of which is recorded as a candidate ending at the token recorded last.
 */
function touch(id: number): number {
  const t = tables;
  const plan = t.touchPlan;
  const seen = lastSeen;
  const common = commonSeen;
  const now = word;
  const ci = t.commonOf[id] ?? -1;
  if (ci >= 0) common[ci] = now;
  let k = t.touchStart[id] ?? 0;
  for (let e = k + 1 + (plan[k] ?? 0), j = k + 1; j < e; j++) seen[plan[j] ?? 0] = now;
  k += 1 + (plan[k] ?? 0);
  let bit = 0;
  for (let p = 0, ends = plan[k++] ?? 0; p < ends; p++) {
    // A record: phrase, span, length, then per other slot: slot, count of common words, their numbers.
    const from = now - (plan[k + 1] ?? 0);
    const e = k + 3 + (plan[k + 2] ?? 0);
    let j = k + 3;
    while (j < e) {
      const commons = plan[j + 1] ?? 0;
      if ((seen[plan[j] ?? 0] ?? -Infinity) < from) {
        let g = j + 2;
        while (g < j + 2 + commons && (common[plan[g] ?? 0] ?? -Infinity) < from) g++;
        if (g === j + 2 + commons) break;
      }
      j += 2 + commons;
    }
    if (j === e) {
      bit = TRIGGER.phrase;
      pushCandidate(plan[k] ?? 0);
    }
    k = e;
  }
  return bit;
}

/**
 * A word of `len` units (in `units`, hash `hash`) at raw [start, end) ended; `flags`: R_DIGIT,
 * R_LETTER (ASCII), F_OTHER. Records its token(s) and returns the bits it sets.
 */
export function endWord(len: number, hash: number, flags: number, start: number, end: number): number {
  word++;
  if (len <= MAX_SHORT_WORD && flags === R_LETTER) {
    // A word of three letters or fewer (a third of all words): one table read gives its id, and
    // it has no -ay ending, disguised spelling or pieces.
    const id = tables.matcher.shortIds[shortWordIndex(units, len)] ?? -1;
    pushEvidence(start, len, id, false);
    pushToken(start, end, id);
    return id >= 0 ? touch(id) : 0;
  }
  let bits = 0;
  const ay = len >= 4 && len <= MAX_WORD && units[len - 1] === 0x79 && units[len - 2] === 0x61;
  if (ay) {
    if (word - ay2 <= 22) bits |= TRIGGER.pigLatin;
    ay2 = ay1;
    ay1 = word;
  }
  const m = tables.matcher;
  let id = len <= MAX_LOOKUP ? m.forms.get(units, len, hash, NOT_MEMOIZED) : -1;
  // Pieces of a joined run: -1 not asked yet, 0 none, 1 some.
  let pieces = -1;
  if (id === NOT_MEMOIZED) {
    if (flags === R_LETTER && len >= MEMO_MIN && len <= MAX_WORD) {
      // A long word of letters outside the forms table: its typo reading and whether it
      // segments come from the memo when it was read before.
      const known = memo.get(units, len, hash);
      if (known === NOT_MEMOIZED) {
        id = len <= MAX_LOOKUP ? readingId(m, units, len, hash, false) : -1;
        pieces = id < 0 && segmentable(len, true) && segmentUnits(m.segmenter, units, len) > 0 ? 1 : 0;
        memo.set(units, len, hash, (id + 8) * 2 + pieces);
      } else {
        id = (known >> 1) - 8;
        pieces = known & 1;
      }
    } else id = readingId(m, units, len, hash, (flags & (R_DIGIT | R_LETTER)) === (R_DIGIT | R_LETTER));
  }
  if (id === ROT13_ID) bits |= TRIGGER.rot13;
  else if (id === REVERSED_ID) bits |= TRIGGER.reversed;
  else if (id === LEET_ID) bits |= TRIGGER.leet;
  pushEvidence(start, len, id, ay);
  if (id >= 0) {
    pushToken(start, end, id);
    return bits | touch(id);
  }
  if (pieces !== 0 && segmentable(len, flags === R_LETTER)) {
    const count = segmentUnits(m.segmenter, units, len);
    if (count > 0) {
      // Piece offsets are offsets in the word's units: raw ones only when each unit is one character.
      if (end - start !== len) tokensUnusable();
      const p = pieceTriples.data;
      for (let k = 0; k < 3 * count; k += 3) {
        const off = p[k] ?? 0;
        const pid = p[k + 2] ?? -1;
        pushToken(start + off, start + off + (p[k + 1] ?? 0), pid);
        if (pid >= 0) bits |= touch(pid);
      }
      return bits;
    }
  }
  pushToken(start, end, -1);
  return bits;
}


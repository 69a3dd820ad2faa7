/**
 * The word tokens the detector's fast path (trigger-scan) reads on its way, kept so the phrase
 * scan need not normalize and tokenize the text again: the same tokens the tokenizer gives on
 * normalized text (phrase-matcher), with offsets in the text as written. Shared buffers: valid
 * until the next fast-path pass.
 */
import type { Tokens } from './phrase-matcher.js';

const MAX_EVIDENCE = 4096;

let cap = 1024;
let starts = new Uint32Array(cap);
let ends = new Uint32Array(cap);
let ids = new Int32Array(cap);
let count = 0;
let evidence: [number, 2 | 3 | 4 | 5 | 6][] = [];
let usable = true;
let singles = 0;
// Where chunks that decode (or open a spread run that does) start; null once too many to keep.
const MAX_ENCODED = 1 << 16;
let encodedAt: number[] | null = [];
// Phrase candidates as (phrase index, token where its last slot was filled) pairs; -1 once too
// many to keep (the phrase scan then reads every token).
const MAX_CANDIDATES = 1024;
const candidates = new Int32Array(2 * MAX_CANDIDATES);
let candidateCount = 0;

/** Start recording a new text. */
export function resetTokens(): void {
  count = 0;
  evidence = [];
  usable = true;
  singles = 0;
  encodedAt = [];
  candidateCount = 0;
}

/** Record that phrase `phrase` may end at the token recorded last (its slots were all filled within its span). */
export function pushCandidate(phrase: number): void {
  if (candidateCount < 0) return;
  if (candidateCount >= MAX_CANDIDATES) { candidateCount = -1; return; }
  candidates[2 * candidateCount] = phrase;
  candidates[2 * candidateCount + 1] = count - 1;
  candidateCount++;
}

/** Record that the encoded run the decoder would read at raw offset `at` decodes. */
export function pushEncodedAt(at: number): void {
  if (encodedAt === null) return;
  if (encodedAt.length >= MAX_ENCODED) encodedAt = null;
  else encodedAt.push(at);
}

/**
 * Start offsets of the encoded chunks of the last pass, ascending and copied, or null when the
 * pass did not keep them all (the decoder must then read the whole text).
 */
export function recordedEncodedAt(): number[] | null {
  return encodedAt === null ? null : [...encodedAt].sort((a, b) => a - b);
}

/** The recorded tokens cannot stand for the tokenizer's (the pass gave up on precision). */
export function tokensUnusable(): void {
  usable = false;
}

/** Record one token [start, end) (raw offsets) with its vocabulary id (-1 unknown). */
export function pushToken(start: number, end: number, id: number): void {
  if (count >= cap) {
    cap *= 2;
    const s = new Uint32Array(cap); s.set(starts); starts = s;
    const e = new Uint32Array(cap); e.set(ends); ends = e;
    const i = new Int32Array(cap); i.set(ids); ids = i;
  }
  starts[count] = start;
  ends[count] = end;
  ids[count] = id;
  count++;
}

/**
 * Evidence of a run of `len` units at raw offset `start`, as the tokenizer counts it: ROT13,
 * reversed or leet spellings (`special` = the id), a third one-letter token in a row, an -ay word.
 */
export function pushEvidence(start: number, len: number, special: number, ay: boolean): void {
  if (len === 1) singles++;
  else singles = 0;
  if (len > 40) return;
  if (special <= -2 && special >= -4 && evidence.length < MAX_EVIDENCE) evidence.push([start, -special as 2 | 3 | 4]);
  if (len === 1 && singles === 3 && evidence.length < MAX_EVIDENCE) evidence.push([start, 5]);
  if (ay && evidence.length < MAX_EVIDENCE) evidence.push([start, 6]);
}

/** The tokens of one pass, their evidence, and its phrase candidates (null: not all were kept). */
export interface RecordedTokens {
  readonly tokens: Tokens;
  readonly evidenceAt: readonly (readonly [number, 2 | 3 | 4 | 5 | 6])[];
  /** (phrase index, last token) pairs, in the order the pass found them. */
  readonly candidates: Int32Array | null;
}

/**
 * The tokens of the last pass, in offsets of its text, or null when they cannot stand for the
 * tokenizer's. The token arrays are views of this module's buffers, valid until the next pass:
 * copy what must outlive it.
 */
export function recordedTokens(): RecordedTokens | null {
  if (!usable) return null;
  const tokens: Tokens = {
    count,
    starts: starts.subarray(0, count),
    ends: ends.subarray(0, count),
    ids: ids.subarray(0, count),
    rot13Evidence: 0,
    reversedEvidence: 0,
    leetEvidence: 0,
    singleLetterRuns: 0,
    ayWords: 0,
    evidenceAt: evidence,
  };
  return { tokens, evidenceAt: evidence, candidates: candidateCount < 0 ? null : candidates.slice(0, 2 * candidateCount) };
}

/**
 * The answer-citation checker (E3, D1): split an answer into claims, read their citation
 * markers, and judge each claim against the evidence it cites.
 */
import { TrcError, resolvePointer, type Envelope, type Evidence } from '../contract/index.js';
import { nowMs, parseIsoWallTime, zoneOffset } from './datetime.js';
import { citedIds } from './citations.js';
import { formatDuration, staleness, type FreshnessPolicy } from './freshness.js';
import { assertsOutcome, callName, claimsTotal, overreachReasons } from './overreach.js';
import { splitSentences, type Sentence } from './sentences.js';
import { extractTextValues, type TextValue } from './text-values.js';
import { textValueAgrees } from './value-match.js';
import { addToPool, emptyPool, type ValuePool } from './value-pool.js';

/** Verdicts, strongest first: a claim gets the first that applies. */
export const VERDICTS = ['unknown_id', 'uncited', 'overreach', 'unsupported', 'stale', 'supported'] as const;
/** The verdict on one claim. */
export type Verdict = (typeof VERDICTS)[number];

/** One value stated in a claim and whether the cited evidence supports it. */
export interface CheckedValue {
  readonly kind: TextValue['kind'];
  readonly raw: string;
  readonly supported: boolean;
}

/** The checker's report on one claim. */
export interface ClaimCheck {
  readonly index: number;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly cited: readonly string[];
  readonly unknownIds: readonly string[];
  readonly values: readonly CheckedValue[];
  readonly verdict: Verdict;
  /** Every problem found, in words (the verdict is the strongest of them). */
  readonly reasons: readonly string[];
}

/** The checker's report on a whole answer. */
export interface AnswerCheck {
  /** False when any claim has a failing verdict (see {@link CheckAnswerOptions.failOn}). */
  readonly ok: boolean;
  readonly claims: readonly ClaimCheck[];
  /** Sentences with no marker and nothing checkable in them (no value, total or outcome). */
  readonly remarks: readonly Sentence[];
  readonly counts: Readonly<Record<Verdict, number>>;
}

/** Options of {@link checkAnswer}. */
export interface CheckAnswerOptions {
  /** The moment staleness is judged at; without it (or without `freshness`) nothing is stale. */
  readonly now?: Date | string;
  /** Per-source maximum age of evidence. */
  readonly freshness?: FreshnessPolicy;
  /**
   * Zone for times the answer states without one, e.g. `UTC+8` or `北京时间` for an answer
   * written for users in China. Default: such times are read in the source value's own zone.
   */
  readonly assumeZone?: string;
  /** Verdicts that make `ok` false. Default: every verdict but `supported`. */
  readonly failOn?: readonly Verdict[];
}

interface Cited {
  readonly env: Envelope;
  readonly ev: Evidence;
  pool?: ValuePool;
}

function evidencePool(c: Cited): ValuePool {
  if (c.pool !== undefined) return c.pool;
  const pool = emptyPool();
  for (const p of c.ev.supports) {
    const r = resolvePointer(c.env, p);
    if (r.ok) addToPool(pool, r.value);
  }
  // When a fact happened or was read may be stated too ("as of …").
  for (const t of [c.ev.observed_at, c.ev.retrieved_at, c.env.provenance?.observed_at, c.env.provenance?.retrieved_at]) {
    const w = typeof t === 'string' ? parseIsoWallTime(t) : null;
    if (w !== null) pool.times.push(w);
  }
  c.pool = pool;
  return pool;
}

/** Give zone-less stated times the assumed zone. */
function withZone(values: TextValue[], offset: number | null): TextValue[] {
  if (offset === null) return values;
  return values.map((v) => (v.kind === 'datetime' && v.value.offset === null && v.value.minutes !== null ? { ...v, value: { ...v.value, offset } } : v));
}

function indexEvidence(envelopes: readonly Envelope[]): Map<string, Cited[]> {
  const index = new Map<string, Cited[]>();
  for (const env of envelopes) {
    // Callers from plain JS may pass unvalidated results: skip what is not shaped like evidence.
    if (env === null || typeof env !== 'object' || !Array.isArray(env.evidence)) continue;
    for (const ev of env.evidence) {
      if (ev === null || typeof ev !== 'object' || typeof ev.evidence_id !== 'string' || !Array.isArray(ev.supports)) continue;
      const list = index.get(ev.evidence_id) ?? [];
      list.push({ env, ev });
      index.set(ev.evidence_id, list);
    }
  }
  return index;
}

/**
 * Check every claim of `answerText` against the evidence in `envelopes`. Never throws on any
 * text; throws `TrcError('EVIDENCE_BAD_NOW')` only for an invalid `options.now`.
 * @example
 * const report = checkAnswer('订单 ord_1001 已发货，发货时间为 2026-08-31 18:20（中国标准时间）。[ev_001]', [orderEnvelope]);
 * report.claims[0].verdict // 'supported'
 */
export function checkAnswer(answerText: string, envelopes: readonly Envelope[], options: CheckAnswerOptions = {}): AnswerCheck {
  const index = indexEvidence(envelopes);
  const now = nowMs(options.now);
  const assumed = options.assumeZone === undefined ? null : zoneOffset(options.assumeZone);
  if (options.assumeZone !== undefined && assumed === null) {
    throw new TrcError('EVIDENCE_BAD_ZONE', `assumeZone is not a zone this checker knows: ${options.assumeZone}`, { data: { pointer: '/assumeZone' } });
  }
  const claims: ClaimCheck[] = [];
  const remarks: Sentence[] = [];
  for (const sentence of splitSentences(answerText)) {
    const ids = citedIds(sentence.text);
    const values = withZone(extractTextValues(sentence.text), assumed);
    if (ids.length === 0) {
      const factual = values.length > 0 || claimsTotal(sentence.text) || assertsOutcome(sentence.text);
      if (!factual || /[?？]\s*$/.test(sentence.text)) {
        remarks.push(sentence);
        continue;
      }
    }
    claims.push(judge(claims.length, sentence, ids, values, index, now, options.freshness));
  }
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const c of claims) counts[c.verdict]++;
  const failOn = new Set<Verdict>(options.failOn ?? VERDICTS.filter((v) => v !== 'supported'));
  return { ok: !claims.some((c) => failOn.has(c.verdict)), claims, remarks, counts };
}

function judge(
  i: number,
  sentence: Sentence,
  ids: readonly string[],
  values: readonly TextValue[],
  index: ReadonlyMap<string, Cited[]>,
  now: number | null,
  freshness: FreshnessPolicy | undefined,
): ClaimCheck {
  const found: Verdict[] = [];
  const reasons: string[] = [];
  const add = (verdict: Verdict, reason: string) => {
    found.push(verdict);
    reasons.push(reason);
  };
  const cited: Cited[] = [];
  const unknownIds: string[] = [];
  for (const id of ids) {
    const hits = index.get(id);
    if (hits === undefined) unknownIds.push(id);
    else cited.push(...hits);
  }
  if (ids.length === 0) add('uncited', 'states facts but cites no evidence');
  if (unknownIds.length > 0) add('unknown_id', `cites evidence that no result contains: ${unknownIds.join(', ')}`);
  const envs = [...new Set(cited.map((c) => c.env))];
  for (const r of overreachReasons(sentence.text, values, envs)) add('overreach', r);
  for (const env of envs) {
    if (env.citable === false) add('unsupported', `${callName(env)} is marked non-citable (its text and structured content disagree)`);
  }
  const checked: CheckedValue[] = values.map((v) => {
    const supported = cited.length > 0 && cited.some((c) => textValueAgrees(v, evidencePool(c)));
    return { kind: v.kind, raw: v.raw, supported };
  });
  if (cited.length > 0) {
    const bad = checked.filter((v) => !v.supported);
    if (bad.length > 0) {
      const zoneless = values.some((v) => v.kind === 'datetime' && v.value.offset === null && v.value.minutes !== null && bad.some((b) => b.raw === v.raw));
      const hint = zoneless ? " (a time without a zone is read in the source's zone)" : '';
      add('unsupported', `not backed by the cited evidence: ${bad.map((v) => `${v.kind} "${v.raw}"`).join(', ')}${hint}`);
    }
  }
  if (now !== null && freshness !== undefined) {
    for (const c of cited) {
      const s = staleness(freshness, c.ev, c.env, now);
      if (s !== null && s.stale) {
        add('stale', `evidence ${c.ev.evidence_id} was read ${formatDuration(s.ageMs)} ago; its source allows ${formatDuration(s.maxAgeMs)}`);
      }
    }
  }
  const verdict = VERDICTS.find((v) => found.includes(v)) ?? 'supported';
  return { index: i, text: sentence.text, start: sentence.start, end: sentence.end, cited: ids, unknownIds, values: checked, verdict, reasons };
}

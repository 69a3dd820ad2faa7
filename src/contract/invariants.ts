/**
 * Semantic invariants of the envelope (SPEC S12): the rules a JSON Schema cannot express.
 * Runs on envelopes that already passed the schema, so shapes can be trusted here.
 */
import { digest } from './digest.js';
import { RULES, type Finding, type RuleId, type Severity } from './findings.js';
import { escapePointerToken, pointerResolves, resolvePointer } from './pointer.js';
import type { Envelope } from './types.js';

type Report = (rule: RuleId, pointer: string, message: string, severity?: Severity) => void;

/**
 * Check every semantic invariant of a schema-valid envelope. `checkDigest: false` skips S9 for
 * callers that just computed the digest from the same data (the builders).
 */
export function checkInvariants(env: Envelope, options: { checkDigest?: boolean } = {}): Finding[] {
  const findings: Finding[] = [];
  const report: Report = (rule, pointer, message, severity = 'error') =>
    findings.push({ rule, pointer, message, severity });
  checkStatusAndData(env, report);
  checkCompleteness(env, report);
  checkProvenance(env, report);
  if (options.checkDigest !== false) checkDigest(env, report);
  checkSideEffect(env, report);
  checkEvidence(env, report);
  checkUntrustedIds(env, report);
  return findings;
}

const hasData = (data: unknown) => data !== null && data !== undefined;

function checkStatusAndData(env: Envelope, report: Report): void {
  const { status } = env;
  const error = env.error ?? null;
  if ((status === 'succeeded' || status === 'partial') && !hasData(env.data)) {
    report(RULES.S3_SUCCESS_WITHOUT_DATA, '/data', `status "${status}" requires data; got null`);
  }
  if ((status === 'succeeded' || status === 'partial') && error !== null) {
    report(RULES.S3_SUCCESS_WITH_ERROR, '/error', `status "${status}" must not carry an error`);
  }
  if (status === 'failed') {
    if (hasData(env.data)) report(RULES.S3_FAILED_WITH_DATA, '/data', 'a failed result carries no trustworthy data: data must be null');
    if (error === null) report(RULES.S3_FAILED_WITHOUT_ERROR, '/error', 'status "failed" requires an error');
  }
  if (status === 'unknown') {
    if (error === null) report(RULES.S3_UNKNOWN_WITHOUT_ERROR, '/error', 'status "unknown" requires an error saying why the outcome is unknown');
    else if (error.retryable) {
      report(RULES.W2_UNKNOWN_RETRYABLE, '/error/retryable', 'an unknown outcome must not be marked retryable: reconcile first');
    }
    if (env.side_effect.possibly_occurred === undefined) {
      report(RULES.S3_UNKNOWN_SIDE_EFFECT_UNSTATED, '/side_effect/possibly_occurred', 'status "unknown" must state side_effect.possibly_occurred');
    }
    if (env.reconciliation === undefined || env.reconciliation === null) {
      report(RULES.W2_UNKNOWN_WITHOUT_RECONCILIATION, '/reconciliation', 'status "unknown" requires a reconciliation block');
    }
  }
}

function checkCompleteness(env: Envelope, report: Report): void {
  const c = env.completeness;
  if (c === undefined) {
    if (env.status === 'succeeded' || env.status === 'partial') {
      report(RULES.S5_COMPLETENESS_MISSING, '/completeness', `status "${env.status}" requires completeness`);
    }
    return;
  }
  if (env.status === 'partial' && c.state === 'complete') {
    report(RULES.S4_PARTIAL_MARKED_COMPLETE, '/completeness/state', 'status "partial" contradicts completeness "complete"');
  }
  if (env.status === 'succeeded' && (c.state === 'truncated' || c.state === 'partial')) {
    report(RULES.S4_SUCCEEDED_BUT_INCOMPLETE, '/status', `completeness "${c.state}" means the status is "partial", not "succeeded"`);
  }
  const next = c.next ?? null;
  const returned = c.returned_items ?? null;
  const available = c.available_items ?? null;
  if (next !== null && c.state === 'complete') {
    report(RULES.S5_CURSOR_BUT_COMPLETE, '/completeness/state', 'a result with a next cursor is never complete');
  }
  if (returned !== null && available !== null) {
    if (returned < available && c.state === 'complete') {
      report(RULES.S5_FEWER_RETURNED_BUT_COMPLETE, '/completeness/state', `returned ${returned} of ${available} items, so the result is not complete`);
    }
    if (returned > available) {
      report(RULES.S5_RETURNED_EXCEEDS_AVAILABLE, '/completeness/returned_items', `returned_items ${returned} exceeds available_items ${available}`);
    }
  }
  if (available === 0 && ((returned ?? 0) > 0 || countItems(env.data) > 0)) {
    report(RULES.S5_ZERO_AVAILABLE_WITH_ITEMS, '/completeness/available_items', 'available_items is 0 but items were returned; use null when the total is unknown');
  }
}

/** Items in the data: the data itself if it is an array, else its only top-level array field. */
function countItems(data: unknown): number {
  if (Array.isArray(data)) return data.length;
  if (data === null || typeof data !== 'object') return 0;
  const arrays = Object.values(data).filter(Array.isArray);
  return arrays.length === 1 ? (arrays[0] as unknown[]).length : 0;
}

function checkProvenance(env: Envelope, report: Report): void {
  const p = env.provenance;
  if (p === undefined) {
    if (env.status === 'succeeded' || env.status === 'partial') {
      report(RULES.S6_PROVENANCE_MISSING, '/provenance', `status "${env.status}" requires provenance`);
    }
    return;
  }
  if (isLater(p.observed_at, p.retrieved_at)) {
    report(RULES.S6_OBSERVED_AFTER_RETRIEVED, '/provenance/observed_at', `observed_at ${p.observed_at} is later than retrieved_at ${p.retrieved_at}: were they swapped?`);
  }
}

function isLater(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  // The schema checked both are RFC 3339 date-times. Two UTC ones of the same length written
  // the same way compare as text (the common case: one clock wrote both) — no Date.parse.
  if (a.length === b.length && sameUtcLayout(a) && sameUtcLayout(b)) return a > b;
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isFinite(ta) && Number.isFinite(tb) && ta > tb;
}

/** `YYYY-MM-DDTHH:MM:SS[.fff]Z`: fields at fixed places, so text order is time order. */
function sameUtcLayout(t: string): boolean {
  return t.charCodeAt(t.length - 1) === 0x5a /* Z */ && t.charCodeAt(10) === 0x54 /* T */ && t.charCodeAt(4) === 0x2d && t.charCodeAt(13) === 0x3a;
}

function checkDigest(env: Envelope, report: Report): void {
  if (env.result_digest === undefined) return;
  let actual: string;
  try {
    actual = digest(env.data);
  } catch {
    report(RULES.S9_DATA_NOT_CANONICAL, '/data', 'data has no RFC 8785 canonical form, so result_digest cannot be checked');
    return;
  }
  if (actual !== env.result_digest) {
    report(RULES.S9_DIGEST_MISMATCH, '/result_digest', `result_digest does not match data (expected ${actual})`);
  }
}

function checkSideEffect(env: Envelope, report: Report): void {
  const se = env.side_effect;
  if (se.occurred && (se.external_id === undefined || se.external_id === null)) {
    report(RULES.W1_OCCURRED_WITHOUT_EXTERNAL_ID, '/side_effect/external_id', 'a side effect that occurred must name its external_id');
  }
  if (se.occurred && se.possibly_occurred === false) {
    report(RULES.W1_OCCURRED_CONTRADICTS_POSSIBLY, '/side_effect/possibly_occurred', 'occurred: true contradicts possibly_occurred: false');
  }
  const callKey = env.call.idempotency_key ?? null;
  const effectKey = se.idempotency_key ?? null;
  if (callKey !== null && effectKey !== null && callKey !== effectKey) {
    report(RULES.W1_IDEMPOTENCY_KEY_MISMATCH, '/side_effect/idempotency_key', 'side_effect.idempotency_key differs from call.idempotency_key', 'warning');
  }
}

/**
 * The one walk over the evidence: each item's times (S6, against the envelope's provenance when
 * it has none of its own), its id (E1) and every pointer it supports (E2).
 */
function checkEvidence(env: Envelope, report: Report): void {
  const evidence = env.evidence;
  if (evidence === undefined || evidence.length === 0) return;
  const envRetrieved = env.provenance?.retrieved_at;
  const seen = evidence.length > 1 ? new Map<string, number>() : undefined;
  for (let i = 0; i < evidence.length; i++) {
    const ev = evidence[i] as (typeof evidence)[number];
    if (env.provenance !== undefined) {
      const retrieved = ev.retrieved_at ?? envRetrieved;
      if (isLater(ev.observed_at, retrieved)) {
        report(RULES.S6_OBSERVED_AFTER_RETRIEVED, `/evidence/${i}/observed_at`, `evidence observed_at ${ev.observed_at} is later than retrieved_at ${retrieved}`);
      }
    }
    if (seen !== undefined) {
      const first = seen.get(ev.evidence_id);
      if (first !== undefined) {
        report(RULES.E1_DUPLICATE_EVIDENCE_ID, `/evidence/${i}/evidence_id`, `evidence_id "${ev.evidence_id}" is already used by /evidence/${first}`);
      } else {
        seen.set(ev.evidence_id, i);
      }
    }
    const supports = ev.supports;
    for (let j = 0; j < supports.length; j++) {
      const pointer = supports[j] as string;
      // The quick answer first; the full one (which says where) only for a pointer that fails.
      if (pointerResolves(env, pointer)) continue;
      const r = resolvePointer(env, pointer);
      if (r.ok) continue; // the two agree (property test); kept for the type
      const why = r.reason === 'syntax' ? 'is not a valid JSON Pointer' : `does not resolve (nothing at ${r.at})`;
      report(RULES.E2_UNRESOLVED_SUPPORT, `/evidence/${i}/supports/${j}`, `supports pointer "${pointer}" ${why}`);
    }
  }
}

function checkUntrustedIds(env: Envelope, report: Report): void {
  const list = env.untrusted_content;
  if (list === undefined || list.length < 2) return;
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const id = (list[i] as (typeof list)[number]).content_id;
    if (seen.has(id)) {
      report(RULES.T1_DUPLICATE_CONTENT_ID, `/untrusted_content/${i}/content_id`, `content_id "${escapePointerToken(id)}" is not unique`);
    }
    seen.add(id);
  }
}

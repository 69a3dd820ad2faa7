/**
 * Normalize a framework tool's plain return value (AI SDK, Agents SDK, LangChain): the value is
 * the data (round-tripped through JSON, so Dates and class instances become plain data), with
 * evidence for the value itself. What only the tool could say — completeness, when the facts
 * were observed — it did not say, and the envelope states so.
 */
import { CONTRACT_VERSION, digest, escapePointerToken, nonJsonAt, type CallInput, type Envelope, type Evidence, type SideEffect, type Warning } from '../contract/index.js';
import { externalIdOf } from './external-id.js';
import type { ToolRules } from './rules.js';

/** Input of {@link normalizeValue}. */
export interface ValueInput {
  readonly rules: ToolRules;
  readonly call: CallInput;
  readonly value: unknown;
  readonly retrievedAt: string;
  readonly idempotencyKey: string | null;
}

/** Evidence for a returned object: one support per top-level field (the value itself otherwise). */
function valueEvidence(data: unknown, rules: ToolRules): Evidence {
  const keys = data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : [];
  return {
    evidence_id: 'tool_output',
    kind: 'tool_output',
    source: { type: rules.source.type, id: rules.source.id },
    locator: { response_path: '' },
    // Retrieved when the provenance says: the evidence does not repeat it.
    supports: keys.length === 0 ? ['/data'] : keys.map((k) => `/data/${escapePointerToken(k)}`),
  };
}

/**
 * The envelope of a returned value, or why the value has no JSON form.
 * @example normalizeValue({ rules, call, value: { order_id: 'o1' }, retrievedAt, idempotencyKey: null })
 */
export function normalizeValue(input: ValueInput): { ok: true; envelope: Envelope } | { ok: false; message: string; pointer?: string } {
  const warnings: Warning[] = [];
  // The JSON round trip below would write NaN as null and a Map as {}: a changed value, refused
  // as a tool defined with defineTool is, with where it is.
  const bad = nonJsonAt(input.value, '/data');
  if (bad !== null) return { ok: false, message: `the tool returned a value that is not plain JSON: ${bad.message} (details.pointer says where)`, pointer: bad.pointer };
  let data: unknown;
  try {
    data = input.value === undefined || input.value === null ? null : JSON.parse(JSON.stringify(input.value) ?? 'null');
  } catch (cause) {
    return { ok: false, message: `the tool returned a value with no JSON form: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
  if (data === null) {
    data = {};
    warnings.push({ code: 'TOOL_RETURNED_NOTHING', message: 'the tool returned no value; data is an empty object' });
  }
  const { rules } = input;
  const side_effect: SideEffect = rules.effect === 'read'
    ? { occurred: false, operation: 'read' }
    : { occurred: true, operation: rules.operation, external_id: externalIdOf(data) ?? `idempotency:${input.idempotencyKey ?? input.call.call_id}`, idempotency_key: input.idempotencyKey, committed_at: null };
  let result_digest: string;
  try {
    result_digest = digest(data);
  } catch (cause) {
    return { ok: false, message: `the tool returned a value with no canonical JSON form: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
  return {
    ok: true,
    envelope: {
      contract_version: CONTRACT_VERSION,
      call: { ...input.call, attempt: input.call.attempt ?? 1 },
      status: 'succeeded',
      data,
      completeness: { state: 'unknown', reason: 'not_reported_by_tool' },
      provenance: { source_type: rules.source.type, source_id: rules.source.id, retrieved_at: input.retrievedAt, observed_at: null },
      evidence: [valueEvidence(data, rules)],
      untrusted_content: [],
      side_effect,
      warnings,
      result_digest,
    },
  };
}

/**
 * Turn `fit`'s input into an envelope: an envelope is checked (SPEC Z3 step 1), anything else
 * is wrapped as the `data` of a `succeeded` result.
 */
import { randomUUID } from 'node:crypto';
import { CONTRACT_VERSION, RULES, TrcError, digest, validate, type Envelope } from '../contract/index.js';
import type { FitContext } from './context.js';

/** True when `value` claims to be an envelope (it has a `contract_version` field). */
export function looksLikeEnvelope(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, 'contract_version');
}

/**
 * An envelope for `input`. Throws `FIT_INVALID_ENVELOPE` (with findings) for an envelope that
 * breaks the contract, `FIT_NULL_RESULT` for a raw `null`, `FIT_NOT_JSON` for non-JSON values.
 * `keptDigits`: the envelope's data holds numbers kept as their exact digits (strings; see the
 * contract's `keepExactDigits`), so its `result_digest` describes the numbers, not our data: it
 * is not checked, and is computed again over the data as kept.
 * @example toEnvelope([1, 2], { tool: 'search' }).env.status // 'succeeded'
 */
export function toEnvelope(input: unknown, ctx: FitContext, keptDigits = false): { env: Envelope; wrapped: boolean } {
  if (looksLikeEnvelope(input)) {
    const checked = validate(input);
    const findings = keptDigits ? checked.findings.filter((f) => f.rule !== RULES.S9_DIGEST_MISMATCH) : checked.findings;
    const check = { valid: !findings.some((f) => f.severity === 'error'), findings };
    if (keptDigits && typeof input['result_digest'] === 'string') input['result_digest'] = digest(input['data']);
    if (!check.valid) {
      const first = check.findings.find((f) => f.severity === 'error');
      throw new TrcError('FIT_INVALID_ENVELOPE', `the input envelope breaks the contract${first ? ` at ${first.pointer || '/'}: ${first.message}` : ''}`, {
        data: { findings: check.findings, pointer: first?.pointer ?? '' },
      });
    }
    return { env: input as unknown as Envelope, wrapped: false };
  }
  if (input === null) {
    throw new TrcError('FIT_NULL_RESULT', 'a raw null result has no data to fit; wrap it in an envelope with its real status', { data: { pointer: '' } });
  }
  if (input === undefined || typeof input === 'function' || typeof input === 'symbol' || typeof input === 'bigint') {
    throw new TrcError('FIT_NOT_JSON', `a ${typeof input} is not a JSON value`, { data: { pointer: '' } });
  }
  const tool = ctx.tool ?? 'unknown_tool';
  const now = (ctx.now?.() ?? new Date()).toISOString();
  const env: Envelope = {
    contract_version: CONTRACT_VERSION,
    call: { tool_name: tool, call_id: ctx.callId ?? `call_${randomUUID()}`, attempt: 1 },
    status: 'succeeded',
    data: input,
    completeness: { state: 'complete', next: null },
    provenance: { source_type: 'tool', source_id: tool, retrieved_at: now },
    side_effect: { occurred: false, operation: tool },
    warnings: [],
  };
  return { env, wrapped: true };
}

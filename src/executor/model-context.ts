/**
 * L1/L2: the model-context result and the write-back are derived from the envelope as their own
 * types; neither is the envelope, and the model-facing text is never written back.
 */
import type { Envelope } from '../contract/index.js';
import { renderModelText } from '../trust/index.js';
import type { ModelContext, WriteBack } from './types.js';

/**
 * What the model reads for one call, correlated by call id: the envelope's presentation text
 * (the pipeline always makes one), else the trust module's model view of the envelope (facts,
 * evidence, completeness, warnings, and external content inside boundary markers).
 * @example const m = toModelContext(env); messages.push({ role: 'tool', tool_call_id: m.call_id, content: m.content });
 */
export function toModelContext(envelope: Envelope): ModelContext {
  return {
    call_id: envelope.call.call_id,
    tool_name: envelope.call.tool_name,
    is_error: envelope.status === 'failed' || envelope.status === 'unknown',
    content: renderModelText(envelope),
  };
}

/**
 * What the call writes back outside the conversation: state patch, memory candidate, ledger
 * reference. Built from the structured fields only, never from `presentation` (L2).
 * @example writeBackOf(env).state_patch?.version
 */
export function writeBackOf(envelope: Envelope): WriteBack {
  const key = envelope.side_effect.idempotency_key ?? envelope.call.idempotency_key ?? null;
  return {
    call_id: envelope.call.call_id,
    state_patch: envelope.state_patch ?? null,
    memory_candidate: envelope.memory_candidate ?? null,
    ledger: key === null ? null : { idempotency_key: key, status: envelope.status },
  };
}

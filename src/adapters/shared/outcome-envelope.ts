/**
 * Envelopes for calls that never reached a tool (cancelled, denied), so a batch renderer can give
 * every requested call id an envelope. Everything a tool produced goes through the executor.
 */
import { failed, unknown as unknownOutcome, type CallInfo, type Envelope } from '../../contract/index.js';

/** Who made the call, as the framework reports it. */
export interface CallRef {
  tool_name: string;
  call_id: string;
  attempt?: number;
  idempotency_key?: string | null;
}

/** The envelope call block for a call reference (attempt defaults to 1). */
export const callInfo = (call: CallRef): CallInfo => ({
  tool_name: call.tool_name,
  call_id: call.call_id,
  attempt: call.attempt ?? 1,
  ...(call.idempotency_key === undefined ? {} : { idempotency_key: call.idempotency_key }),
});

/**
 * The envelope of a call that was cancelled. Before it started: `failed` (nothing happened).
 * After a non-read call started: `unknown`, because the write may have landed (W2).
 * @example cancelledEnvelope({ tool_name: 'refund', call_id: 'c2' }, { reason: 'user stopped the run' })
 */
export function cancelledEnvelope(
  call: CallRef,
  options: { reason?: string; started?: boolean; operation?: string } = {},
): Envelope {
  const operation = options.operation ?? 'read';
  const message = options.reason ?? 'the call was cancelled';
  if (options.started === true && operation !== 'read') {
    return unknownOutcome({
      call: callInfo(call),
      error: { category: 'cancelled', code: 'CALL_CANCELLED_IN_FLIGHT', message, retryable: false, action: 'query_by_idempotency_key', kind: 'unknown_outcome' },
      side_effect: { operation, possibly_occurred: true, ...(call.idempotency_key ? { idempotency_key: call.idempotency_key } : {}) },
      reconciliation: { required: true, ...(call.idempotency_key ? { idempotency_key: call.idempotency_key } : {}), state: 'pending' },
    });
  }
  return failed({
    call: callInfo(call),
    error: { category: 'cancelled', code: 'CALL_CANCELLED', message, retryable: false, action: 'explain_to_user', kind: 'execution' },
    side_effect: { occurred: false, operation },
  });
}

/**
 * The envelope of a call that policy or a human refused (T4): it never ran.
 * @example deniedEnvelope({ tool_name: 'refund', call_id: 'c3' }, { reason: 'needs approval' })
 */
export function deniedEnvelope(call: CallRef, options: { reason?: string; operation?: string } = {}): Envelope {
  return failed({
    call: callInfo(call),
    error: {
      category: 'authorization',
      code: 'CALL_DENIED',
      message: options.reason ?? 'the call was not allowed',
      retryable: false,
      action: 'explain_to_user',
      kind: 'execution',
    },
    side_effect: { occurred: false, operation: options.operation ?? 'read' },
  });
}

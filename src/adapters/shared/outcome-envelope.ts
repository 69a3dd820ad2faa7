/**
 * Envelopes for what a framework tool produced: a returned value, a thrown error, or a call that
 * never ran (cancelled, denied). Used by the framework wrappers and the batch renderer so every
 * call id always gets an envelope.
 */
import {
  classifyError,
  failed,
  isEnvelope,
  succeeded,
  unknown as unknownOutcome,
  type CallInfo,
  type ClassifiedError,
  type Envelope,
} from '../../contract/index.js';

/** Who made the call, as the framework reports it. */
export interface CallRef {
  tool_name: string;
  call_id: string;
  attempt?: number;
  idempotency_key?: string | null;
}

/** Options shared by the outcome builders. */
export interface OutcomeOptions {
  /** Provenance of returned values; defaults to `{ source_type: 'tool', source_id: <tool name> }`. */
  source_type?: string;
  source_id?: string;
  /** Side-effect operation name; defaults to `read` (the wrapper cannot know better). */
  operation?: string;
  /** Clock, for deterministic tests. */
  now?: () => string;
}

/** The envelope call block for a call reference (attempt defaults to 1). */
export const callInfo = (call: CallRef): CallInfo => ({
  tool_name: call.tool_name,
  call_id: call.call_id,
  attempt: call.attempt ?? 1,
  ...(call.idempotency_key === undefined ? {} : { idempotency_key: call.idempotency_key }),
});

/**
 * Wrap a tool's return value. A value that already is a valid envelope is kept, with its call
 * block replaced by the caller's (a tool does not get to choose which call it answers, P1).
 * @example envelopeFromValue({ order_id: 'o1' }, { tool_name: 'order.get', call_id: 'c1' })
 */
export function envelopeFromValue(value: unknown, call: CallRef, options: OutcomeOptions = {}): Envelope {
  if (isEnvelope(value)) return { ...value, call: { ...pickKey(value.call), ...callInfo(call) } };
  const warnings: Envelope['warnings'] = [];
  let data: unknown = value;
  if (value === undefined || value === null) {
    data = {};
    warnings.push({ code: 'TOOL_RETURNED_NOTHING', message: 'the tool returned no value; data is an empty object' });
  }
  let json: unknown;
  try {
    // Round-trip through JSON so Dates, class instances and undefined fields become plain data.
    json = JSON.parse(JSON.stringify(data) ?? 'null');
    return succeeded({
      call: callInfo(call),
      data: json ?? {},
      provenance: {
        source_type: options.source_type ?? 'tool',
        source_id: options.source_id ?? call.tool_name,
        observed_at: null,
        ...(options.now === undefined ? {} : { retrieved_at: options.now() }),
      },
      side_effect: { occurred: false, operation: options.operation ?? 'read' },
      warnings,
    });
  } catch (cause) {
    return failed({
      call: callInfo(call),
      error: {
        category: 'contract',
        code: 'RESULT_NOT_JSON',
        message: `the tool returned a value with no JSON form: ${cause instanceof Error ? cause.message : String(cause)}`,
        retryable: false,
        action: 'explain_to_user',
        kind: 'execution',
      },
      side_effect: { occurred: false, operation: options.operation ?? 'read' },
    });
  }
}

const pickKey = (c: CallInfo) => (c.idempotency_key === undefined ? {} : { idempotency_key: c.idempotency_key });

/**
 * Wrap an error a tool threw, classified by the contract's `classifyError()`. A call whose
 * operation is not `read` counts as a sent write, so an ambiguous failure becomes `unknown`.
 * @example envelopeFromThrown(new Error('boom'), { tool_name: 't', call_id: 'c1' })
 */
export function envelopeFromThrown(err: unknown, call: CallRef, options: OutcomeOptions = {}): Envelope {
  const operation = options.operation ?? 'read';
  return envelopeFromClassified(classifyError(err, { writeSent: operation !== 'read', operation }), call, operation);
}

/**
 * Build the envelope a classified failure implies: `failed`, or `unknown` with a
 * reconciliation block when the write may have landed (W2).
 */
export function envelopeFromClassified(classified: ClassifiedError, call: CallRef, operation: string, extra: { warnings?: Envelope['warnings'] } = {}): Envelope {
  const key = call.idempotency_key ?? null;
  if (classified.status === 'unknown') {
    return unknownOutcome({
      call: callInfo(call),
      error: { ...classified.error, retryable: false },
      side_effect: { operation, possibly_occurred: true, ...(key === null ? {} : { idempotency_key: key }) },
      reconciliation: { required: true, ...(key === null ? {} : { idempotency_key: key }), state: 'pending' },
      ...(extra.warnings === undefined ? {} : { warnings: extra.warnings }),
    });
  }
  return failed({
    call: callInfo(call),
    error: classified.error,
    side_effect: { occurred: false, operation },
    ...(extra.warnings === undefined ? {} : { warnings: extra.warnings }),
  });
}

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

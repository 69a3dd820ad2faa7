/**
 * Envelope builders. Their parameter types rule out the common contradictions at compile time:
 * a `succeeded` result cannot carry an error, a cursor or null data; a `failed` one cannot carry
 * data; an `unknown` one must say whether the side effect possibly occurred and how to reconcile;
 * a side effect that occurred must name its external id.
 */
import { digest } from './digest.js';
import { checkInvariants } from './invariants.js';
import { TrcError } from './trc-error.js';
import { CONTRACT_VERSION } from './taxonomy.js';
import type {
  CallInfo,
  Completeness,
  Conflict,
  Calculation,
  Envelope,
  ErrorInfo,
  Evidence,
  Presentation,
  Provenance,
  Reconciliation,
  ResourceRef,
  SideEffect,
  UntrustedContent,
  Warning,
} from './types.js';

/** The call block; `attempt` defaults to 1. */
export type CallInput = Omit<CallInfo, 'attempt'> & { attempt?: number };

/** Provenance; `retrieved_at` defaults to now. */
export type ProvenanceInput = Omit<Provenance, 'retrieved_at'> & { retrieved_at?: string };

/** A side effect: one that occurred must name its external id (W1). */
export type SideEffectInput =
  | { occurred: false; operation: string; possibly_occurred?: false; idempotency_key?: string | null }
  | {
      occurred: true;
      operation: string;
      external_id: string;
      idempotency_key?: string | null;
      committed_at?: string | null;
    };

/** Fields every builder accepts. */
export interface CommonInput {
  call: CallInput;
  evidence?: Evidence[];
  untrusted_content?: UntrustedContent[];
  warnings?: Warning[];
  presentation?: Presentation;
  resources?: ResourceRef[];
  extensions?: Record<string, unknown>;
}

/** Non-null data: `succeeded` and `partial` results must carry facts (S3). */
export type Data = NonNullable<unknown>;

/** Completeness of a `succeeded` result: complete (or of unknown extent), no cursor. */
export type CompleteInput = {
  state: 'complete' | 'unknown';
  reason?: string | null;
  returned_items?: number | null;
  available_items?: number | null;
  next?: null;
};

/** Completeness of a `partial` result: something is missing. */
export type IncompleteInput = Omit<Completeness, 'state'> & { state: 'truncated' | 'partial' | 'unknown' };

const READ: SideEffect = { occurred: false, operation: 'read' };

function base(input: CommonInput): Pick<Envelope, 'contract_version' | 'call' | 'warnings'> & Partial<Envelope> {
  const env: Pick<Envelope, 'contract_version' | 'call' | 'warnings'> & Partial<Envelope> = {
    contract_version: CONTRACT_VERSION,
    call: { ...input.call, attempt: input.call.attempt ?? 1 },
    warnings: input.warnings ?? [],
  };
  env.evidence = input.evidence ?? [];
  env.untrusted_content = input.untrusted_content ?? [];
  if (input.presentation !== undefined) env.presentation = input.presentation;
  if (input.resources !== undefined) env.resources = input.resources;
  if (input.extensions !== undefined) env.extensions = input.extensions;
  return env;
}

function provenance(p: ProvenanceInput, now: () => string): Provenance {
  return { ...p, retrieved_at: p.retrieved_at ?? now() };
}

const isoNow = () => new Date().toISOString();

/**
 * The types rule out most contradictions; values can still contradict each other (returned 2 of
 * 10 items yet "complete", evidence pointing at a missing field). A builder never hands out such
 * an envelope: it throws `TrcError('CONTRADICTORY_ENVELOPE')` naming the rules and pointers.
 */
function sound(env: Envelope): Envelope {
  const errors = checkInvariants(env, { checkDigest: false }).filter((f) => f.severity === 'error');
  if (errors.length > 0) {
    const list = errors.map((f) => `${f.rule} at ${f.pointer || '(root)'}: ${f.message}`).join('; ');
    throw new TrcError('CONTRADICTORY_ENVELOPE', `the envelope would contradict the contract: ${list}`, { data: { findings: errors } });
  }
  return env;
}

/**
 * A call that completed and returned facts.
 * @example
 * succeeded({
 *   call: { tool_name: 'order.get', call_id: 'call_1' },
 *   data: { order_id: 'ord_1001', status: 'shipped' },
 *   provenance: { source_type: 'database', source_id: 'orders.primary', observed_at: null },
 * });
 */
export function succeeded(
  input: CommonInput & {
    data: Data;
    provenance: ProvenanceInput;
    completeness?: CompleteInput;
    side_effect?: SideEffectInput;
    conflicts?: Conflict[];
    calculation?: Calculation;
    now?: () => string;
  },
): Envelope {
  // Built by assignment on the base object (same key order as a spread literal, one object
  // fewer): this runs once per tool call.
  const env = base(input) as Envelope;
  env.status = 'succeeded';
  env.data = input.data;
  env.completeness = input.completeness ?? { state: 'complete' };
  env.provenance = provenance(input.provenance, input.now ?? isoNow);
  env.side_effect = input.side_effect ?? READ;
  env.result_digest = digest(input.data);
  if (input.conflicts !== undefined) env.conflicts = input.conflicts;
  if (input.calculation !== undefined) env.calculation = input.calculation;
  return sound(env);
}

/**
 * A call that succeeded but returned only part of the facts (a page, a trimmed list).
 * @example
 * partial({ call, data: { items }, provenance,
 *   completeness: { state: 'truncated', reason: 'upstream_limit', returned_items: 20,
 *                   available_items: null, next: { type: 'cursor', value: 'c2' } } });
 */
export function partial(
  input: CommonInput & {
    data: Data;
    provenance: ProvenanceInput;
    completeness: IncompleteInput;
    side_effect?: SideEffectInput;
    now?: () => string;
  },
): Envelope {
  const env = base(input) as Envelope;
  env.status = 'partial';
  env.data = input.data;
  env.completeness = input.completeness;
  env.provenance = provenance(input.provenance, input.now ?? isoNow);
  env.side_effect = input.side_effect ?? READ;
  env.result_digest = digest(input.data);
  return sound(env);
}

/**
 * A call that failed with no trustworthy data. `data` is always null.
 * @example
 * failed({ call, error: { category: 'business', code: 'ORDER_NOT_REFUNDABLE',
 *   message: 'refund window closed', retryable: false, action: 'explain_to_user' },
 *   side_effect: { occurred: false, operation: 'refund' } });
 */
export function failed(
  input: CommonInput & { error: ErrorInfo; side_effect?: SideEffectInput; provenance?: ProvenanceInput; now?: () => string },
): Envelope {
  return sound({
    ...base(input),
    status: 'failed',
    data: null,
    error: input.error,
    side_effect: input.side_effect ?? READ,
    result_digest: digest(null),
    ...(input.provenance === undefined ? {} : { provenance: provenance(input.provenance, input.now ?? isoNow) }),
  });
}

/**
 * An outcome nobody can observe yet — typically a write whose response was lost (W2).
 * Must say whether the side effect possibly occurred and how to reconcile it.
 * @example
 * unknown({ call, error: { category: 'transport_timeout', code: 'COMMIT_STATUS_UNKNOWN',
 *   message: 'timed out after sending', retryable: false, action: 'query_by_idempotency_key' },
 *   side_effect: { operation: 'charge', possibly_occurred: true },
 *   reconciliation: { required: true, idempotency_key: 'pay_1' } });
 */
export function unknown(
  input: CommonInput & {
    error: ErrorInfo & { retryable: false };
    side_effect: { operation: string; possibly_occurred: boolean; idempotency_key?: string | null };
    reconciliation: Reconciliation;
  },
): Envelope {
  return sound({
    ...base(input),
    status: 'unknown',
    data: null,
    error: input.error,
    side_effect: { occurred: false, ...input.side_effect },
    reconciliation: input.reconciliation,
    result_digest: digest(null),
  });
}

/**
 * The request was accepted and will complete later (an async job). `data` may carry the job's
 * handle; the completeness of any facts is unknown.
 */
export function accepted(
  input: CommonInput & {
    data?: Data | null;
    provenance?: ProvenanceInput;
    side_effect?: SideEffectInput;
    reconciliation?: Reconciliation;
    now?: () => string;
  },
): Envelope {
  const data = input.data ?? null;
  return sound({
    ...base(input),
    status: 'accepted',
    data,
    completeness: { state: 'unknown' },
    side_effect: input.side_effect ?? { occurred: false, operation: 'submit' },
    result_digest: digest(data),
    ...(input.provenance === undefined ? {} : { provenance: provenance(input.provenance, input.now ?? isoNow) }),
    ...(input.reconciliation === undefined ? {} : { reconciliation: input.reconciliation }),
  });
}

/**
 * The tool needs more input from the user or the orchestrator before it can run.
 * @example needsInput({ call, code: 'DATE_REQUIRED', message: 'which departure date?', missing: ['/departure_date'] })
 */
export function needsInput(
  input: CommonInput & {
    code: string;
    message: string;
    missing?: string[];
    /** `authorization` when a human must confirm the call (T4); `validation` when input is missing. */
    category?: 'validation' | 'authorization';
    side_effect?: SideEffectInput;
  },
): Envelope {
  return sound({
    ...base(input),
    status: 'needs_input',
    data: null,
    error: {
      category: input.category ?? 'validation',
      code: input.code,
      message: input.message,
      retryable: false,
      action: 'ask_user',
      ...(input.missing === undefined ? {} : { details: { missing: input.missing } }),
    },
    side_effect: input.side_effect ?? READ,
    result_digest: digest(null),
  });
}

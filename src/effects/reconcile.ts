/**
 * Reconciliation (W2, W3): after a timeout or crash, ask the downstream system what happened
 * under the idempotency key, and turn the answer into an outcome. Never a blind retry.
 */
import { succeeded, timestampValue, unknown, type CallInput, type Envelope, type ErrorInfo } from '../contract/index.js';

/** What a tool's `reconcile(key)` found out in the downstream system. */
export type ReconcileLookup =
  | {
      readonly state: 'found';
      /** The downstream id of the committed operation (W1: occurred ⇒ external_id). */
      readonly external_id: string;
      readonly committed_at?: string | null;
      /** The facts of the committed operation, if the lookup returns them. */
      readonly data?: unknown;
    }
  | { readonly state: 'absent' }
  | { readonly state: 'unknown'; readonly reason?: string };

/** What the executor may do after a lookup. */
export type ReconcileAction = 'confirm' | 'retry_same_key' | 'report_unknown';

/** Traits of the write that decide whether a confirmed absence may be retried. */
export interface RetryTraits {
  /** Running the operation twice has the effect of running it once. */
  readonly idempotent: boolean;
  /** The downstream deduplicates on the idempotency key we pass. */
  readonly honoursKey: boolean;
  /** Attempts are left under the executor's bound. */
  readonly attemptsLeft: boolean;
}

/**
 * Decide after a lookup: found ⇒ confirm; confirmed absent ⇒ retry with the same key only when a
 * second send cannot duplicate the effect (a late first request may still land), else report
 * unknown; unknowable ⇒ report unknown.
 * @example decideAfterLookup({ state: 'absent' }, { idempotent: false, honoursKey: true, attemptsLeft: true }) // 'retry_same_key'
 */
export function decideAfterLookup(lookup: ReconcileLookup, traits: RetryTraits): ReconcileAction {
  if (lookup.state === 'found') return 'confirm';
  if (lookup.state === 'absent' && (traits.idempotent || traits.honoursKey) && traits.attemptsLeft) return 'retry_same_key';
  return 'report_unknown';
}

/** Context to build a reconciled envelope. */
export interface ReconcileContext {
  readonly call: CallInput;
  readonly operation: string;
  readonly key: string;
  readonly sourceType: string;
  readonly sourceId: string;
  readonly retrievedAt: string;
  /** Name of the tool (or query) that looks the key up, for the `reconciliation` block. */
  readonly queryTool: string;
  /** Arguments of that query as the caller would send them; default `{ idempotency_key: key }`. */
  readonly queryArgs?: Readonly<Record<string, unknown>>;
}

/**
 * The envelope of a write confirmed by lookup: `succeeded` with `side_effect.occurred` and the
 * external id. The data is the lookup's facts, or a record of the confirmation.
 * @example confirmedEnvelope(ctx, { state: 'found', external_id: 'ch_1' })
 */
export function confirmedEnvelope(ctx: ReconcileContext, found: Extract<ReconcileLookup, { state: 'found' }>): Envelope {
  const data = found.data ?? { external_id: found.external_id, confirmed_by: 'idempotency_key_lookup' };
  const committed = timestampValue(found.committed_at, 'the lookup\'s committed_at');
  return succeeded({
    call: { ...ctx.call, idempotency_key: ctx.key },
    data: data as NonNullable<unknown>,
    provenance: { source_type: ctx.sourceType, source_id: ctx.sourceId, retrieved_at: ctx.retrievedAt, observed_at: committed.value },
    side_effect: {
      occurred: true,
      operation: ctx.operation,
      external_id: found.external_id,
      idempotency_key: ctx.key,
      committed_at: committed.value,
    },
    warnings: [{ code: 'RECONCILED', message: `the response was lost; the outcome was confirmed by looking up idempotency key ${ctx.key}` }, ...(committed.warning === undefined ? [] : [committed.warning])],
  });
}

/**
 * The envelope of a write whose outcome cannot be observed: `unknown`, possibly occurred, with a
 * `reconciliation` block naming the key and the query. `cause` says why it is unknown.
 * @example unknownEnvelope(ctx, { category: 'transport_timeout', code: 'COMMIT_STATUS_UNKNOWN', message: '…' }, 'unknowable')
 */
export function unknownEnvelope(
  ctx: ReconcileContext,
  cause: Pick<ErrorInfo, 'category' | 'code' | 'message'> & { details?: unknown },
  state: 'pending' | 'confirmed_absent' | 'unknowable',
): Envelope {
  return unknown({
    call: { ...ctx.call, idempotency_key: ctx.key },
    error: {
      category: cause.category,
      code: cause.code,
      message: cause.message,
      retryable: false,
      // A confirmed absence may still be followed by a late commit, so a human (or a later lookup) decides.
      action: state === 'confirmed_absent' ? 'manual_reconciliation' : 'query_by_idempotency_key',
      kind: 'unknown_outcome',
      ...(cause.details === undefined ? {} : { details: cause.details }),
    },
    side_effect: { operation: ctx.operation, possibly_occurred: true, idempotency_key: ctx.key },
    reconciliation: {
      required: true,
      idempotency_key: ctx.key,
      query_tool: ctx.queryTool,
      query_args: { ...(ctx.queryArgs ?? { idempotency_key: ctx.key }) },
      state,
    },
  });
}

/**
 * The side-effecting path (W1–W3): ledger begin → attempt → on an ambiguous outcome, persist
 * `unknown`, look the key up, and confirm, retry with the same key, or report `unknown`.
 * A write is never retried blindly.
 */
import { failed, type CallInput, type Envelope, type ErrorInfo } from '../contract/index.js';
import {
  LEDGER_CODES,
  argsDigest,
  beginWrite,
  confirmedEnvelope,
  decideAfterLookup,
  settleWrite,
  unknownEnvelope,
  type MemoryPolicy,
  type ReconcileContext,
  type ReconcileLookup,
} from '../effects/index.js';
import type { Store } from '../store/types.js';
import { runAttempt } from './attempt.js';
import type { EffectPosition, LayerNotes } from './audit.js';
import type { ToolDefinition } from './define-tool.js';
import type { Principal } from './types.js';

/** How the write path ended. */
export interface WriteResult {
  readonly envelope: Envelope;
  /** A replayed envelope was finalized when it was recorded; the pipeline only re-presents it. */
  readonly replayed: boolean;
  /** True when the ledger must not be settled by this call (refused: the entry belongs to another call). */
  readonly refused: boolean;
  readonly attempts: number;
  readonly timings: number[];
  readonly outcome: 'returned' | 'threw' | 'timeout' | 'cancelled' | 'replayed' | 'refused' | 'reconciled';
  readonly classification: ErrorInfo | null;
  readonly effectPosition: EffectPosition;
  readonly reconciliationState: string | null;
}

/** Dependencies of the write path. */
export interface WriteDeps {
  readonly store: Store;
  readonly now: () => number;
  readonly maxAttempts: number;
  readonly memoryPolicy?: MemoryPolicy | undefined;
}

/** Input of {@link runWrite}. */
export interface WriteInput {
  readonly tool: ToolDefinition<never, unknown>;
  readonly args: unknown;
  readonly call: CallInput;
  readonly principal: Principal;
  readonly key: string;
  readonly signal?: AbortSignal | undefined;
  readonly notes: LayerNotes;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Look a key up with the tool's `reconcile`, bounded by the tool's timeout. A lookup that throws
 * or hangs is `unknown`: it proves nothing either way.
 */
export async function lookupKey(tool: ToolDefinition<never, unknown>, key: string): Promise<ReconcileLookup> {
  if (tool.reconcile === undefined) return { state: 'unknown', reason: `tool "${tool.name}" declares no reconcile(key)` };
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ReconcileLookup>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException('reconcile timed out', 'TimeoutError'));
      resolve({ state: 'unknown', reason: `the lookup did not answer within ${tool.timeoutMs} ms` });
    }, tool.timeoutMs);
  });
  try {
    const found = await Promise.race([tool.reconcile(key, { signal: controller.signal }), timeout]);
    if (found.state === 'found' && (typeof found.external_id !== 'string' || found.external_id === '')) {
      return { state: 'unknown', reason: 'the lookup said "found" without an external id' };
    }
    return found;
  } catch (cause) {
    return { state: 'unknown', reason: `the lookup failed: ${cause instanceof Error ? cause.message : String(cause)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Context for the reconciled envelopes of a tool. */
export function reconcileContext(tool: ToolDefinition<never, unknown>, call: CallInput, key: string, retrievedAt: string): ReconcileContext {
  return {
    call,
    operation: tool.operation ?? tool.name,
    key,
    sourceType: tool.source.type,
    sourceId: tool.source.id,
    retrievedAt,
    queryTool: `${tool.name}.reconcile`,
  };
}

/**
 * Run a side-effecting call under its idempotency key.
 * @example const r = await runWrite({ store, now: Date.now, maxAttempts: 3 }, { tool, args, call, principal, key, notes });
 */
export async function runWrite(deps: WriteDeps, input: WriteInput): Promise<WriteResult> {
  const { tool, key, notes } = input;
  const operation = tool.operation ?? tool.name;
  const decision = await beginWrite(deps.store, {
    key,
    tool: tool.name,
    principal: input.principal.id,
    argsDigest: argsDigest(input.args),
    callId: input.call.call_id,
    now: iso(deps.now()),
  });
  const timings: number[] = [];
  const base = { timings, classification: null, reconciliationState: null };
  if (decision.kind === 'refuse') {
    notes.execution.push(`ledger refused key ${key}: ${decision.code} (entry of call ${decision.entry.callId}, state ${decision.entry.state})`);
    const error: ErrorInfo = {
      category: 'conflict',
      code: decision.code,
      message: decision.message,
      retryable: false,
      action: decision.code === LEDGER_CODES.IN_FLIGHT ? 'query_by_idempotency_key' : 'fix_arguments',
      kind: 'execution',
    };
    return {
      ...base,
      envelope: failed({ call: { ...input.call, idempotency_key: key }, error, side_effect: { occurred: false, operation, idempotency_key: key } }),
      replayed: false,
      refused: true,
      attempts: 0,
      outcome: 'refused',
      classification: error,
      effectPosition: 'none',
    };
  }
  if (decision.kind === 'replay') {
    notes.execution.push(`replayed the envelope recorded for key ${key} by call ${decision.entry.callId}`);
    return { ...base, envelope: decision.envelope, replayed: true, refused: false, attempts: decision.entry.attempts, outcome: 'replayed', effectPosition: decision.envelope.side_effect.occurred ? 'confirmed' : 'none' };
  }
  let attempt = decision.kind === 'run' ? decision.attempt : decision.entry.attempts;
  let pendingError: ErrorInfo | null =
    decision.kind === 'reconcile'
      ? { category: 'transport_timeout', code: 'COMMIT_STATUS_UNKNOWN', message: `an earlier attempt under key ${key} ended without a confirmed outcome`, retryable: false, action: 'query_by_idempotency_key', kind: 'unknown_outcome' }
      : null;
  let firstAmbiguous: ErrorInfo | null = pendingError;
  let lastOutcome: WriteResult['outcome'] = 'reconciled';
  for (;;) {
    if (pendingError === null) {
      const r = await runAttempt({ tool, args: input.args, call: { ...input.call, idempotency_key: key }, principal: input.principal, attempt, idempotencyKey: key, signal: input.signal, now: deps.now, memoryPolicy: deps.memoryPolicy });
      timings.push(r.outcome.ms);
      lastOutcome = r.outcome.kind;
      if (r.kind === 'ok') {
        notes.execution.push(`attempt ${attempt}: committed, external_id ${String(r.envelope.side_effect.external_id)}`);
        return { ...base, envelope: r.envelope, replayed: false, refused: false, attempts: attempt, outcome: lastOutcome, effectPosition: 'confirmed' };
      }
      if (r.kind === 'failed' && firstAmbiguous !== null && r.sideEffect === null) {
        // An earlier attempt may still land late: a definite failure of this retry proves nothing about it.
        notes.execution.push(`attempt ${attempt}: ${r.outcome.kind}, ${r.error.code}; an earlier attempt's outcome is still open`);
        pendingError = firstAmbiguous;
      } else if (r.kind === 'failed') {
        notes.execution.push(`attempt ${attempt}: ${r.outcome.kind}, definite failure ${r.error.code}${r.outcome.sent ? '' : ' before the request was sent'}`);
        const sideEffect = r.sideEffect ?? { occurred: false as const, operation, idempotency_key: key };
        return {
          ...base,
          envelope: failed({ call: { ...input.call, attempt, idempotency_key: key }, error: r.error, side_effect: sideEffect }),
          replayed: false,
          refused: false,
          attempts: attempt,
          outcome: lastOutcome,
          classification: r.error,
          effectPosition: r.sideEffect !== null ? 'confirmed' : r.outcome.sent ? 'sent_not_executed' : 'not_sent',
        };
      }
      if (r.kind === 'ambiguous') {
        pendingError = r.error;
        firstAmbiguous ??= r.error;
        notes.execution.push(`attempt ${attempt}: ${r.outcome.kind} after the request was sent: outcome unknown (${r.error.code}); looking up key ${key}`);
      }
    }
    if (pendingError === null) continue;
    // Persist "unknown" before looking up, so a crash here leaves an entry that recovery reconciles.
    await settleWrite(deps.store, key, { state: 'unknown', attempts: attempt, now: iso(deps.now()) });
    const lookup = await lookupKey(tool, key);
    const ctx = reconcileContext(tool, { ...input.call, attempt }, key, iso(deps.now()));
    const action = decideAfterLookup(lookup, { idempotent: tool.idempotent === true, honoursKey: tool.honoursKey === true, attemptsLeft: attempt < deps.maxAttempts });
    notes.execution.push(`lookup of ${key}: ${lookup.state}${lookup.state === 'unknown' && lookup.reason ? ` (${lookup.reason})` : ''} → ${action}`);
    if (action === 'confirm' && lookup.state === 'found') {
      return { ...base, envelope: confirmedEnvelope(ctx, lookup), replayed: false, refused: false, attempts: attempt, outcome: lastOutcome, classification: pendingError, effectPosition: 'executed_response_lost', reconciliationState: 'confirmed_present' };
    }
    if (action === 'retry_same_key') {
      attempt += 1;
      pendingError = null;
      await settleWrite(deps.store, key, { state: 'in_flight', attempts: attempt, now: iso(deps.now()) });
      continue;
    }
    const state = lookup.state === 'absent' ? 'confirmed_absent' : 'unknowable';
    return {
      ...base,
      envelope: unknownEnvelope(ctx, { category: pendingError.category, code: pendingError.code, message: pendingError.message, details: { ...(isRecord(pendingError.details) ? pendingError.details : {}), lookup } }, state),
      replayed: false,
      refused: false,
      attempts: attempt,
      outcome: lastOutcome,
      classification: pendingError,
      effectPosition: 'unknown',
      reconciliationState: state,
    };
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The side-effecting path (W1–W3), for every invoker: ledger begin → attempt → classify → on an
 * ambiguous outcome, persist `unknown`, look the key up through the invoker, and confirm, retry
 * with the same key, or report `unknown`. A write is never retried blindly.
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
import type { LedgerEntry, Store } from '../store/types.js';
import { maskText } from '../trust/index.js';
import type { EffectPosition, LayerNotes } from './audit.js';
import { classifyOutcome, failedEnvelope } from './classify.js';
import type { Invoker } from './invoker.js';
import { isoAt } from './iso-time.js';
import type { ExternalMarks } from './normalize-mcp.js';
import type { ToolRules } from './rules.js';
import { runWithDeadline } from './run-with-deadline.js';
import type { Principal } from './types.js';
import type { HeldLease } from './write-lease.js';
import { MAX_TIMEOUT_MS } from './tool-spec-check.js';

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
  /** What the last attempt's answer carried that the trust stage must isolate. */
  readonly external: ExternalMarks;
  /** The entry of another call this call reconciled (its process stopped mid-write): its audit record may be missing. */
  readonly reconciledEntry?: LedgerEntry;
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
  readonly rules: ToolRules;
  readonly invoker: Invoker;
  readonly args: unknown;
  readonly call: CallInput;
  readonly principal: Principal;
  readonly key: string;
  readonly signal?: AbortSignal | undefined;
  readonly notes: LayerNotes;
  /** The call's lease on the entry (executors sharing a store); renewed while the write runs. */
  readonly lease?: HeldLease | undefined;
}

/** What an outcome kind is called in the audit record. */
export function outcomeName(kind: string): WriteResult['outcome'] {
  if (kind === 'timeout' || kind === 'cancelled') return kind;
  if (kind === 'output' || kind === 'value' || kind === 'mcp') return 'returned';
  return 'threw';
}

/**
 * Look a key up through the invoker, bounded by the tool's timeout. A lookup that throws or
 * hangs is `unknown`: it proves nothing either way.
 */
export async function lookupKey(rules: ToolRules, invoker: Invoker, key: string, now: () => number): Promise<ReconcileLookup> {
  if (invoker.lookup === undefined) return { state: 'unknown', reason: `tool "${rules.name}" declares no way to look a key up` };
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ReconcileLookup>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException('reconcile timed out', 'TimeoutError'));
      resolve({ state: 'unknown', reason: `the lookup did not answer within ${rules.timeoutMs} ms` });
    }, Math.min(rules.timeoutMs, MAX_TIMEOUT_MS));
  });
  try {
    const found = await Promise.race([invoker.lookup(key, { signal: controller.signal, deadline: now() + rules.timeoutMs }), timeout]);
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
export function reconcileContext(rules: ToolRules, call: CallInput, key: string, retrievedAt: string): ReconcileContext {
  return {
    call,
    operation: rules.operation,
    key,
    sourceType: rules.source.type,
    sourceId: rules.source.id,
    retrievedAt,
    queryTool: rules.reconcile.queryTool,
    ...(rules.reconcile.queryArgs === undefined ? {} : { queryArgs: substituteKey(rules.reconcile.queryArgs, key) }),
  };
}

/** `"$key"` anywhere as a value in the configured arguments is the idempotency key. */
export function substituteKey(args: Readonly<Record<string, unknown>>, key: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = v === '$key' ? key : v;
  return out;
}

const newMarks = (): ExternalMarks => ({ errorText: [], warnings: new Set() });

/**
 * Run a side-effecting call under its idempotency key.
 * @example const r = await runWrite({ store, now: Date.now, maxAttempts: 3 }, { rules, invoker, args, call, principal, key, notes });
 */
export async function runWrite(deps: WriteDeps, input: WriteInput): Promise<WriteResult> {
  const { rules, key, notes } = input;
  const operation = rules.operation;
  const decision = await beginWrite(deps.store, {
    key,
    tool: rules.name,
    principal: input.principal.id,
    argsDigest: argsDigest(input.args),
    callId: input.call.call_id,
    now: isoAt(deps.now()),
    // No attempt outlives its deadline, nor a lookup: an entry idle longer was left by a stopped process.
    staleAfterMs: 2 * rules.timeoutMs + 1000,
    ...(input.lease === undefined ? {} : { lease: input.lease.current(), takesOver: input.lease.predecessorOwns }),
  });
  if (decision.kind === 'run' || decision.kind === 'reconcile') input.lease?.renew(key);
  const timings: number[] = [];
  let external = newMarks();
  const base: { timings: number[]; classification: null; reconciliationState: null; reconciledEntry?: LedgerEntry } = { timings, classification: null, reconciliationState: null };
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
    // In flight: this call sent nothing, but the write it asks for is running under the key and
    // may commit, so the answer is `unknown` (pending reconciliation), never `failed` — read as
    // "nothing happened", a failure would invite the user to be told the charge did not go
    // through. A key reused for other arguments is the caller's mistake: `failed`.
    const envelope =
      decision.code === LEDGER_CODES.IN_FLIGHT
        ? unknownEnvelope(reconcileContext(rules, { ...input.call, attempt: Math.max(1, input.call.attempt ?? 1) }, key, isoAt(deps.now())), { category: 'conflict', code: decision.code, message: decision.message }, 'pending')
        : failed({ call: { ...input.call, idempotency_key: key }, error, side_effect: { occurred: false, operation, idempotency_key: key } });
    return {
      ...base,
      envelope,
      replayed: false,
      refused: true,
      attempts: 0,
      outcome: 'refused',
      classification: error,
      effectPosition: 'none',
      external,
    };
  }
  if (decision.kind === 'replay') {
    notes.execution.push(`replayed the envelope recorded for key ${key} by call ${decision.entry.callId}`);
    return { ...base, envelope: decision.envelope, replayed: true, refused: false, attempts: decision.entry.attempts, outcome: 'replayed', effectPosition: decision.envelope.side_effect.occurred ? 'confirmed' : 'none', external };
  }
  let attempt = decision.kind === 'run' ? decision.attempt : Math.max(1, decision.entry.attempts);
  let pendingError: ErrorInfo | null =
    decision.kind === 'reconcile'
      ? { category: 'transport_timeout', code: 'COMMIT_STATUS_UNKNOWN', message: `an earlier attempt under key ${key} ended without a confirmed outcome`, retryable: false, action: 'query_by_idempotency_key', kind: 'unknown_outcome' }
      : null;
  if (decision.kind === 'reconcile') notes.execution.push(`key ${key} was left ${decision.entry.state} by call ${decision.entry.callId}${decision.entry.lease === undefined ? '' : ` (lease of ${decision.entry.lease.owner} taken over)`}: looking it up before anything is sent`);
  if (decision.kind === 'reconcile' && decision.entry.callId !== input.call.call_id) base.reconciledEntry = decision.entry;
  let firstAmbiguous: ErrorInfo | null = pendingError;
  let lastOutcome: WriteResult['outcome'] = 'reconciled';
  for (;;) {
    if (pendingError === null) {
      const call = { ...input.call, attempt, idempotency_key: key };
      const run = await runWithDeadline({ invoker: input.invoker, args: input.args, callId: call.call_id, principal: input.principal, attempt, idempotencyKey: key, timeoutMs: rules.timeoutMs, reportsSend: rules.reportsSend, signal: input.signal, now: deps.now });
      timings.push(run.ms);
      lastOutcome = outcomeName(run.outcome.kind);
      external = newMarks();
      const r = classifyOutcome({ rules, run, call, idempotencyKey: key, now: deps.now, retrievedAt: isoAt(deps.now()), memoryPolicy: deps.memoryPolicy, external, notes: notes.execution });
      if (r.kind === 'ok') {
        notes.execution.push(`attempt ${attempt}: committed${r.envelope.side_effect.occurred ? `, external_id ${String(r.envelope.side_effect.external_id)}` : ''}`);
        return { ...base, envelope: r.envelope, replayed: false, refused: false, attempts: attempt, outcome: lastOutcome, effectPosition: 'confirmed', external };
      }
      if (r.kind === 'failed' && firstAmbiguous !== null && r.sideEffect === null) {
        // An earlier attempt may still land late: a definite failure of this retry proves nothing about it.
        notes.execution.push(`attempt ${attempt}: ${run.outcome.kind}, ${r.error.code}; an earlier attempt's outcome is still open`);
        pendingError = firstAmbiguous;
      } else if (r.kind === 'failed') {
        notes.execution.push(`attempt ${attempt}: ${run.outcome.kind}, definite failure ${r.error.code}${run.sent ? '' : ' before the request was sent'}`);
        const sideEffect = r.sideEffect ?? { occurred: false as const, operation, idempotency_key: key };
        return {
          ...base,
          envelope: failedEnvelope(call, r.error, sideEffect, r.extra),
          replayed: false,
          refused: false,
          attempts: attempt,
          outcome: lastOutcome,
          classification: r.error,
          effectPosition: r.sideEffect !== null ? 'confirmed' : run.sent ? 'sent_not_executed' : 'not_sent',
          external,
        };
      }
      if (r.kind === 'ambiguous') {
        pendingError = r.error;
        firstAmbiguous ??= r.error;
        notes.execution.push(`attempt ${attempt}: ${run.outcome.kind} after the request was sent: outcome unknown (${r.error.code}); looking up key ${key}`);
      }
    }
    if (pendingError === null) continue;
    // Persist "unknown" before looking up, so a crash here leaves an entry that recovery reconciles.
    await settleWrite(deps.store, key, { state: 'unknown', attempts: attempt, now: isoAt(deps.now()) });
    const lookup = await lookupKey(rules, input.invoker, key, deps.now);
    const ctx = reconcileContext(rules, { ...input.call, attempt }, key, isoAt(deps.now()));
    const action = decideAfterLookup(lookup, { idempotent: rules.idempotent, honoursKey: rules.honoursKey, attemptsLeft: attempt < deps.maxAttempts });
    notes.execution.push(`lookup of ${key}: ${lookup.state}${lookup.state === 'unknown' && lookup.reason ? ` (${maskText(lookup.reason)})` : ''} → ${action}`);
    if (action === 'confirm' && lookup.state === 'found') {
      return { ...base, envelope: confirmedEnvelope(ctx, lookup), replayed: false, refused: false, attempts: attempt, outcome: lastOutcome, classification: pendingError, effectPosition: 'executed_response_lost', reconciliationState: 'confirmed_present', external: newMarks() };
    }
    if (action === 'retry_same_key') {
      attempt += 1;
      pendingError = null;
      await settleWrite(deps.store, key, { state: 'in_flight', attempts: attempt, now: isoAt(deps.now()) });
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
      external,
    };
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

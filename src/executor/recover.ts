/**
 * Recovery (W2): ledger entries left `in_flight` by a crash, or `unknown` after a lost response,
 * are looked up by key. Found ⇒ `succeeded` with the side effect; otherwise they stay `unknown`
 * with a reconciliation block. Recovery never re-sends a write: it does not have the arguments,
 * and a confirmed absence may still be followed by a late commit.
 */
import { digest, type Envelope } from '../contract/index.js';
import { confirmedEnvelope, settleWrite, unknownEnvelope } from '../effects/index.js';
import type { LedgerEntry, LedgerState, Store } from '../store/types.js';
import { ledgerAuditRecord, newNotes, reconciledCallRecord } from './audit.js';
import { numberedRecords, RECONCILE_SUFFIX } from './audit-append.js';
import type { ToolDefinition } from './define-tool.js';
import type { Invoker } from './invoker.js';
import { lookupKey, reconcileContext } from './write-path.js';
import { holdLease, type LeaseConfig } from './write-lease.js';

/** What recovery did with one ledger entry. */
export interface ReconcileReport {
  readonly key: string;
  readonly tool: string;
  readonly callId: string;
  readonly before: LedgerState;
  /**
   * `confirmed_present` ⇒ settled `succeeded`; the others leave the entry `unknown`;
   * `held` ⇒ another live instance holds its lease (left alone).
   */
  readonly result: 'confirmed_present' | 'confirmed_absent' | 'unknowable' | 'tool_not_registered' | 'held';
  readonly after: LedgerState;
  readonly external_id: string | null;
  readonly envelope: Envelope | null;
}

/** Input of {@link reconcilePending}. */
export interface RecoverInput {
  readonly store: Store;
  readonly tools: ReadonlyMap<string, ToolDefinition<never, unknown>>;
  readonly invokers: ReadonlyMap<string, Invoker>;
  readonly now: () => number;
  readonly states: readonly LedgerState[];
  /** This executor's leases: an entry another live instance holds is left to it. */
  readonly lease?: LeaseConfig | undefined;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Reconcile every ledger entry in the given states, one at a time, and audit each outcome under
 * the id `<callId>#reconcile-<n>`.
 * @example const reports = await reconcilePending({ store, tools, now: Date.now, states: ['in_flight'] });
 */
export async function reconcilePending(input: RecoverInput): Promise<ReconcileReport[]> {
  const entries: LedgerEntry[] = [];
  for (const state of input.states) entries.push(...(await input.store.ledgerList({ state })));
  const reports: ReconcileReport[] = [];
  for (const entry of entries) reports.push(await reconcileEntry(input, entry));
  return reports;
}

async function reconcileEntry(input: RecoverInput, entry: LedgerEntry): Promise<ReconcileReport> {
  const tool = input.tools.get(entry.tool);
  const invoker = input.invokers.get(entry.tool);
  const base = { key: entry.key, tool: entry.tool, callId: entry.callId, before: entry.state };
  if (tool === undefined || invoker === undefined) return { ...base, result: 'tool_not_registered', after: entry.state, external_id: null, envelope: null };
  const startedAt = iso(input.now());
  const held = input.lease === undefined ? undefined : holdLease(input.store, input.lease, `recovery-${entry.callId}`, input.now);
  if (held !== undefined && input.lease !== undefined) {
    // An entry another instance holds is taken only once its lease expired (that instance died),
    // or at once when the holder was this instance's predecessor (same stable instance id).
    const over = `${input.lease.instanceId}/`;
    const taken = await input.store.ledgerClaim(entry.key, { lease: held.current(), now: startedAt, from: [entry.state], over });
    if (taken === null) return { ...base, result: 'held', after: entry.state, external_id: null, envelope: null };
    held.renew(entry.key);
  }
  try {
    return await reconcileClaimed(input, entry, tool, invoker, startedAt);
  } finally {
    held?.stop();
  }
}

async function reconcileClaimed(input: RecoverInput, entry: LedgerEntry, tool: ToolDefinition<never, unknown>, invoker: Invoker, startedAt: string): Promise<ReconcileReport> {
  const base = { key: entry.key, tool: entry.tool, callId: entry.callId, before: entry.state };
  const notes = newNotes();
  const lookup = await lookupKey(tool.rules, invoker, entry.key, input.now);
  const ctx = reconcileContext(tool.rules, { tool_name: tool.name, call_id: entry.callId, attempt: Math.max(1, entry.attempts) }, entry.key, iso(input.now()));
  let envelope: Envelope;
  let result: ReconcileReport['result'];
  if (lookup.state === 'found') {
    envelope = confirmedEnvelope(ctx, lookup);
    result = 'confirmed_present';
  } else {
    result = lookup.state === 'absent' ? 'confirmed_absent' : 'unknowable';
    const why = entry.state === 'in_flight' ? 'the executor stopped while this write was in flight' : 'an earlier attempt ended without a confirmed outcome';
    envelope = unknownEnvelope(ctx, { category: 'transport_timeout', code: 'COMMIT_STATUS_UNKNOWN', message: `${why}; the lookup by idempotency key ${lookup.state === 'absent' ? 'found nothing yet' : 'could not tell'}`, details: { lookup } }, result);
  }
  const after: LedgerState = result === 'confirmed_present' ? 'succeeded' : 'unknown';
  notes.execution.push(`recovery of ${entry.key} (was ${entry.state}): lookup ${lookup.state} → ${after}`);
  await settleWrite(input.store, entry.key, { state: after, envelope, attempts: Math.max(1, entry.attempts), now: iso(input.now()), release: true });
  // Counted by id, not by listing every record of the tool (a busy tool's whole log in memory).
  const n = (await numberedRecords(input.store, entry.callId, RECONCILE_SUFFIX, Number.MAX_SAFE_INTEGER)).length;
  await input.store.appendAudit(
    ledgerAuditRecord({
      entry,
      envelope,
      callId: `${entry.callId}${RECONCILE_SUFFIX}${n + 1}`,
      startedAt,
      finishedAt: iso(input.now()),
      ledgerState: after,
      effectPosition: result === 'confirmed_present' ? 'executed_response_lost' : 'unknown',
      reconciliationState: result,
      notes,
    }),
  );
  // The stopped call itself may have no record (it died before storing one): recovery writes it.
  if ((await input.store.getAudit(entry.callId)) === null) {
    await input.store.appendAudit(reconciledCallRecord({ entry, envelope, byCallId: `recovery of ${entry.key}`, finishedAt: iso(input.now()) })).catch(() => undefined);
  }
  return { ...base, result, after, external_id: lookup.state === 'found' ? lookup.external_id : null, envelope: { ...envelope, result_digest: digest(envelope.data) } };
}

/**
 * `diagnose` (D1): walk the four layers of one recorded call — the call, the execution, the
 * contract, the model's reading — and name the first that failed, from the store alone.
 */
import { validate, type Envelope } from '../contract/index.js';
import type { AuditRecord, Store } from '../store/types.js';
import type { CallAuditDetail } from './audit.js';
import { MAX_REPEATS, numberedRecords, RECONCILE_SUFFIX, REPEAT_SUFFIX } from './audit-append.js';
import { shapeProblems } from './diagnose-shape.js';
import { UNREADABLE_RECORD_KIND } from '../store/audit-row.js';

/** The four layers of SPEC D1. */
export type Layer = 'call' | 'execution' | 'contract' | 'model';

/** Verdict on one layer. `unresolved`: the outcome is not known yet (a write awaiting reconciliation). */
export interface LayerVerdict {
  readonly layer: Layer;
  readonly verdict: 'ok' | 'failed' | 'unresolved' | 'at_risk' | 'not_checked';
  readonly findings: readonly string[];
}

/** What `diagnose` found. */
export interface Diagnosis {
  readonly call_id: string;
  readonly tool: string;
  readonly status: string;
  /** The first layer whose verdict is `failed` or `unresolved`; null when none is. */
  readonly failed_layer: Layer | null;
  readonly layers: readonly LayerVerdict[];
  /** Later reconciliation records of this call, oldest first. */
  readonly reconciliations: readonly { readonly call_id: string; readonly status: string }[];
  /**
   * Later runs under the same call id (`<call_id>#repeat-<n>`, oldest first): a held call the
   * user confirmed and the caller repeated, a tool call id a framework ran again.
   */
  readonly repeats: readonly { readonly call_id: string; readonly status: string }[];
  /**
   * Fields of the record that are not in the shape this version writes (another version's
   * record, or an edited one), as findings naming their JSON Pointers: their layers are
   * `not_checked`. Empty for a record this version wrote.
   */
  readonly record_problems: readonly string[];
}

type Detail = Partial<CallAuditDetail> & { envelope?: Envelope };

/**
 * Diagnose one recorded call. Returns null when no audit record has this id.
 * @example
 * const d = await diagnose('call_7', store);
 * if (d?.failed_layer) console.log(`failed at the ${d.failed_layer} layer`, d.layers);
 */
export async function diagnose(callId: string, store: Store): Promise<Diagnosis | null> {
  const record = await store.getAudit(callId);
  if (record === null) return null;
  const detail = (typeof record.detail === 'object' && record.detail !== null ? record.detail : {}) as Detail;
  const related = (await numberedRecords(store, callId, RECONCILE_SUFFIX, MAX_RECONCILIATIONS)).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const repeats = await repeatsOf(store, callId);
  // A layer whose fields are not in the shape this version writes is not judged (see diagnose-shape.ts).
  const recordProblems: string[] = [];
  const readable = (layer: Layer, judge: () => LayerVerdict | Promise<LayerVerdict>): LayerVerdict | Promise<LayerVerdict> => {
    const problems = shapeProblems(layer, detail as Record<string, unknown>);
    recordProblems.push(...problems.filter((p) => !recordProblems.includes(p)));
    return problems.length === 0 ? judge() : { layer, verdict: 'not_checked', findings: problems };
  };
  // A row the store could not read (not JSON, not a record) stands in for the call: say so.
  const stub = detail as { kind?: unknown; pointer?: unknown; reason?: unknown };
  const unreadable = stub.kind === UNREADABLE_RECORD_KIND ? `the stored row's ${String(stub.pointer)} ${String(stub.reason)}` : null;
  if (unreadable !== null) recordProblems.push(unreadable);
  const layers: LayerVerdict[] = unreadable !== null
    ? (['call', 'execution', 'contract', 'model'] as const).map((layer) => ({ layer, verdict: 'not_checked' as const, findings: [unreadable] }))
    : detail.kind === 'trc.executor.call.v1'
    ? [
        await readable('call', () => callLayer(detail, repeats)),
        await readable('execution', () => executionLayer(detail, record, related, store)),
        await readable('contract', () => contractLayer(detail)),
        await readable('model', () => modelLayer(detail)),
      ]
    : (['call', 'execution', 'contract', 'model'] as const).map((layer) => ({ layer, verdict: 'not_checked' as const, findings: ['this record was not written by the executor'] }));
  const first = layers.find((l) => l.verdict === 'failed' || l.verdict === 'unresolved');
  return {
    call_id: record.callId,
    tool: record.tool,
    status: record.status,
    failed_layer: first?.layer ?? null,
    layers,
    reconciliations: related.map((r) => ({ call_id: r.callId, status: r.status })),
    repeats: repeats.map((r) => ({ call_id: r.callId, status: r.status })),
    record_problems: recordProblems,
  };
}

/** Reconciliations of one call looked up at most (one per `trc reconcile` run on a stuck key). */
const MAX_RECONCILIATIONS = 10_000;

const repeatsOf = (store: Store, callId: string): Promise<AuditRecord[]> => numberedRecords(store, callId, REPEAT_SUFFIX, MAX_REPEATS);

/** The first later run of a held call that the policy let through: the hold was resolved by it. */
function ranLater(repeats: readonly AuditRecord[]): AuditRecord | undefined {
  return repeats.find((r) => {
    const call = (r.detail as Partial<CallAuditDetail> | null)?.call;
    return call?.authorization === 'allow' && r.status !== 'needs_input';
  });
}

function callLayer(d: Detail, repeats: readonly AuditRecord[]): LayerVerdict {
  const c = d.call;
  if (c === undefined) return { layer: 'call', verdict: 'not_checked', findings: [] };
  // A secret in the arguments was masked before the record was made: say where, whatever the verdict.
  const masked = Array.isArray(c.args_masked) && c.args_masked.length > 0 ? [`secrets masked in the recorded arguments at ${c.args_masked.join(', ')} (the store never held them)`] : [];
  const notes = [...(d.notes?.call ?? []), ...masked];
  if (!c.tool_known) return { layer: 'call', verdict: 'failed', findings: ['the model called a tool that is not registered', ...notes] };
  if (c.args_valid === false) return { layer: 'call', verdict: 'failed', findings: [...c.args_findings.map((f) => `argument ${f.pointer || '(root)'} ${f.message}`), ...masked] };
  if (c.authorization === 'deny') return { layer: 'call', verdict: 'failed', findings: [`authorization denied: ${c.authorization_reason ?? ''}`, ...masked] };
  // Refused before the policy was asked (an edge's refusal: a token without the tool's scope, a
  // pin or run the store could not give): the call did not pass this layer, whatever else held.
  const refusal = d.execution?.outcome === 'not_run' && c.authorization === 'not_reached' ? d.execution.classification : null;
  if (refusal !== null && refusal !== undefined) {
    return { layer: 'call', verdict: 'failed', findings: [`refused before it ran: ${refusal.category}/${refusal.code}`, ...notes] };
  }
  if (c.authorization === 'confirm') {
    const held = `held for human confirmation: ${c.authorization_reason ?? ''}`;
    const later = ranLater(repeats);
    // Like a lost write a later reconciliation confirmed: the hold was settled by the run after it.
    if (later !== undefined) return { layer: 'call', verdict: 'ok', findings: [held, `then confirmed: the call ran again under the same call id, recorded as ${later.callId} (${later.status}); see trc diagnose ${later.callId}`, ...masked] };
    return { layer: 'call', verdict: 'failed', findings: [held, ...masked] };
  }
  return { layer: 'call', verdict: 'ok', findings: ['tool registered, arguments valid, authorized', ...notes] };
}

async function executionLayer(d: Detail, record: AuditRecord, related: readonly AuditRecord[], store: Store): Promise<LayerVerdict> {
  const e = d.execution;
  if (e === undefined || e.outcome === 'not_run') return { layer: 'execution', verdict: 'not_checked', findings: ['the tool did not run'] };
  const findings = [
    `outcome: ${e.outcome} after ${e.attempts} attempt(s)${e.timings_ms.length > 0 ? ` (${e.timings_ms.map((t) => `${Math.round(t)} ms`).join(', ')})` : ''}`,
    ...(e.idempotency_key === null ? [] : [`idempotency key ${e.idempotency_key}, side effect: ${e.effect_position.replace(/_/g, ' ')}`]),
    ...(e.classification === null ? [] : [`classified ${e.classification.category}/${e.classification.code}${e.classification.kind ? ` (${e.classification.kind})` : ''}`]),
    ...(d.notes?.execution ?? []),
  ];
  if (e.idempotency_key !== null) {
    const entry = await store.ledgerGet(e.idempotency_key);
    if (entry !== null) findings.push(`ledger now: ${entry.state} after ${entry.attempts} attempt(s)`);
  }
  const confirmedLater = related.some((r) => r.status === 'succeeded');
  if (record.status === 'unknown') {
    if (confirmedLater) return { layer: 'execution', verdict: 'ok', findings: [...findings, 'a later reconciliation confirmed the write'] };
    return { layer: 'execution', verdict: 'unresolved', findings: [...findings, 'executed or not is unknown: reconcile by idempotency key before any retry'] };
  }
  if (record.status === 'failed' && e.classification !== null && e.classification.category !== 'contract') return { layer: 'execution', verdict: 'failed', findings };
  return { layer: 'execution', verdict: 'ok', findings };
}

function contractLayer(d: Detail): LayerVerdict {
  const c = d.contract;
  if (c === undefined) return { layer: 'contract', verdict: 'not_checked', findings: [] };
  const findings = [...c.findings.map((f) => `${f.severity} ${f.rule} at ${f.pointer || '(root)'}`), ...(d.notes?.contract ?? [])];
  if (c.replaced) return { layer: 'contract', verdict: 'failed', findings: ['the envelope contradicted the contract and was replaced by an error', ...findings] };
  if (d.execution?.classification?.category === 'contract') return { layer: 'contract', verdict: 'failed', findings: [`the tool's output broke its contract: ${d.execution.classification.code}`, ...findings] };
  if (d.envelope !== undefined) {
    const v = validate(d.envelope);
    if (!v.valid) return { layer: 'contract', verdict: 'failed', findings: ['the recorded envelope does not validate', ...v.findings.map((f) => `${f.rule} at ${f.pointer}`)] };
  }
  return { layer: 'contract', verdict: 'ok', findings: [`status ${c.status}, completeness ${c.completeness ?? 'none'}`, ...findings] };
}

function modelLayer(d: Detail): LayerVerdict {
  const hazards = d.model?.hazards ?? [];
  const boundary = boundaryFindings(d.envelope);
  if (hazards.length === 0) return { layer: 'model', verdict: 'not_checked', findings: ['nothing in this result invites a misreading; check the answer itself with `trc cite`', ...boundary] };
  return { layer: 'model', verdict: 'at_risk', findings: [...hazards.map((h) => `watch for: ${h.replace(/_/g, ' ')}`), ...boundary] };
}

/** What the model was shown of the external text: which regions, which flagged, where edge came in. */
function boundaryFindings(env: Envelope | undefined): string[] {
  const entries = Array.isArray(env?.untrusted_content) ? env.untrusted_content : [];
  if (entries.length === 0) return [];
  const flagged = entries.filter((u) => u.instructional === true);
  return [`external text of ${entries.length} region(s) (${entries.map((u) => u.origin ?? u.content_id).join(', ')}) was shown to the model only inside the boundary${flagged.length > 0 ? `; ${flagged.length} flagged instruction-like, withheld where flagged` : ''}`];
}

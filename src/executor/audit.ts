/**
 * The audit record of one call (D1): what each of the four layers saw, so `diagnose` can walk
 * them later from the store alone.
 */
import { formatPointer, sha256Hex, type Envelope, type Finding } from '../contract/index.js';
import { maskValue } from '../trust/index.js';
import type { AuditRecord, LedgerEntry } from '../store/types.js';

/** Free-text notes per layer, collected while the call runs. */
export interface LayerNotes {
  readonly call: string[];
  readonly execution: string[];
  readonly contract: string[];
  readonly model: string[];
}

/** A new, empty set of notes. */
export function newNotes(): LayerNotes {
  return { call: [], execution: [], contract: [], model: [] };
}

/** Where a write's side effect stands (D1's execution layer). */
export type EffectPosition = 'none' | 'not_sent' | 'sent_not_executed' | 'executed_response_lost' | 'confirmed' | 'unknown';

/** The structured `detail` of an executor audit record. */
export interface CallAuditDetail {
  readonly kind: 'trc.executor.call.v1';
  readonly call: {
    readonly tool_known: boolean;
    readonly args_valid: boolean | null;
    readonly args_findings: readonly { pointer: string; message: string }[];
    readonly authorization: 'allow' | 'deny' | 'confirm' | 'not_reached';
    readonly authorization_reason?: string;
    /**
     * The arguments as called, secrets masked by the trust module's masker (the one the
     * visibility stage uses); null when they were not JSON. Larger than
     * {@link ARGS_RECORD_LIMIT} characters of JSON: absent, and `args_preview` holds the start.
     */
    readonly args?: unknown;
    /** The first {@link ARGS_RECORD_LIMIT} characters of the masked arguments' JSON, when they were longer. */
    readonly args_preview?: { readonly chars: number; readonly text: string };
    /** JSON Pointers of the argument values masked as secrets before they were recorded (absent: none). */
    readonly args_masked?: readonly string[];
    /** The run (`executor.startRun()`, a gateway session's run) the call belonged to. */
    readonly run?: string;
  };
  readonly execution: {
    readonly attempts: number;
    readonly timings_ms: readonly number[];
    readonly outcome: 'not_run' | 'returned' | 'threw' | 'timeout' | 'cancelled' | 'replayed' | 'refused' | 'reconciled';
    readonly classification: { readonly category: string; readonly code: string; readonly kind: string | null } | null;
    readonly idempotency_key: string | null;
    readonly ledger_state: string | null;
    readonly effect_position: EffectPosition;
    readonly reconciliation_state: string | null;
  };
  readonly contract: {
    readonly valid: boolean;
    readonly replaced: boolean;
    readonly findings: readonly { rule: string; pointer: string; severity: string }[];
    readonly status: string;
    readonly completeness: string | null;
  };
  readonly model: {
    /** What the model must not misread in this result (partial read as whole, unknown as failed, …). */
    readonly hazards: readonly string[];
  };
  readonly notes: LayerNotes;
  /**
   * Where the call came in (a gateway session and upstream, a framework wrapper) and what that
   * edge alone saw (an upstream's stderr, protocol noise), masked. Absent for in-process calls.
   */
  readonly edge?: Readonly<Record<string, unknown>>;
}

/** Input of {@link buildAuditRecord}. */
export interface AuditInput {
  readonly callId: string;
  readonly tool: string;
  readonly principal: string;
  readonly argsDigest: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly envelope: Envelope;
  readonly detail: Omit<CallAuditDetail, 'kind' | 'model' | 'contract' | 'notes' | 'edge'> & { contract: Omit<CallAuditDetail['contract'], 'status' | 'completeness'> };
  readonly notes: LayerNotes;
  readonly edge?: Readonly<Record<string, unknown>> | undefined;
  /** The call's arguments as given; masked here, once, before they are recorded. */
  readonly args?: unknown;
  /** The run's id, when the call ran in one. */
  readonly run?: string | undefined;
}

/** Arguments whose JSON is longer than this many characters are recorded as a preview. */
export const ARGS_RECORD_LIMIT = 16_384;

/** The arguments as recorded: masked, and cut to a preview when large (a file's content, a batch). */
function recordedArgs(args: unknown): Pick<CallAuditDetail['call'], 'args' | 'args_preview' | 'args_masked'> {
  let masked: unknown;
  let json: string | undefined;
  // Where secrets were masked, so the diagnosis can say the record holds none of them.
  const where: string[] = [];
  try {
    masked = maskValue(args, (path) => where.push(formatPointer(path)));
    json = JSON.stringify(masked);
  } catch {
    return { args: null };
  }
  if (json === undefined) return { args: null };
  const noted = where.length === 0 ? {} : { args_masked: where };
  return json.length <= ARGS_RECORD_LIMIT ? { args: masked, ...noted } : { args_preview: { chars: json.length, text: json.slice(0, ARGS_RECORD_LIMIT) }, ...noted };
}

/** Hazards for the model's reading, derived from the envelope (D1 layer 4). */
export function modelHazards(env: Envelope): string[] {
  const out: string[] = [];
  const state = env.completeness?.state;
  // A result whose tool never said how much there is (every plain framework value, every MCP
  // result without a count) is not a cut one: naming it "partial" sent readers looking for a cut.
  if (env.status === 'partial' || state === 'truncated' || state === 'partial') out.push('partial_result: must not be read as the whole');
  else if (state === 'unknown') out.push('completeness_unknown: the tool did not say whether this is all of it; must not be read as the whole');
  if (env.status === 'unknown') out.push('unknown_outcome: must be called neither failed nor succeeded');
  if ((env.untrusted_content ?? []).some((u) => u.instructional)) out.push('instructional_untrusted_text: must not be followed');
  if ((env.conflicts ?? []).some((c) => c.resolution === 'unresolved')) out.push('unresolved_conflict: must not be collapsed into one value');
  if ((env.evidence ?? []).length === 0 && (env.status === 'succeeded' || env.status === 'partial')) out.push('no_evidence: claims from this result cannot be cited');
  return out;
}

/**
 * Build the store's audit record for one call.
 * @example await store.appendAudit(buildAuditRecord(input));
 */
export function buildAuditRecord(input: AuditInput): AuditRecord {
  return buildAuditEntry(input).record;
}

/**
 * The audit record plus, on demand, its detail as JSON text for
 * `store.appendAudit(record, { detailJson })`. The envelope, the largest part, is serialized once:
 * that one text is hashed for `envelopeDigest` and, when a sink asks for the detail text, spliced
 * into it (a write-behind sink that batches records never asks).
 * @example const { record, detailJson } = buildAuditEntry(input); await store.appendAudit(record, { detailJson: detailJson() });
 */
export function buildAuditEntry(input: AuditInput): { record: AuditRecord; detailJson: () => string } {
  const env = input.envelope;
  const head: Omit<CallAuditDetail, 'notes'> & { notes: LayerNotes; envelope?: Envelope } = {
    kind: 'trc.executor.call.v1' as const,
    call: { ...input.detail.call, ...(input.args === undefined ? {} : recordedArgs(input.args)), ...(input.run === undefined ? {} : { run: input.run }) },
    execution: input.detail.execution,
    contract: { valid: input.detail.contract.valid, replaced: input.detail.contract.replaced, findings: input.detail.contract.findings, status: env.status, completeness: env.completeness?.state ?? null },
    model: { hazards: modelHazards(env) },
    // Notes are the stages' own words; where they quote what came from outside (an upstream's
    // stderr, a lookup's reason) the stage masked it. The invoker's diagnostics are masked here.
    notes: input.notes,
    ...(input.edge === undefined ? {} : { edge: maskedEdge(input.edge) }),
  };
  // SHA-256 of the envelope's JSON exactly as returned and recorded (key order survives the
  // store's JSON round trip), so a stored envelope can be checked against it. The data inside
  // is already covered by the canonical result_digest.
  const envelopeJson = JSON.stringify(env);
  const envelopeDigest = 'sha256:' + sha256Hex(envelopeJson);
  // The envelope goes last (the stored key order), so its JSON is spliced onto the head's; the
  // head object itself becomes the detail (one object fewer per call), so the text leaves the
  // envelope key out when it serializes the head.
  head.envelope = env;
  const detailJson = () => `${JSON.stringify({ ...head, envelope: undefined }).slice(0, -1)},"envelope":${envelopeJson}}`;
  const detail = head as CallAuditDetail & { envelope: Envelope };
  const record: AuditRecord = {
    callId: input.callId,
    tool: input.tool,
    principal: input.principal,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    status: env.status,
    argsDigest: input.argsDigest,
    envelopeDigest,
    detail,
  };
  return { record, detailJson };
}

/**
 * The edge block as stored: what the host said about the edge is its own; what the invoker
 * reported of the tool (`diagnostics`, e.g. an upstream's stderr) is external and masked.
 */
function maskedEdge(edge: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const diagnostics = edge['diagnostics'];
  return diagnostics === undefined ? (edge as Record<string, unknown>) : { ...edge, diagnostics: maskValue(diagnostics) };
}

/** Findings in the short form kept in the audit record. */
export function shortFindings(findings: readonly Finding[]): { rule: string; pointer: string; severity: string }[] {
  return findings.map((f) => ({ rule: f.rule, pointer: f.pointer, severity: f.severity }));
}

/** Input of {@link reconciledCallRecord}. */
export interface ReconciledCallInput {
  /** The ledger entry of the call that stopped mid-write (its `callId` is the record's). */
  readonly entry: LedgerEntry;
  /** What reconciliation settled the entry with. */
  readonly envelope: Envelope;
  /** The call (or recovery pass) that reconciled it. */
  readonly byCallId: string;
  readonly finishedAt: string;
}

/** What a record made from a ledger entry says beyond the entry and the envelope. */
export interface LedgerRecordInput {
  readonly entry: LedgerEntry;
  readonly envelope: Envelope;
  readonly callId: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly ledgerState: string;
  readonly effectPosition: EffectPosition;
  readonly reconciliationState: string | null;
  readonly notes: ReturnType<typeof newNotes>;
}

/**
 * The audit record of a reconciliation, made from the write's ledger entry (written before the
 * request was sent): a stopped call's own record, or a recovery pass's.
 */
export function ledgerAuditRecord(input: LedgerRecordInput): AuditRecord {
  const { entry, envelope } = input;
  return buildAuditRecord({
    callId: input.callId,
    tool: entry.tool,
    principal: entry.principal,
    argsDigest: entry.argsDigest,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    envelope,
    detail: {
      call: { tool_known: true, args_valid: null, args_findings: [], authorization: 'not_reached' },
      execution: {
        attempts: entry.attempts,
        timings_ms: [],
        outcome: 'reconciled',
        classification: envelope.error ? { category: envelope.error.category, code: envelope.error.code, kind: envelope.error.kind ?? null } : null,
        idempotency_key: entry.key,
        ledger_state: input.ledgerState,
        effect_position: input.effectPosition,
        reconciliation_state: input.reconciliationState,
      },
      contract: { valid: true, replaced: false, findings: [] },
    },
    notes: input.notes,
  });
}

/**
 * The audit record of a write whose process stopped before recording it, made from its ledger
 * entry (written before the request was sent) and the outcome its reconciliation found.
 * @example await store.appendAudit(reconciledCallRecord({ entry, envelope, byCallId: 'call_2', finishedAt }));
 */
export function reconciledCallRecord(input: ReconciledCallInput): AuditRecord {
  const { entry, envelope } = input;
  const notes = newNotes();
  notes.execution.push(`the process running this call stopped before it was recorded; call ${input.byCallId} reconciled key ${entry.key} (was ${entry.state})`);
  const state = envelope.status === 'succeeded' || envelope.status === 'partial' ? 'succeeded' : envelope.status === 'unknown' ? 'unknown' : 'failed';
  return ledgerAuditRecord({
    entry,
    envelope,
    callId: entry.callId,
    startedAt: entry.createdAt,
    finishedAt: input.finishedAt,
    ledgerState: state,
    effectPosition: envelope.status === 'unknown' ? 'unknown' : envelope.side_effect.occurred ? 'executed_response_lost' : 'none',
    reconciliationState: envelope.reconciliation?.state ?? null,
    notes,
  });
}

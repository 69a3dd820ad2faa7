/**
 * What the inspector shows for one recorded call: the audit record, the four-layer diagnosis,
 * a fresh validation of the recorded envelope, what the model read (the pipeline's model text,
 * which every renderer shows), and its untrusted texts with what the detector flagged. The same
 * for in-process, gateway and framework calls: they share one record shape. Pure apart from
 * reading the store.
 */
import { validate, type Envelope, type ValidationResult } from '../contract/index.js';
import { diagnose, renderModelText, type Diagnosis } from '../executor/index.js';
import type { AuditRecord, Store } from '../store/index.js';
import { modelSeen, type ModelSeen } from './model-seen.js';

/** One line of the call list. */
export interface CallSummary {
  readonly call_id: string;
  readonly tool: string;
  readonly principal: string;
  readonly status: string;
  readonly started_at: string;
  readonly duration_ms: number | null;
  readonly error_code: string | null;
  readonly warnings: number;
  readonly instructional: number;
  /** The gateway session the call came through; null in process. */
  readonly session: string | null;
  /** The run the call belonged to (`executor.startRun()`, a gateway session's run). */
  readonly run: string | null;
  /** Where the call came in: `gateway`, `framework`; null in process. */
  readonly edge: string | null;
}

/** The detail view of one call. */
export interface CallView {
  readonly record: AuditRecord;
  readonly diagnosis: Diagnosis | null;
  /** Validation of the recorded envelope now; null when the record holds none. */
  readonly validation: ValidationResult | null;
  /** The text the model read for this call; null when the record holds none. */
  readonly model_text: string | null;
  /** What the model was given, as the call's edge rendered it (MCP blocks for the gateway). */
  readonly model_seen: ModelSeen | null;
  /**
   * The arguments as recorded, secrets masked by the executor before it stored them; `preview`
   * is the start of their JSON when they were too large to keep; null in records that predate it.
   */
  readonly args: { readonly value: unknown } | { readonly preview: string; readonly chars: number } | null;
  /** Where the call came in (`gateway`, `framework`), when not in process. */
  readonly edge: string | null;
  readonly untrusted: readonly { content_id: string; origin: string | null; instructional: boolean; families: readonly string[]; text: string }[];
}

interface DetailShape {
  envelope?: unknown;
  error_code?: string | null;
  warnings?: unknown;
  call?: { args?: unknown; args_preview?: { chars?: unknown; text?: unknown }; run?: unknown };
  edge?: { kind?: unknown; transport?: unknown; framework?: unknown; session?: unknown; run?: unknown; structured?: unknown };
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

const detailOf = (r: AuditRecord): DetailShape => (typeof r.detail === 'object' && r.detail !== null ? (r.detail as DetailShape) : {});

/** Entries of the recorded untrusted_content that are objects (a foreign record may hold anything). */
const untrustedOf = (env: Envelope | null): NonNullable<Envelope['untrusted_content']> =>
  (Array.isArray(env?.untrusted_content) ? env.untrusted_content : []).filter((u) => typeof u === 'object' && u !== null);

const envelopeOf = (r: AuditRecord): Envelope | null => {
  const env = detailOf(r).envelope;
  return typeof env === 'object' && env !== null && !Array.isArray(env) ? (env as Envelope) : null;
};

/**
 * The list line of a record. Fields missing from old or foreign records become null/0.
 * @example summarize(record).status // 'succeeded'
 */
export function summarize(r: AuditRecord): CallSummary {
  const d = detailOf(r);
  const env = envelopeOf(r);
  const ms = Date.parse(r.finishedAt) - Date.parse(r.startedAt);
  const untrusted = untrustedOf(env);
  const warnings = Array.isArray(env?.warnings) ? env.warnings.length : Array.isArray(d.warnings) ? d.warnings.length : 0;
  return {
    call_id: r.callId,
    tool: r.tool,
    principal: r.principal,
    status: r.status,
    started_at: r.startedAt,
    duration_ms: Number.isFinite(ms) ? ms : null,
    error_code: typeof d.error_code === 'string' ? d.error_code : typeof env?.error?.code === 'string' ? env.error.code : null,
    warnings,
    instructional: untrusted.filter((u) => u.instructional === true).length,
    session: text(d.edge?.session),
    run: text(d.call?.run) ?? text(d.edge?.run),
    edge: text(d.edge?.kind),
  };
}

function argsOf(d: DetailShape): CallView['args'] {
  const call = d.call;
  if (typeof call !== 'object' || call === null) return null;
  if ('args' in call) return { value: call.args };
  const p = call.args_preview;
  return typeof p?.text === 'string' && typeof p.chars === 'number' ? { preview: p.text, chars: p.chars } : null;
}

/**
 * Build the detail view of `callId`, or null when the store has no such record.
 * @example const view = await viewCall(store, 'call_7');
 */
export async function viewCall(store: Store, callId: string): Promise<CallView | null> {
  const record = await store.getAudit(callId);
  if (record === null) return null;
  const env = envelopeOf(record);
  const detail = detailOf(record);
  const edge = detail.edge;
  // The pipeline's presentation when it made one (user-only fields hidden by the tool's rules),
  // else the same model view every renderer computed from this very envelope.
  let modelText: string | null = null;
  try {
    modelText = env === null ? null : renderModelText(env);
  } catch {
    modelText = null;
  }
  return {
    record,
    diagnosis: await diagnose(callId, store),
    validation: env === null ? null : validate(env),
    model_text: modelText,
    model_seen: env === null ? null : modelSeen(env, edge),
    args: argsOf(detail),
    edge: edge === undefined || typeof edge.kind !== 'string' ? null : [edge.kind, edge.transport ?? edge.framework].filter((x) => typeof x === 'string').join(' over '),
    untrusted: untrustedOf(env).map((u) => ({
      content_id: u.content_id,
      origin: u.origin ?? null,
      instructional: u.instructional === true,
      families: Array.isArray(u.families) ? u.families : [],
      text: typeof u.text === 'string' ? u.text : JSON.stringify(u.text ?? null),
    })),
  };
}

/**
 * The pipeline's stages as small swappable adapters. Each takes an envelope and returns one;
 * `createExecutor({ stages })` replaces any of them. Stages read the tool's rules, the clock and
 * what the attempt answered from their context — never a tool definition.
 *
 * Order after the attempt was classified and normalized:
 * visibility (internal fields out, secrets masked) → budget (fit, store the raw result) →
 * evidence (lint, E7) → trust (isolate external text, detect instructions) → present (the model
 * text) → finalize (digest + invariants).
 */
import { digest, failed, validate, type Envelope, type ErrorInfo, type Finding } from '../contract/index.js';
import { rememberValid } from '../contract/known-valid.js';
import { DEEP_RESULT_LEVELS, nestedDeeperThan } from './nesting.js';
import type { Budget } from '../budget/index.js';
import type { EvidencePolicy } from '../evidence/index.js';
import type { LayerNotes } from './audit.js';
import type { Outcome } from './invoker.js';
import { budgetStage, evidenceStage, modelTextStage, trustStage, visibilityStage } from './module-stages.js';
import type { ExternalMarks } from './normalize-mcp.js';
import type { ToolRules } from './rules.js';
import type { Store } from '../store/types.js';
import type { Principal, ToolCall } from './types.js';

/** What every stage can read. */
export interface StageContext {
  /** The rules of the tool; null when the call named no registered tool. */
  readonly tool: ToolRules | null;
  readonly call: ToolCall;
  readonly principal: Principal;
  readonly notes: LayerNotes;
  /** Where stages keep what leaves the envelope (the budget stage's raw results). */
  readonly store: Store;
  /** The executor's clock (milliseconds since the epoch). */
  readonly now: () => number;
  /** What the last attempt answered (the wire result), when it answered. */
  readonly outcome: Outcome | null;
  /** External material normalization found, for the trust stage. */
  readonly external: ExternalMarks;
}

/** A stage over the envelope. */
export type EnvelopeStage = (envelope: Envelope, ctx: StageContext) => Envelope | Promise<Envelope>;

/** A policy decision (T4): allow, deny, or hold for human confirmation. */
export type PolicyDecision =
  | { readonly effect: 'allow' }
  | { readonly effect: 'deny'; readonly code: string; readonly reason: string }
  | { readonly effect: 'confirm'; readonly code: string; readonly reason: string };

/** Decide whether a call may run. Nothing inside a tool result reaches this function. */
export type Policy = (request: { tool: ToolRules; args: unknown; principal: Principal; call: ToolCall }) => PolicyDecision | Promise<PolicyDecision>;

/** The replaceable stages, in pipeline order. */
export interface Stages {
  readonly policy: Policy;
  /** Internal fields out, secrets masked — before anything is fitted, summarized or stored. */
  readonly visibility: EnvelopeStage;
  readonly budget: EnvelopeStage;
  readonly evidence: EnvelopeStage;
  /** Isolation of external text and instruction detection — over the fitted result. */
  readonly trust: EnvelopeStage;
  /** The model-facing text (`presentation.model_content`). */
  readonly present: EnvelopeStage;
}

/**
 * Default policy: allow every call of a registered tool, except that a tool whose rules require
 * confirmation (a `high`-risk in-process tool, a gateway tool with `confirmation_required`) needs
 * the principal's confirmation of this call id (`principal.confirmed`). Replace it with the trust
 * module's `authorize` (or your own) for subject, scope and input constraints.
 */
export const permissivePolicy: Policy = ({ tool, principal, call }) => {
  if (tool.confirmation.required && !(principal.confirmed ?? []).includes(call.call_id)) {
    const how = tool.confirmation.how === undefined ? '' : `; ${tool.confirmation.how}`;
    return { effect: 'confirm', code: 'CONFIRMATION_REQUIRED', reason: `"${tool.name}" is ${tool.risk}-risk: the user must confirm call ${call.call_id} before it runs${how}` };
  }
  return { effect: 'allow' };
};

/** A stage that changes nothing and records that its module was not installed. */
export function passThrough(layer: keyof LayerNotes, name: string): EnvelopeStage {
  return (envelope, ctx) => {
    ctx.notes[layer].push(`${name} stage not installed: not checked`);
    return envelope;
  };
}

/**
 * A presentation that shows the model status, facts and bookkeeping as labelled JSON, without
 * any trust processing. Prefer the default (`modelTextStage`), which applies the trust boundary.
 */
export const presentAsJson: EnvelopeStage = (envelope) => presentJson(envelope);

function presentJson(envelope: Envelope): Envelope {
  if (envelope.presentation !== undefined) return envelope;
  const view: Record<string, unknown> = { call_id: envelope.call.call_id, status: envelope.status };
  if (envelope.data !== null) view['data'] = envelope.data;
  if (envelope.completeness !== undefined) view['completeness'] = envelope.completeness;
  if (envelope.error) view['error'] = { code: envelope.error.code, message: envelope.error.message, retryable: envelope.error.retryable, action: envelope.error.action };
  if (envelope.side_effect.operation !== 'read') view['side_effect'] = envelope.side_effect;
  if (envelope.reconciliation) view['reconciliation'] = envelope.reconciliation;
  if (envelope.warnings.length > 0) view['warnings'] = envelope.warnings;
  return { ...envelope, presentation: { model_content: JSON.stringify(view), user_visible: true } };
}

/** The default stages: the trust, budget and evidence modules, and the trust module's model text. */
export function defaultStages(options: { budget?: Budget; evidence?: EvidencePolicy } = {}): Stages {
  return {
    policy: permissivePolicy,
    visibility: visibilityStage(),
    budget: budgetStage(options.budget),
    evidence: evidenceStage(options.evidence),
    trust: trustStage(),
    present: modelTextStage(),
  };
}

/**
 * Output-schema check (S12): `data` must match the tool's declared output schema.
 * Returns findings with pointers rooted at the envelope (`/data/...`).
 */
export function checkOutputSchema(rules: Pick<ToolRules, 'validateOutput'>, data: unknown): Finding[] {
  const check = rules.validateOutput;
  if (check === null) return [];
  const r = check(data);
  if (r.ok !== false) return [];
  return r.findings.map((f) => ({ rule: 'SCHEMA' as const, pointer: f.pointer, message: `output ${f.message}`, severity: 'error' as const }));
}

/**
 * Last stage: refresh the digest, validate, and never emit a contradictory envelope — an invalid
 * one is replaced by a `failed` internal-contract error that keeps the side effect it reported.
 * With `digestIsFresh` (the data is the very object the builder digested and no stage could have
 * mutated it) the builder's digest is kept instead of canonicalizing the data a second time.
 */
export function finalize(envelope: Envelope, notes: LayerNotes, digestIsFresh: boolean): { envelope: Envelope; findings: readonly Finding[]; replaced: boolean } {
  // Common path: the builder's digest stands and is already the last key (where the output puts
  // it), so the envelope is validated and returned as is, without two copies.
  if (digestIsFresh && envelope.result_digest !== undefined && lastKey(envelope) === 'result_digest') {
    const checked = validate(envelope, { checkDigest: false });
    if (checked.valid) return { envelope: rememberValid(envelope), findings: checked.findings, replaced: false };
  }
  const { result_digest: builderDigest, ...rest } = envelope;
  let fresh: string | undefined = digestIsFresh ? builderDigest : undefined;
  let findings: Finding[] = [];
  if (fresh === undefined) {
    try {
      fresh = digest(rest.data);
    } catch {
      findings.push({ rule: 'S9.data-not-canonicalizable', pointer: '/data', message: 'data has no RFC 8785 canonical form', severity: 'error' });
    }
  }
  // The digest was just computed from this data, so validate() need not recompute it.
  const result = validate(rest);
  findings = [...findings, ...result.findings];
  if (result.valid && fresh !== undefined) return { envelope: rememberValid({ ...rest, result_digest: fresh }), findings, replaced: false };
  notes.contract.push(`envelope replaced: ${findings.filter((f) => f.severity === 'error').map((f) => `${f.rule} at ${f.pointer || '(root)'}`).join('; ')}`);
  const replacement = withheld(envelope, {
    category: 'contract',
    code: 'INTERNAL_CONTRACT_VIOLATION',
    message: 'the tool result would have contradicted the contract, so it was withheld',
    retryable: false,
    action: 'explain_to_user',
    kind: 'execution',
    details: { findings: findings.filter((f) => f.severity === 'error').map((f) => ({ rule: f.rule, pointer: f.pointer, message: f.message })) },
  });
  return { envelope: replacement, findings, replaced: true };
}

/**
 * A `failed` envelope in place of a result that cannot be emitted. It keeps the side effect the
 * result reported when one occurred (with its external id): withholding the data must not hide
 * that the world changed.
 */
export function withheld(envelope: Envelope, error: ErrorInfo): Envelope {
  const se = envelope.side_effect;
  const keepEffect = se.occurred && typeof se.external_id === 'string'
    ? { occurred: true as const, operation: se.operation, external_id: se.external_id, idempotency_key: se.idempotency_key ?? null, committed_at: se.committed_at ?? null }
    : { occurred: false as const, operation: se.operation };
  return failed({ call: envelope.call, error, side_effect: keepEffect });
}

/**
 * The error of a result the content stages could not process: one nested past what their
 * recursive walks can go is named as such; anything else a stage throws is reported with its
 * message.
 */
export function unprocessedError(envelope: Envelope, cause: unknown): ErrorInfo {
  return nestedDeeperThan(envelope.data, DEEP_RESULT_LEVELS)
    ? { category: 'contract', code: 'RESULT_NESTED_TOO_DEEPLY', message: `the tool result is nested more than ${DEEP_RESULT_LEVELS} levels deep, too deeply to be checked and fitted, so it was withheld`, retryable: false, action: 'explain_to_user', kind: 'execution' }
    : { category: 'internal', code: 'RESULT_NOT_PROCESSED', message: `the tool result could not be checked and fitted, so it was withheld: ${cause instanceof Error ? cause.message : String(cause)}`, retryable: false, action: 'explain_to_user', kind: 'execution' };
}

function lastKey(value: object): string | undefined {
  let last: string | undefined;
  for (const k in value) last = k;
  return last;
}

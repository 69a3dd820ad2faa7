/**
 * The pipeline of one call — the only one (ARCHITECTURE "One pipeline, many invokers"):
 * args → policy → write path (ledger, reconciliation, replay, reused-key refusal) → invoke under
 * the deadline → classify → normalize → visibility → budget → evidence → trust → present →
 * finalize (digest + invariants) → ledger settle → state write-back → audit.
 * Every call gets exactly one envelope and one audit record, whatever happened.
 */
import { failed, needsInput, type CallInput, type Envelope, type ErrorInfo, type Warning } from '../contract/index.js';
import { applyStatePatch, argsDigest, idempotencyKey, settlePatch } from '../effects/index.js';
import { buildAuditEntry, newNotes, type AuditInput, reconciledCallRecord, shortFindings, type CallAuditDetail, type EffectPosition, type LayerNotes } from './audit.js';
import { appendCallRecord, repeatNote } from './audit-append.js';
import { auditPartsByReference, hasLargeParts } from './audit-parts.js';
import { markMasked } from '../trust/index.js';
import { lateAuditEntry } from './audit-sink.js';
import { callShapeProblem, invalidCallError, recordableCall } from './call-shape.js';
import { classifyOutcome, failedEnvelope } from './classify.js';
import type { Invoker, Outcome } from './invoker.js';
import { isoAt } from './iso-time.js';
import { withPresentation } from './module-stages.js';
import type { ExternalMarks } from './normalize-mcp.js';
import type { ToolRules } from './rules.js';
import { runHold } from './run-hold.js';
import { runWithDeadline } from './run-with-deadline.js';
import { runSynced } from './run-sync.js';
import { finalize, unprocessedError, withheld, type StageContext, type Stages } from './stages.js';
import { errorText, ledgerFailure, stepFailure } from './step-failures.js';
import { endCallSpan, spanAttempt, startCallSpan } from './telemetry.js';
import type { Principal, ToolCall } from './types.js';
import { outcomeName, runWrite } from './write-path.js';
import { holdLease, leaseFor, type HeldLease } from './write-lease.js';
import type { LedgerEntry } from '../store/types.js';

import type { PipelineDeps, RunOptions } from './pipeline-types.js';

export type { PipelineDeps, PipelineSegment, RunOptions } from './pipeline-types.js';

type Detail = {
  call: { tool_known: boolean; args_valid: boolean | null; args_findings: { pointer: string; message: string }[]; authorization: CallAuditDetail['call']['authorization']; authorization_reason: string | undefined };
  execution: { attempts: number; timings_ms: number[]; outcome: CallAuditDetail['execution']['outcome']; classification: ErrorInfo | null; idempotency_key: string | null; ledger_state: string | null; effect_position: EffectPosition; reconciliation_state: string | null };
};

const CONTENT = ['visibility', 'budget', 'evidence', 'trust', 'present'] as const;

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Run one call through the whole pipeline; always resolves to a valid envelope. `rules` null:
 * the call named no known tool.
 * @example const env = await runPipeline(deps, rules, invoker, { call_id: 'c1', tool_name: 'echo', args: {} }, { id: 'u1' });
 */
export async function runPipeline(deps: PipelineDeps, rules: ToolRules | null, invoker: Invoker | null, given: ToolCall, principal: Principal, options: RunOptions = {}): Promise<Envelope> {
  // A malformed call (a JavaScript caller's number for a call id, an empty key) runs nothing:
  // it is recorded under a call that fits the envelope, and refused below.
  const shape = callShapeProblem(given);
  const c = shape === null ? given : recordableCall(given);
  if (shape !== null) options = { ...options, refused: invalidCallError(shape) };
  const { now, stages, lap } = deps;
  const startedAt = isoAt(now());
  const notes = newNotes();
  const callInfo: CallInput = { tool_name: c.tool_name || rules?.name || 'unknown', call_id: c.call_id || 'unknown', attempt: 1 };
  let aDigest: string;
  try {
    aDigest = argsDigest(c.args);
  } catch {
    aDigest = 'sha256:unrepresentable';
  }
  const detail: Detail = {
    call: { tool_known: false, args_valid: null, args_findings: [], authorization: 'not_reached', authorization_reason: undefined },
    execution: { attempts: 0, timings_ms: [], outcome: 'not_run', classification: null, idempotency_key: null, ledger_state: null, effect_position: 'none', reconciliation_state: null },
  };
  lap?.('prepare');
  let external: ExternalMarks = { errorText: [], warnings: new Set() };
  let outcome: Outcome | null = null;
  // The call's one span (OpenTelemetry, when installed): opened here, ended in finish().
  const span = startCallSpan(callInfo.tool_name, callInfo.call_id, options.edge, options.traceLinks);

  const stageCtx = (): StageContext => ({ tool: rules, call: c, principal, notes, store: deps.store, now, outcome, external });

  /**
   * The result as the run must see it when fitting cut it: the visible, unfitted result through
   * the trust stage. The model may read all of it (the stored raw result is linked), so all of its
   * untrusted text is the run's taint source, not only the part that fitted.
   */
  let unfitted: Envelope | null = null;

  /** The content stages, in order; most answer synchronously, so only a real promise is awaited. */
  const content = async (env: Envelope, ctx: StageContext): Promise<Envelope> => {
    let out = env;
    let visible = env;
    for (let i = 0; i < CONTENT.length; i++) {
      const name = CONTENT[i] as (typeof CONTENT)[number];
      if (name === 'budget') visible = out;
      const next = stages[name](out, ctx);
      out = isThenable(next) ? await next : next;
      lap?.(name);
    }
    if (options.run !== undefined && out.completeness?.state === 'truncated' && out.completeness.reason === 'context_budget') {
      // Its own notes: the audit describes the fitted result, once.
      const whole = stages.trust(visible, { ...ctx, notes: newNotes() });
      unfitted = isThenable(whole) ? await whole : whole;
    }
    return out;
  };

  const finish = async (env: Envelope, opts: { replayed?: boolean; settleKey?: string; lease?: HeldLease | undefined; reconciled?: LedgerEntry | undefined } = {}): Promise<Envelope> => {
    let out = env;
    let findings: CallAuditDetail['contract']['findings'] = [];
    let replaced = false;
    const ctx = stageCtx();
    if (opts.replayed === true) {
      // The recorded envelope was finalized when it was recorded: it only answers this call now.
      const replay: Envelope = { ...out, call: { ...out.call, call_id: callInfo.call_id }, warnings: [...out.warnings, { code: 'IDEMPOTENT_REPLAY', message: `replayed the result recorded for idempotency key ${String(out.call.idempotency_key)}; the tool did not run again` }] };
      const next = stages.present(replay, ctx);
      out = isThenable(next) ? await next : next;
    } else {
      const before = out.data;
      try {
        out = await content(out, ctx);
      } catch (cause) {
        // A stage that throws (a result nested past the stack, a custom stage's bug) must not
        // turn the call into a rejected promise: no audit record, no settled ledger entry.
        notes.contract.push(`content stages failed: ${errorText(cause)}`);
        out = withheld(out, unprocessedError(out, cause));
        replaced = true;
      }
      const f = finalize(out, notes, out.data === before && !deps.customDataStages);
      lap?.('finalize');
      out = f.envelope;
      findings = shortFindings(f.findings);
      replaced = replaced || f.replaced;
      if (replaced) {
        // The replacement is text of ours about the result: it passes the trust boundary too.
        for (const stage of [stages.visibility, stages.trust, stages.present]) {
          const next = stage(out, ctx);
          out = isThenable(next) ? await next : next;
        }
      }
    }
    // A write's ledger entry is settled with its audit record (one commit where the store can) or
    // after it: a process stopped in between leaves the entry open, and whoever reconciles it
    // records the call.
    const recorded = out;
    const ledgerState = out.status === 'succeeded' || out.status === 'partial' ? 'succeeded' : out.status === 'unknown' ? 'unknown' : 'failed';
    if (opts.settleKey !== undefined) detail.execution.ledger_state = ledgerState;
    if (out.state_patch !== undefined) out = await writeBackState(out, notes, ctx);
    const diagnostics = invoker?.diagnostics?.();
    const edge = options.edge === undefined && diagnostics === undefined ? undefined : { ...options.edge, ...(diagnostics === undefined ? {} : { diagnostics }) };
    // Binary parts go to the store's resources and the record references them (audit-parts.ts).
    // A store that cannot take the parts (full, closed) gets the record with the parts inline.
    const audited = hasLargeParts(out) ? await auditPartsByReference(deps.store, out, { principal: principal.id, tool: callInfo.tool_name }).catch(() => out) : out;
    const durable = rules?.effect === 'write';
    const auditInput: AuditInput = {
      callId: callInfo.call_id,
      tool: callInfo.tool_name,
      principal: principal.id,
      argsDigest: aDigest,
      startedAt,
      finishedAt: isoAt(now()),
      envelope: audited,
      detail: { call: auditCall(detail.call), execution: auditExecution(detail.execution), contract: { valid: !replaced, replaced, findings } },
      notes,
      edge,
      args: c.args,
      run: options.run?.id,
    };
    // A sink that stores reads after the answer makes their records then, off the answer's path.
    const entry = deps.audit.lateRecords === true && !durable && opts.settleKey === undefined ? lateAuditEntry(() => buildAuditEntry(auditInput)) : buildAuditEntry(auditInput);
    lap?.('audit-record');
    const settle = opts.settleKey === undefined ? undefined : {
      key: opts.settleKey,
      patch: settlePatch({ state: ledgerState, envelope: recorded, attempts: Math.max(1, detail.execution.attempts), now: isoAt(now()), release: true }),
    };
    let settled = false;
    try {
      // One commit for the record and the settle where the sink can; else two steps. A call id
      // the store already holds (a confirmed re-run of a held call) goes under its next repeat.
      const rebuild = (recordId: string) => buildAuditEntry({ ...auditInput, callId: recordId, notes: { ...notes, call: [...notes.call, repeatNote(callInfo.call_id, recordId)] } });
      settled = await appendCallRecord({ sink: deps.audit, store: deps.store, callId: callInfo.call_id, entry, rebuild, durable, settle });
      lap?.('audit-sink');
    } catch (cause) {
      // The call's result stands even when the audit store fails; say so in the envelope.
      const warned: Envelope = { ...out, warnings: [...out.warnings, { code: 'AUDIT_WRITE_FAILED', message: `the audit record could not be stored: ${(cause as Error).message}` }] };
      const next = stages.present(warned, ctx);
      out = isThenable(next) ? await next : next;
    }
    if (settle !== undefined && !settled) {
      try {
        await deps.store.ledgerUpdate(settle.key, settle.patch);
      } catch (cause) {
        // The result stands; the entry stays open, and recovery (`recoverInFlight`) settles it.
        const warned: Envelope = { ...out, warnings: [...out.warnings, { code: 'LEDGER_SETTLE_FAILED', message: `the ledger entry of key ${settle.key} could not be settled (${errorText(cause)}); it stays open until recovery reconciles it` }] };
        const next = stages.present(warned, ctx);
        out = isThenable(next) ? await next : next;
      }
    }
    opts.lease?.stop();
    if (opts.reconciled !== undefined) await recordReconciledCall(deps, opts.reconciled, recorded, callInfo.call_id, isoAt(now()));
    // What the run saw (untrusted content, trusted facts) is what later calls are checked against.
    if (options.run !== undefined) {
      if (unfitted !== null) options.run.observe(unfitted, c.args);
      options.run.observe(out, c.args);
      const synced = await runSynced(options.run);
      if (synced !== null) out = { ...out, warnings: [...out.warnings, { code: 'RUN_NOT_STORED', message: `what this call returned could not be recorded in run ${options.run.id}: ${synced.message}` }] };
    }
    endCallSpan(span, out, detail.execution);
    // Masked by the visibility stage, and everything after derives from masked text.
    return deps.customDataStages ? out : markMasked(out);
  };

  const operationOf = (r: ToolRules | null) => (r?.effect === 'write' ? r.operation : 'read');
  if (options.refused !== undefined) {
    detail.call.tool_known = rules !== null;
    detail.execution.classification = options.refused;
    notes.call.push(`not run: ${options.refused.code}: ${options.refused.message}`);
    return finish(failed({ call: callInfo, error: options.refused, side_effect: { occurred: false, operation: operationOf(rules) } }));
  }
  if (rules === null || invoker === null) {
    notes.call.push(`no tool named "${c.tool_name}" is registered`);
    return finish(failed({ call: callInfo, error: { category: 'protocol', code: 'UNKNOWN_TOOL', message: `no tool named "${c.tool_name}" is registered`, retryable: false, action: 'fix_arguments', kind: 'protocol' } }));
  }
  detail.call.tool_known = true;
  const noEffect = { occurred: false as const, operation: operationOf(rules) };
  const argsCheck = rules.validateInput?.(c.args);
  if (argsCheck !== undefined && argsCheck.ok === false) {
    const problems = argsCheck.findings.map((f) => ({ pointer: f.pointer, message: f.message }));
    detail.call.args_valid = false;
    detail.call.args_findings = problems;
    notes.call.push(`arguments rejected: ${problems.map((p) => `${p.pointer || '(root)'} ${p.message}`).join('; ')}`);
    const error: ErrorInfo = { category: 'validation', code: 'INVALID_ARGUMENTS', message: `the arguments do not match the input schema of "${rules.name}": ${problems.map((p) => `${p.pointer || '(root)'} ${p.message}`).join('; ')}`, retryable: false, action: 'fix_arguments', kind: 'execution', details: { findings: problems } };
    detail.execution.classification = error;
    return finish(failed({ call: callInfo, error, side_effect: noEffect }));
  }
  if (aDigest === 'sha256:unrepresentable') {
    // Arguments must be JSON: NaN, Infinity, cycles or lone surrogates have no canonical form,
    // so no idempotency key or audit digest could be made for them.
    detail.call.args_valid = false;
    const error: ErrorInfo = { category: 'validation', code: 'ARGUMENTS_NOT_JSON', message: 'the arguments are not plain JSON (NaN, Infinity, a cycle or a lone surrogate)', retryable: false, action: 'fix_arguments', kind: 'execution' };
    detail.execution.classification = error;
    notes.call.push('arguments rejected: not plain JSON');
    return finish(failed({ call: callInfo, error, side_effect: noEffect }));
  }
  detail.call.args_valid = true;
  if (rules.hold !== undefined) {
    detail.call.authorization = 'deny';
    detail.call.authorization_reason = rules.hold.reason;
    notes.call.push(`held (${rules.hold.code}): ${rules.hold.reason}`);
    const error: ErrorInfo = { category: 'authorization', code: rules.hold.code, message: rules.hold.reason, retryable: false, action: 'explain_to_user', kind: 'execution' };
    detail.execution.classification = error;
    return finish(failed({ call: callInfo, error, side_effect: noEffect }));
  }
  lap?.('args');
  let policyPrincipal = principal;
  if (options.run !== undefined) {
    // A stored run reads what other processes recorded first, and records its verdict (a use
    // of an approval above all) before the call goes on; when it cannot, nothing runs.
    const before = await runSynced(options.run);
    const held = before === null ? runHold(options.run, rules, c, principal, options.confirmation, notes) : null;
    const after = before === null ? await runSynced(options.run) : before;
    if (held === null || (after !== null && !('envelope' in held))) {
      const error = after ?? before;
      const info: ErrorInfo = { category: error?.code === 'RUN_CONFIRMATION_USED' ? 'conflict' : 'internal', code: error?.code ?? 'RUN_NOT_STORED', message: `run ${options.run.id}: ${error?.message ?? 'not stored'}`, retryable: error?.code !== 'RUN_CONFIRMATION_USED', action: error?.code === 'RUN_CONFIRMATION_USED' ? 'ask_user' : 'retry_later', kind: 'execution' };
      detail.execution.classification = info;
      notes.call.push(`not run: ${info.code}: ${info.message}`);
      return finish(failed({ call: callInfo, error: info, side_effect: noEffect }));
    }
    if ('envelope' in held) {
      detail.call.authorization = 'confirm';
      detail.call.authorization_reason = held.message;
      return finish(held.envelope(callInfo, noEffect));
    }
    // The user confirmed this very call: that is the policy's confirmation of it too.
    if (held.confirmed) policyPrincipal = { ...principal, confirmed: [...(principal.confirmed ?? []), c.call_id] };
  }
  let decision: Awaited<ReturnType<Stages['policy']>>;
  try {
    const pending = stages.policy({ tool: rules, args: c.args, principal: policyPrincipal, call: c });
    decision = isThenable(pending) ? await pending : pending;
  } catch (cause) {
    // A policy that throws has decided nothing: the call does not run.
    const error = stepFailure('POLICY_FAILED', 'the policy failed, so the call did not run', cause);
    detail.execution.classification = error;
    notes.call.push(`not run: ${error.message}`);
    return finish(failed({ call: callInfo, error, side_effect: noEffect }));
  }
  lap?.('policy');
  detail.call.authorization = decision.effect;
  if (decision.effect !== 'allow') {
    detail.call.authorization_reason = decision.reason;
    notes.call.push(`policy: ${decision.effect} (${decision.code}): ${decision.reason}`);
    if (decision.effect === 'confirm') return finish(needsInput({ call: callInfo, code: decision.code, message: decision.reason, category: 'authorization', side_effect: noEffect }));
    const error: ErrorInfo = { category: 'authorization', code: decision.code, message: decision.reason, retryable: false, action: 'request_authorization', kind: 'execution' };
    detail.execution.classification = error;
    return finish(failed({ call: callInfo, error, side_effect: noEffect }));
  }

  // Wrap the invoker so the stages can read what the last attempt answered (the wire result).
  let sent = false;
  const watched: Invoker = {
    attempt: async (args, ctx) => {
      sent = true;
      spanAttempt(span, ctx.attempt);
      // Inherit rather than spread: the context's signal is made lazily, on first read.
      const o = await invoker.attempt(args, span === null ? ctx : Object.assign(Object.create(ctx) as typeof ctx, { traceparent: span.traceparent }));
      outcome = o;
      return o;
    },
    ...(invoker.lookup === undefined ? {} : { lookup: (key, ctx) => (invoker.lookup as NonNullable<Invoker['lookup']>)(key, ctx) }),
  };

  if (rules.effect === 'write') {
    const key = c.idempotency_key ?? idempotencyKey({ tool: rules.name, args: c.args, principal: principal.id, scope: c.scope ?? null });
    detail.execution.idempotency_key = key;
    const lease = deps.lease === undefined ? undefined : holdLease(deps.store, leaseFor(deps.lease, rules.timeoutMs), callInfo.call_id, now);
    let w: Awaited<ReturnType<typeof runWrite>>;
    try {
      w = await runWrite({ store: deps.store, now, maxAttempts: deps.maxAttempts, memoryPolicy: deps.memoryPolicy }, { rules, invoker: watched, args: c.args, call: callInfo, principal, key, signal: options.signal, notes, lease });
    } catch (cause) {
      // The ledger failed (a closed or broken store). Before any attempt nothing was sent; after
      // one, the write may have landed and only a lookup can tell.
      lease?.stop();
      detail.execution.ledger_state = 'failed_to_write';
      return finish(ledgerFailure(rules, callInfo, key, sent, cause, notes, now));
    }
    external = w.external;
    Object.assign(detail.execution, { attempts: w.attempts, timings_ms: w.timings, outcome: w.outcome, classification: w.classification, effect_position: w.effectPosition, reconciliation_state: w.reconciliationState });
    if (w.replayed || w.refused) detail.execution.ledger_state = w.replayed ? 'succeeded_or_failed_recorded' : 'refused';
    return finish(w.envelope, w.replayed ? { replayed: true, lease } : w.refused ? { lease } : { settleKey: key, lease, reconciled: w.reconciledEntry });
  }

  const run = await runWithDeadline({ invoker: watched, args: c.args, callId: callInfo.call_id, principal, attempt: 1, idempotencyKey: null, timeoutMs: rules.timeoutMs, reportsSend: rules.reportsSend, signal: options.signal, now });
  lap?.('invoke');
  Object.assign(detail.execution, { attempts: 1, timings_ms: [run.ms], outcome: outcomeName(run.outcome.kind) });
  if (outcome === null && run.outcome.kind !== 'timeout' && run.outcome.kind !== 'cancelled') outcome = run.outcome;
  const r = classifyOutcome({ rules, run, call: callInfo, idempotencyKey: null, now, retrievedAt: isoAt(now()), memoryPolicy: deps.memoryPolicy, external, notes: notes.execution });
  lap?.('classify');
  if (r.kind === 'ok') return finish(r.envelope);
  detail.execution.classification = r.error;
  notes.execution.push(`${run.outcome.kind}: ${r.error.code} (${r.error.category})`);
  return finish(failedEnvelope(callInfo, r.error, noEffect, r.kind === 'failed' ? r.extra : {}));

  /** W4: apply the envelope's state patch; a stale base version is refused and reported. */
  async function writeBackState(env: Envelope, n: LayerNotes, ctx: StageContext): Promise<Envelope> {
    const patch = env.state_patch;
    if (patch === undefined) return env;
    if (env.status !== 'succeeded' && env.status !== 'partial') return env;
    const res = await applyStatePatch(deps.store, patch, isoAt(now()));
    if (res.ok) {
      n.contract.push(`state "${patch.key}" written at version ${res.entry.version}`);
      return env;
    }
    n.contract.push(`state patch refused: ${res.code}`);
    const { state_patch: _refused, ...rest } = env;
    const warning: Warning = { code: res.code, message: res.message };
    const next = stages.present({ ...rest, warnings: [...rest.warnings, warning] }, ctx);
    return isThenable(next) ? await next : next;
  }
}

// Both copies are written out as literals (same key order as the spreads they replace): they run
// once per call, and a literal allocates one object of a known shape.
function auditCall(c: Detail['call']): CallAuditDetail['call'] {
  const base = { tool_known: c.tool_known, args_valid: c.args_valid, args_findings: c.args_findings, authorization: c.authorization };
  return c.authorization_reason === undefined ? base : { ...base, authorization_reason: c.authorization_reason };
}

function auditExecution(e: Detail['execution']): CallAuditDetail['execution'] {
  const cl = e.classification;
  return {
    attempts: e.attempts,
    timings_ms: e.timings_ms,
    outcome: e.outcome,
    classification: cl === null ? null : { category: cl.category, code: cl.code, kind: cl.kind ?? null },
    idempotency_key: e.idempotency_key,
    ledger_state: e.ledger_state,
    effect_position: e.effect_position,
    reconciliation_state: e.reconciliation_state,
  };
}

export { withPresentation };

/**
 * The call whose process stopped mid-write left no audit record (or only the one stored before
 * its settle): the call that reconciled its entry records it, under the original call id.
 */
async function recordReconciledCall(deps: PipelineDeps, entry: LedgerEntry, envelope: Envelope, byCallId: string, finishedAt: string): Promise<void> {
  try {
    if ((await deps.store.getAudit(entry.callId)) !== null) return;
    await deps.audit.append({ record: reconciledCallRecord({ entry, envelope, byCallId, finishedAt }) }, { durable: true });
  } catch {
    // Audit failures never fail a call; a record stored meanwhile by another instance is fine too.
  }
}

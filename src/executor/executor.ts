/**
 * `createExecutor`: the pipeline of one call (ARCHITECTURE "Data flow of one call") —
 * args → policy → idempotency → run with deadline → classify → normalize → output schema →
 * trust → budget → evidence → digest + invariants → write-back → audit.
 */
import { failed, needsInput, type CallInput, type Envelope, type ErrorInfo, type Warning } from '../contract/index.js';
import { applyStatePatch, argsDigest, idempotencyKey, settleWrite, type MemoryPolicy } from '../effects/index.js';
import type { Budget } from '../budget/index.js';
import type { EvidencePolicy } from '../evidence/index.js';
import type { Store } from '../store/types.js';
import { runAttempt } from './attempt.js';
import { isoAt } from './iso-time.js';
import { buildAuditEntry, newNotes, shortFindings, type CallAuditDetail, type EffectPosition, type LayerNotes } from './audit.js';
import { callAll, type CallAllOptions, type CallAllResult } from './call-all.js';
import type { ToolDefinition } from './define-tool.js';
import { reconcilePending, type ReconcileReport } from './recover.js';
import { defaultStages, finalize, type Policy, type Stages } from './stages.js';
import type { Principal, ToolCall } from './types.js';
import { runWrite } from './write-path.js';
import { TrcError, escapePointerToken } from '../contract/index.js';

/** Any defined tool, whatever its argument and data types. */
export type AnyTool = ToolDefinition<never, unknown>;

/** Options of {@link createExecutor}. */
export interface ExecutorOptions {
  readonly tools: readonly AnyTool[];
  readonly store: Store;
  /** Call policy (T4). Default: {@link permissivePolicy} (allow, but hold high-risk tools for confirmation). */
  readonly policy?: Policy;
  /** Milliseconds since the epoch; injectable for tests. */
  readonly clock?: () => number;
  /** Replace pipeline stages (trust, budget, evidence, presentation). */
  readonly stages?: Partial<Stages>;
  /** Attempts of one write under its key, counting retries after a confirmed absence (default 3). */
  readonly maxWriteAttempts?: number;
  readonly memoryPolicy?: MemoryPolicy;
  /** Size budget of the model-visible result (default: the budget module's defaults). */
  readonly budget?: Budget;
  /** Evidence lint policy (freshness, observed_at sources). */
  readonly evidencePolicy?: EvidencePolicy;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call; a write already sent then ends `unknown`, never `failed`. */
  readonly signal?: AbortSignal;
}

/** The executor. */
export interface Executor {
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** Run one call through the whole pipeline; always resolves to a valid envelope. */
  call(call: ToolCall, principal: Principal, options?: CallOptions): Promise<Envelope>;
  /** Run many calls: reads concurrently, writes per resource in order, dependencies first (P1, P2). */
  callAll(calls: readonly ToolCall[], principal: Principal, options?: CallAllOptions): Promise<CallAllResult>;
  /** Reconcile ledger entries left `in_flight` by a crash (call on start-up). */
  recoverInFlight(): Promise<ReconcileReport[]>;
  /** Reconcile every pending entry (`in_flight` and `unknown`). */
  reconcilePending(): Promise<ReconcileReport[]>;
}

/**
 * Create an executor over registered tools and a store.
 * @example
 * const executor = createExecutor({ tools: [getOrder, charge], store: createMemoryStore() });
 * await executor.recoverInFlight();
 * const env = await executor.call({ call_id: 'call_1', tool_name: 'order_get', args: { id: 'o1' } }, { id: 'user_1' });
 */
export function createExecutor(options: ExecutorOptions): Executor {
  const tools = new Map<string, AnyTool>();
  for (const t of options.tools) {
    if (tools.has(t.name)) throw new TrcError('TOOL_DUPLICATE', `tool "${t.name}" is registered twice`);
    tools.set(t.name, t);
  }
  const now = options.clock ?? Date.now;
  const stages: Stages = { ...defaultStages({ ...(options.budget === undefined ? {} : { budget: options.budget }), ...(options.evidencePolicy === undefined ? {} : { evidence: options.evidencePolicy }) }), ...(options.policy === undefined ? {} : { policy: options.policy }), ...options.stages };
  // User stages may rewrite or mutate data in place, so their output is always re-digested.
  const customDataStages = options.stages?.trust !== undefined || options.stages?.budget !== undefined || options.stages?.evidence !== undefined || options.stages?.present !== undefined;
  const deps = { store: options.store, now, maxAttempts: options.maxWriteAttempts ?? 3, memoryPolicy: options.memoryPolicy };

  const executor: Executor = {
    tools,
    call: (c, principal, callOptions = {}) => runCall(c, principal, callOptions),
    callAll: (calls, principal, o = {}) =>
      callAll({ tools, call: (c, p, co) => runCall(c, p, co ?? {}), refuse: (c, p, error) => runCall(c, p, {}, error) }, calls, principal, o),
    recoverInFlight: () => reconcilePending({ store: options.store, tools, now, states: ['in_flight'] }),
    reconcilePending: () => reconcilePending({ store: options.store, tools, now, states: ['in_flight', 'unknown'] }),
  };

  async function runCall(c: ToolCall, principal: Principal, callOptions: CallOptions, refused?: ErrorInfo): Promise<Envelope> {
    const startedAt = isoAt(now());
    const notes = newNotes();
    const callInfo: CallInput = { tool_name: c.tool_name || 'unknown', call_id: c.call_id || 'unknown', attempt: 1 };
    let aDigest: string;
    try {
      aDigest = argsDigest(c.args);
    } catch {
      aDigest = 'sha256:unrepresentable';
    }
    const detail = {
      call: { tool_known: false, args_valid: null as boolean | null, args_findings: [] as { pointer: string; message: string }[], authorization: 'not_reached' as CallAuditDetail['call']['authorization'], authorization_reason: undefined as string | undefined },
      execution: { attempts: 0, timings_ms: [] as number[], outcome: 'not_run' as CallAuditDetail['execution']['outcome'], classification: null as ErrorInfo | null, idempotency_key: null as string | null, ledger_state: null as string | null, effect_position: 'none' as EffectPosition, reconciliation_state: null as string | null },
    };
    const finish = async (env: Envelope, opts: { replayed?: boolean; settleKey?: string } = {}): Promise<Envelope> => {
      let out = env;
      let findings: CallAuditDetail['contract']['findings'] = [];
      let replaced = false;
      if (opts.replayed === true) {
        const { presentation: _drop, ...rest } = out;
        out = await stages.present({ ...rest, call: { ...rest.call, call_id: callInfo.call_id }, warnings: [...rest.warnings, { code: 'IDEMPOTENT_REPLAY', message: `replayed the result recorded for idempotency key ${String(rest.call.idempotency_key)}; the tool did not run again` }] }, stageCtx(tool, c, principal, notes, options.store));
      } else {
        const ctx = stageCtx(tool, c, principal, notes, options.store);
        const before = out.data;
        // Most stages answer synchronously: await only a real promise (each await is a turn).
        let next = stages.trust(out, ctx);
        out = isThenable(next) ? await next : next;
        next = stages.budget(out, ctx);
        out = isThenable(next) ? await next : next;
        next = stages.evidence(out, ctx);
        out = isThenable(next) ? await next : next;
        next = stages.present(out, ctx);
        out = isThenable(next) ? await next : next;
        const f = finalize(out, notes, out.data === before && !customDataStages);
        out = f.envelope;
        findings = shortFindings(f.findings);
        replaced = f.replaced;
      }
      if (opts.settleKey !== undefined) {
        const state = out.status === 'succeeded' || out.status === 'partial' ? 'succeeded' : out.status === 'unknown' ? 'unknown' : 'failed';
        await settleWrite(options.store, opts.settleKey, { state, envelope: out, attempts: Math.max(1, detail.execution.attempts), now: isoAt(now()) });
        detail.execution.ledger_state = state;
      }
      if (out.state_patch !== undefined) out = await writeBackState(out, notes);
      const { record, detailJson } = buildAuditEntry({
        callId: callInfo.call_id,
        tool: callInfo.tool_name,
        principal: principal.id,
        argsDigest: aDigest,
        startedAt,
        finishedAt: isoAt(now()),
        envelope: out,
        detail: {
          call: auditCall(detail.call),
          execution: auditExecution(detail.execution),
          contract: { valid: !replaced, replaced, findings },
        },
        notes,
      });
      try {
        await options.store.appendAudit(record, { detailJson });
      } catch (cause) {
        // The call's result stands even when the audit store fails; say so in the envelope.
        out = { ...out, warnings: [...out.warnings, { code: 'AUDIT_WRITE_FAILED', message: `the audit record could not be stored: ${(cause as Error).message}` }] };
      }
      return out;
    };

    const tool = tools.get(c.tool_name);
    if (refused !== undefined) {
      // callAll could not run this call (cancelled, dependency failed): it still gets an envelope.
      detail.call.tool_known = tool !== undefined;
      detail.execution.classification = refused;
      notes.call.push(`not run: ${refused.code}: ${refused.message}`);
      const operation = tool?.effect === 'write' ? (tool.operation ?? tool.name) : 'read';
      return finish(failed({ call: callInfo, error: refused, side_effect: { occurred: false, operation } }));
    }
    if (tool === undefined) {
      notes.call.push(`no tool named "${c.tool_name}" is registered`);
      return finish(failed({ call: callInfo, error: { category: 'protocol', code: 'UNKNOWN_TOOL', message: `no tool named "${c.tool_name}" is registered`, retryable: false, action: 'fix_arguments', kind: 'protocol' } }));
    }
    detail.call.tool_known = true;
    const operation = tool.operation ?? tool.name;
    const noEffect = { occurred: false as const, operation: tool.effect === 'write' ? operation : 'read' };
    if (!tool.validateInput(c.args)) {
      const problems = (tool.validateInput.errors ?? []).map((e) => ({ pointer: e.instancePath + (e.keyword === 'required' ? `/${escapePointerToken(String(e.params['missingProperty']))}` : e.keyword === 'additionalProperties' ? `/${escapePointerToken(String(e.params['additionalProperty']))}` : ''), message: e.message ?? 'is invalid' }));
      detail.call.args_valid = false;
      detail.call.args_findings = problems;
      notes.call.push(`arguments rejected: ${problems.map((p) => `${p.pointer || '(root)'} ${p.message}`).join('; ')}`);
      const error: ErrorInfo = { category: 'validation', code: 'INVALID_ARGUMENTS', message: `the arguments do not match the input schema of "${tool.name}": ${problems.map((p) => `${p.pointer || '(root)'} ${p.message}`).join('; ')}`, retryable: false, action: 'fix_arguments', kind: 'execution', details: { findings: problems } };
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
    const pending = stages.policy({ tool, args: c.args, principal, call: c });
    const decision = isThenable(pending) ? await pending : pending;
    detail.call.authorization = decision.effect;
    if (decision.effect !== 'allow') {
      detail.call.authorization_reason = decision.reason;
      notes.call.push(`policy: ${decision.effect} (${decision.code}): ${decision.reason}`);
      if (decision.effect === 'confirm') return finish(needsInput({ call: callInfo, code: decision.code, message: decision.reason, category: 'authorization', side_effect: noEffect }));
      const error: ErrorInfo = { category: 'authorization', code: decision.code, message: decision.reason, retryable: false, action: 'request_authorization', kind: 'execution' };
      detail.execution.classification = error;
      return finish(failed({ call: callInfo, error, side_effect: noEffect }));
    }

    if (tool.effect === 'write') {
      const key = c.idempotency_key ?? idempotencyKey({ tool: tool.name, args: c.args, principal: principal.id, scope: c.scope ?? null });
      detail.execution.idempotency_key = key;
      const w = await runWrite(deps, { tool, args: c.args, call: callInfo, principal, key, signal: callOptions.signal, notes });
      Object.assign(detail.execution, { attempts: w.attempts, timings_ms: w.timings, outcome: w.outcome, classification: w.classification, effect_position: w.effectPosition, reconciliation_state: w.reconciliationState });
      if (w.replayed || w.refused) detail.execution.ledger_state = w.replayed ? 'succeeded_or_failed_recorded' : 'refused';
      return finish(w.envelope, w.replayed ? { replayed: true } : w.refused ? {} : { settleKey: key });
    }

    const r = await runAttempt({ tool, args: c.args, call: callInfo, principal, attempt: 1, idempotencyKey: null, signal: callOptions.signal, now, memoryPolicy: options.memoryPolicy });
    Object.assign(detail.execution, { attempts: 1, timings_ms: [r.outcome.ms], outcome: r.outcome.kind });
    if (r.kind === 'ok') return finish(r.envelope);
    detail.execution.classification = r.error;
    notes.execution.push(`${r.outcome.kind}: ${r.error.code} (${r.error.category})`);
    return finish(failed({ call: callInfo, error: r.error, side_effect: noEffect }));
  }

  /** W4: apply the envelope's state patch; a stale base version is refused and reported. */
  async function writeBackState(env: Envelope, notes: LayerNotes): Promise<Envelope> {
    const patch = env.state_patch;
    if (patch === undefined) return env;
    if (env.status !== 'succeeded' && env.status !== 'partial') return env;
    const r = await applyStatePatch(options.store, patch, isoAt(now()));
    if (r.ok) {
      notes.contract.push(`state "${patch.key}" written at version ${r.entry.version}`);
      return env;
    }
    notes.contract.push(`state patch refused: ${r.code}`);
    const { state_patch: _refused, ...rest } = env;
    const warning: Warning = { code: r.code, message: r.message, pointer: '/state_patch' };
    return { ...rest, warnings: [...rest.warnings, { code: warning.code, message: warning.message }] };
  }

  return executor;
}

// Both copies are written out as literals (same key order as the spreads they replace): they run
// once per call, and a literal allocates one object of a known shape.
function auditCall(c: { tool_known: boolean; args_valid: boolean | null; args_findings: { pointer: string; message: string }[]; authorization: CallAuditDetail['call']['authorization']; authorization_reason: string | undefined }): CallAuditDetail['call'] {
  const base = { tool_known: c.tool_known, args_valid: c.args_valid, args_findings: c.args_findings, authorization: c.authorization };
  return c.authorization_reason === undefined ? base : { ...base, authorization_reason: c.authorization_reason };
}

function auditExecution(e: {
  attempts: number; timings_ms: number[]; outcome: CallAuditDetail['execution']['outcome']; classification: ErrorInfo | null; idempotency_key: string | null;
  ledger_state: string | null; effect_position: EffectPosition; reconciliation_state: string | null;
}): CallAuditDetail['execution'] {
  const c = e.classification;
  return {
    attempts: e.attempts,
    timings_ms: e.timings_ms,
    outcome: e.outcome,
    classification: c === null ? null : { category: c.category, code: c.code, kind: c.kind ?? null },
    idempotency_key: e.idempotency_key,
    ledger_state: e.ledger_state,
    effect_position: e.effect_position,
    reconciliation_state: e.reconciliation_state,
  };
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function stageCtx(tool: AnyTool | undefined, call: ToolCall, principal: Principal, notes: LayerNotes, store: Store) {
  return { tool: tool ?? null, call, principal, notes, store };
}

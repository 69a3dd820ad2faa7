/**
 * Classification (X1–X3): how one attempt ended, whatever the invoker, becomes a normalized
 * envelope, a definite failure, or an ambiguous outcome of a write. Only the executor knows
 * whether the write was sent, so only it classifies. For a write, every failure after the
 * request may have been sent — a JSON-RPC error of any code, a closed connection, a timeout, a
 * cancellation, an unreadable answer — is ambiguous and goes to reconciliation; a failure the
 * tool itself states (a `ToolFailure` that was not applied, an MCP `isError`) stays definite.
 */
import { COMMIT_STATUS_UNKNOWN, classifyError, failed, nonJsonAt, type CallInput, type ClassifiedError, type Envelope, type ErrorInfo, type SideEffectInput, type Warning } from '../contract/index.js';
import type { MemoryPolicy } from '../effects/index.js';
import { maskText, toolHints } from '../trust/index.js';
import type { Outcome } from './invoker.js';
import type { McpBlock } from './mcp-content.js';
import { normalizeOutput } from './normalize.js';
import { normalizeMcp, type ExternalMarks } from './normalize-mcp.js';
import { normalizeValue } from './normalize-value.js';
import { DEEP_RESULT_LEVELS, nestedDeeperThan } from './nesting.js';
import type { ToolRules } from './rules.js';
import type { RunOutcome } from './run-with-deadline.js';
import { isToolFailure } from './tool-failure.js';

/** A classified attempt. */
export type Classified =
  | { readonly kind: 'ok'; readonly envelope: Envelope }
  | { readonly kind: 'failed'; readonly error: ErrorInfo; readonly sideEffect: SideEffectInput | null; readonly extra?: FailureExtra }
  | { readonly kind: 'ambiguous'; readonly error: ErrorInfo };

/** What a failure's envelope keeps of the answer besides the error (wire summaries, a server's hints). */
export interface FailureExtra {
  readonly extensions?: Record<string, unknown>;
  readonly tool_hints?: Envelope['tool_hints'];
  /** Evidence the answer carried (e.g. the resources an error result links to). */
  readonly evidence?: Envelope['evidence'];
}

/** A failed envelope for a classified failure, with what it kept of the answer. */
export function failedEnvelope(call: CallInput, error: ErrorInfo, sideEffect: SideEffectInput, extra: FailureExtra = {}): Envelope {
  const env = failed({ call, error, side_effect: sideEffect, ...(extra.extensions === undefined ? {} : { extensions: extra.extensions }), ...(extra.evidence === undefined || extra.evidence.length === 0 ? {} : { evidence: extra.evidence }) });
  return extra.tool_hints === undefined ? env : { ...env, tool_hints: extra.tool_hints };
}

/** Input of {@link classifyOutcome}. */
export interface ClassifyInput {
  readonly rules: ToolRules;
  readonly run: RunOutcome;
  readonly call: CallInput;
  readonly idempotencyKey: string | null;
  readonly now: () => number;
  readonly retrievedAt: string;
  readonly memoryPolicy?: MemoryPolicy | undefined;
  /** Filled with what the trust stage must isolate. */
  readonly external: ExternalMarks;
  /** Audit notes of the execution layer. */
  readonly notes: string[];
}

const contractError = (code: string, message: string, details?: unknown): ErrorInfo => ({
  category: 'contract', code, message, retryable: false, action: 'explain_to_user', kind: 'execution', ...(details === undefined ? {} : { details }),
});

const CANCEL_TEXT = { caller: 'the call was cancelled', client_cancelled: 'the client cancelled the call', client_disconnected: 'the client disconnected before the call finished' } as const;

/** A definite failure of a sent write becomes unknown: the write may have happened (W2). */
function unknownAfterSend(c: ClassifiedError, operation: string): ErrorInfo {
  const e = c.error;
  const out: ErrorInfo = {
    category: e.category,
    code: COMMIT_STATUS_UNKNOWN,
    message: `${operation} may or may not have been applied: ${e.message}, after the request was sent. Look it up by its idempotency key before any retry.`,
    retryable: false,
    action: 'query_by_idempotency_key',
    kind: 'unknown_outcome',
    details: { cause: e.code },
  };
  if (e.jsonrpc_code !== undefined) out.jsonrpc_code = e.jsonrpc_code;
  if (e.http_status !== undefined) out.http_status = e.http_status;
  return out;
}

/**
 * A classified failure; a protocol error (JSON-RPC) is filed under `protocol` whatever the code
 * (the classifier's action, e.g. fix_arguments for -32602, still says what to do), and after a
 * declared write was sent it is ambiguous whatever the code.
 */
function protocolOutcome(c: ClassifiedError, sentWrite: boolean, operation: string): Classified {
  if (c.kind !== 'protocol') return fromClassified(c);
  const error: ErrorInfo = { ...c.error, category: 'protocol' };
  if (c.status === 'unknown') return { kind: 'ambiguous', error: c.error };
  if (sentWrite) return { kind: 'ambiguous', error: unknownAfterSend({ ...c, error }, operation) };
  return { kind: 'failed', error, sideEffect: null };
}

function fromClassified(c: ClassifiedError): Classified {
  return c.status === 'unknown' ? { kind: 'ambiguous', error: c.error } : { kind: 'failed', error: c.error, sideEffect: null };
}

/** Messages along an error's cause chain: what an upstream may have put into a thrown error. */
function messagesOf(value: unknown): string[] {
  const out: string[] = [];
  let cur: unknown = value;
  for (let i = 0; i < 8 && cur !== null && cur !== undefined; i++) {
    if (cur instanceof Error) {
      if (cur.message !== '') out.push(cur.message);
      cur = (cur as { cause?: unknown }).cause;
    } else {
      if (typeof cur === 'string' && cur !== '') out.push(cur);
      break;
    }
  }
  return out;
}

/**
 * Classify one attempt.
 * @example const c = classifyOutcome({ rules, run, call, idempotencyKey: null, now: Date.now, retrievedAt, external, notes: [] });
 */
export function classifyOutcome(input: ClassifyInput): Classified {
  try {
    return classifyAttempt(input);
  } catch (cause) {
    // Reading the result failed: when it is nested past what normalization can walk, that is
    // an unreadable result, like any other that is not one; anything else is a bug and thrown.
    if (!nestedDeeperThan(answered(input.run.outcome), DEEP_RESULT_LEVELS)) throw cause;
    const error = contractError('RESULT_NESTED_TOO_DEEPLY', `tool "${input.rules.name}" returned a result nested more than ${DEEP_RESULT_LEVELS} levels deep, too deeply to be read`);
    if (input.rules.effect === 'write') return { kind: 'ambiguous', error: { ...error, kind: 'unknown_outcome' } };
    return { kind: 'failed', error, sideEffect: null };
  }
}

/** What an attempt answered, for the depth check. */
function answered(o: Outcome): unknown {
  return o.kind === 'output' ? o.output : o.kind === 'value' ? o.value : o.kind === 'mcp' ? o.result : null;
}

function classifyAttempt(input: ClassifyInput): Classified {
  const { rules, run } = input;
  const write = rules.effect === 'write';
  // A write the host declared (or a trusted server annotated): every failure after the send is
  // ambiguous. A tool of unknown effect is only a possible write: the classifier's own rule holds.
  const declaredWrite = write && rules.effectSource !== 'default';
  const sent = run.sent;
  const o: Outcome = run.outcome;
  const classify = (failure: unknown) => classifyError(failure, { writeSent: write && sent, operation: rules.operation, now: input.now });
  switch (o.kind) {
    case 'output': {
      const n = normalizeOutput({ tool: rules, call: input.call, value: o.output, retrievedAt: input.retrievedAt, idempotencyKey: input.idempotencyKey, memoryPolicy: input.memoryPolicy });
      if (!n.ok) {
        // A write that answered with something unreadable may still have committed.
        const where = n.problem.pointer === undefined ? undefined : { pointer: n.problem.pointer };
        if (write) return { kind: 'ambiguous', error: { ...contractError(n.problem.code, n.problem.message, where), kind: 'unknown_outcome' } };
        return { kind: 'failed', error: contractError(n.problem.code, n.problem.message, where), sideEffect: null };
      }
      if (rules.sourceUntrusted) for (const w of n.envelope.warnings) if (typeof w === 'object') input.external.warnings.add(w);
      return checkOutput(n.envelope, input);
    }
    case 'value': {
      const n = normalizeValue({ rules, call: input.call, value: o.value, retrievedAt: input.retrievedAt, idempotencyKey: input.idempotencyKey });
      if (!n.ok) {
        const where = n.pointer === undefined ? undefined : { pointer: n.pointer };
        if (write) return { kind: 'ambiguous', error: { ...contractError('TOOL_OUTPUT_INVALID', n.message, where), kind: 'unknown_outcome' } };
        return { kind: 'failed', error: contractError('TOOL_OUTPUT_INVALID', n.message, where), sideEffect: null };
      }
      return checkOutput(n.envelope, input);
    }
    case 'mcp': {
      const result = o.result as { content?: McpBlock[]; structuredContent?: Record<string, unknown>; isError?: boolean; _meta?: Record<string, unknown> } | null;
      const issues = (o as { issues?: unknown }).issues;
      if (issues !== undefined || result === null || typeof result !== 'object') {
        const error: ErrorInfo = { category: 'protocol', code: 'MCP_MALFORMED_RESULT', message: 'the server answered tools/call with something that is not a CallToolResult', retryable: false, action: 'explain_to_user', kind: 'protocol', details: { issues: issues ?? [] } };
        return declaredWrite && sent ? { kind: 'ambiguous', error: unknownAfterSend({ kind: 'protocol', status: 'failed', error }, rules.operation) } : { kind: 'failed', error, sideEffect: null };
      }
      const bad = nonJsonAt(result);
      if (bad !== null) {
        const error = contractError('TOOL_OUTPUT_INVALID', `tool "${rules.name}" returned a result that is not plain JSON: ${bad.message} (details.pointer says where)`, { pointer: bad.pointer });
        return declaredWrite ? { kind: 'ambiguous', error: { ...error, kind: 'unknown_outcome' } } : { kind: 'failed', error, sideEffect: null };
      }
      const n = normalizeMcp({ rules, call: input.call, result, listing: o.listing, server: o.server, retrievedAt: input.retrievedAt, idempotencyKey: input.idempotencyKey, noise: o.noise, external: input.external });
      const hints = o.listing?.annotations === undefined ? {} : { tool_hints: toolHints(o.server.name, o.server.trusted, o.listing.annotations) };
      if (n.kind === 'tool_error') return { kind: 'failed', error: n.error, sideEffect: null, extra: { extensions: n.extensions, evidence: n.evidence, ...hints } };
      if (n.kind === 'contract_error') return { kind: 'failed', error: n.error, sideEffect: null, extra: hints };
      input.notes.push(...n.notes);
      return checkOutput(n.envelope, input);
    }
    case 'rpc_error': {
      if (rules.sourceUntrusted && o.message !== '') input.external.errorText.push(o.message);
      const c = classify({ jsonRpcError: { code: o.code, message: o.message, ...(o.data === undefined ? {} : { data: o.data }) } });
      const error: ErrorInfo = { ...c.error, jsonrpc_code: o.code };
      if (o.data !== undefined && error.details === undefined) error.details = { data: o.data };
      return protocolOutcome({ ...c, error }, declaredWrite && sent, rules.operation);
    }
    case 'threw': {
      if (rules.sourceUntrusted) input.external.errorText.push(...messagesOf(o.error));
      if (isToolFailure(o.error)) {
        const error = o.error.toErrorInfo();
        if (write && o.error.failure.applied === 'maybe') return { kind: 'ambiguous', error: { ...error, retryable: false, kind: 'unknown_outcome' } };
        return { kind: 'failed', error, sideEffect: null };
      }
      // A thrown JSON-RPC error (an MCP client library's) means what the same error answered means.
      return protocolOutcome(classify(o.error), declaredWrite && sent, rules.operation);
    }
    case 'timeout':
      return fromClassified(classify(new DOMException(`the deadline of ${o.afterMs} ms passed`, 'TimeoutError')));
    case 'closed': {
      input.notes.push(`the connection closed during the call: ${maskText(o.detail)}`);
      const c = classify(Object.assign(new Error(''), { code: 'ECONNRESET' }));
      return fromClassified(o.why === undefined ? c : { ...c, error: { ...c.error, message: `${c.error.message}: ${o.why}` } });
    }
    case 'cancelled':
      return fromClassified(classify(o.cause instanceof Error || o.cause instanceof DOMException ? o.cause : new DOMException(CANCEL_TEXT[o.reason], 'AbortError')));
    case 'unavailable':
      input.notes.push(`the tool could not be reached: ${maskText(o.detail)}`);
      return fromClassified(classifyError(Object.assign(new Error(''), { code: 'ECONNREFUSED' }), { writeSent: false, operation: rules.operation }));
  }
}

/** S12: `data` must match the tool's output schema; a committed write keeps its side effect. */
function checkOutput(env: Envelope, input: ClassifyInput): Classified {
  const check = input.rules.validateOutput;
  if (check === null || env.data === null) return { kind: 'ok', envelope: env };
  const r = check(env.data);
  if (r.ok === true) return { kind: 'ok', envelope: env };
  if (r.ok === 'unchecked') {
    const warning: Warning = { code: 'OUTPUT_SCHEMA_UNCHECKED', message: r.message };
    if (input.rules.sourceUntrusted) input.external.warnings.add(warning);
    return { kind: 'ok', envelope: { ...env, warnings: [...env.warnings, warning] } };
  }
  const error = contractError('OUTPUT_SCHEMA_MISMATCH', `tool "${input.rules.name}" returned data that does not match its output schema`, {
    findings: r.findings.map((f) => ({ pointer: f.pointer, message: f.message })),
  });
  const se = env.side_effect;
  // The write did happen (it has an external id); only its reported data is untrustworthy.
  const sideEffect: SideEffectInput | null = se.occurred && typeof se.external_id === 'string'
    ? { occurred: true, operation: se.operation, external_id: se.external_id, idempotency_key: se.idempotency_key ?? null, committed_at: se.committed_at ?? null }
    : null;
  return { kind: 'failed', error, sideEffect };
}

/**
 * Envelopes for tool calls that produced no tool result: the upstream died, hung past the
 * deadline, the client cancelled or went away, the upstream broke the protocol, or the call was
 * held for confirmation. For writes, anything that may have reached the upstream becomes
 * `unknown` with reconciliation (SPEC W2), never a generic failure.
 */
import { classifyError, failed, needsInput, unknown, type CallInfo, type Envelope, type ErrorInfo, type Reconciliation } from '../contract/index.js';
import type { EffectivePolicy } from './tool-policy.js';
import { substituteKey } from './write-reconcile.js';

/** Why no tool result came back. */
export type NoResult =
  | { readonly kind: 'closed'; readonly detail: string }
  | { readonly kind: 'timeout'; readonly afterMs: number }
  | { readonly kind: 'cancelled'; readonly reason: 'client_cancelled' | 'client_disconnected' }
  | { readonly kind: 'unavailable'; readonly detail: string }
  | { readonly kind: 'rpc_error'; readonly code: number; readonly message: string; readonly data?: unknown }
  | { readonly kind: 'invalid_result'; readonly detail: string };

/** What the failure envelopes need to know about the call. */
export interface FailureContext {
  readonly call: CallInfo;
  readonly upstream: string;
  readonly upstreamTool: string;
  readonly policy: EffectivePolicy;
  readonly idempotencyKey: string | null;
  /** True once the request was handed to the upstream transport. */
  readonly sent: boolean;
}

/**
 * The envelope for a call without a tool result.
 * @example noResultEnvelope({ kind: 'timeout', afterMs: 5000 }, ctx).status // 'unknown' for a sent write
 */
export function noResultEnvelope(why: NoResult, ctx: FailureContext): Envelope {
  const error = errorFor(why, ctx);
  const ambiguous = ctx.sent && why.kind !== 'unavailable' && why.kind !== 'rpc_error' && why.kind !== 'invalid_result';
  if (ctx.policy.effect === 'write' && ambiguous) {
    const reconciliation: Reconciliation = { required: true, state: 'pending' };
    if (ctx.idempotencyKey !== null) reconciliation.idempotency_key = ctx.idempotencyKey;
    if (ctx.policy.reconcile !== null) {
      reconciliation.query_tool = ctx.policy.reconcile.tool;
      reconciliation.query_args = substituteKey(ctx.policy.reconcile.args ?? {}, ctx.idempotencyKey);
    }
    return unknown({
      call: ctx.call,
      error: {
        ...error,
        code: 'COMMIT_STATUS_UNKNOWN',
        message: `${error.message}; the write may or may not have been applied`,
        retryable: false,
        action: ctx.idempotencyKey !== null ? 'query_by_idempotency_key' : 'manual_reconciliation',
        kind: 'unknown_outcome',
        details: { cause_code: error.code },
      },
      side_effect: { operation: ctx.upstreamTool, possibly_occurred: true, idempotency_key: ctx.idempotencyKey },
      reconciliation,
    });
  }
  return failed({
    call: ctx.call,
    error,
    side_effect: { occurred: false, operation: ctx.policy.effect === 'write' ? ctx.upstreamTool : 'read', idempotency_key: ctx.idempotencyKey },
  });
}

function errorFor(why: NoResult, ctx: FailureContext): ErrorInfo {
  const who = `upstream "${ctx.upstream}" (tool ${ctx.upstreamTool})`;
  switch (why.kind) {
    case 'closed':
      return { category: 'upstream', code: 'UPSTREAM_CLOSED', message: `${who} closed the connection during the call: ${why.detail}`, retryable: true, action: 'retry', kind: 'execution' };
    case 'timeout':
      return { category: 'transport_timeout', code: 'UPSTREAM_TIMEOUT', message: `${who} did not answer within ${why.afterMs} ms; the call was cancelled`, retryable: true, action: 'retry', kind: 'execution' };
    case 'cancelled':
      return {
        category: 'cancelled',
        code: why.reason === 'client_disconnected' ? 'CLIENT_DISCONNECTED' : 'CLIENT_CANCELLED',
        message: why.reason === 'client_disconnected' ? 'the client disconnected before the call finished' : 'the client cancelled the call',
        retryable: true,
        action: 'retry',
        kind: 'execution',
      };
    case 'unavailable':
      return { category: 'upstream', code: 'UPSTREAM_UNAVAILABLE', message: `${who} is not available: ${why.detail}`, retryable: true, action: 'retry_later', kind: 'execution' };
    case 'invalid_result':
      return { category: 'protocol', code: 'UPSTREAM_INVALID_RESULT', message: `${who} answered with something that is not a CallToolResult: ${why.detail}`, retryable: false, action: 'explain_to_user', kind: 'protocol' };
    case 'rpc_error': {
      const classified = classifyError({ jsonRpcError: { code: why.code, message: why.message, data: why.data } }, { writeSent: false, operation: ctx.upstreamTool });
      return { ...classified.error, message: `${who}: ${why.message}` };
    }
  }
}

/**
 * The envelope for a call held because its tool requires human confirmation (SPEC T4).
 * @example confirmationEnvelope(ctx).status // 'needs_input'
 */
export function confirmationEnvelope(ctx: Pick<FailureContext, 'call' | 'upstreamTool' | 'policy'>, metaKey: string): Envelope {
  return needsInput({
    call: ctx.call,
    code: 'CONFIRMATION_REQUIRED',
    category: 'authorization',
    message: `tool ${ctx.upstreamTool} (risk ${ctx.policy.risk}) needs a human confirmation: repeat the call with _meta["${metaKey}"] = true once the user agreed`,
    side_effect: { occurred: false, operation: ctx.policy.effect === 'write' ? ctx.upstreamTool : 'read' },
  });
}

/**
 * One attempt, classified: run under the deadline, then either a normalized envelope, a definite
 * failure, or an ambiguous outcome of a write (X1–X3). Only the executor knows whether the write
 * was sent, so only it classifies.
 */
import { classifyError, type CallInput, type Envelope, type ErrorInfo, type SideEffectInput } from '../contract/index.js';
import type { MemoryPolicy } from '../effects/index.js';
import type { ToolDefinition } from './define-tool.js';
import { isoAt } from './iso-time.js';
import { normalizeOutput } from './normalize.js';
import { runWithDeadline, type RunOutcome } from './run-with-deadline.js';
import { checkOutputSchema } from './stages.js';
import { isToolFailure } from './tool-failure.js';
import type { Principal } from './types.js';

/** A classified attempt. */
export type AttemptResult =
  | { readonly kind: 'ok'; readonly envelope: Envelope; readonly outcome: RunOutcome }
  | { readonly kind: 'failed'; readonly error: ErrorInfo; readonly sideEffect: SideEffectInput | null; readonly outcome: RunOutcome }
  | { readonly kind: 'ambiguous'; readonly error: ErrorInfo; readonly outcome: RunOutcome };

/** Input of {@link runAttempt}. */
export interface AttemptInput {
  readonly tool: ToolDefinition<never, unknown>;
  readonly args: unknown;
  readonly call: CallInput;
  readonly principal: Principal;
  readonly attempt: number;
  readonly idempotencyKey: string | null;
  readonly signal?: AbortSignal | undefined;
  readonly now: () => number;
  readonly memoryPolicy?: MemoryPolicy | undefined;
}

const contractError = (code: string, message: string, details?: unknown): ErrorInfo => ({
  category: 'contract',
  code,
  message,
  retryable: false,
  action: 'explain_to_user',
  kind: 'execution',
  ...(details === undefined ? {} : { details }),
});

/**
 * Run one attempt and classify how it ended.
 * @example const r = await runAttempt({ tool, args, call, principal, attempt: 1, idempotencyKey: null, now: Date.now });
 */
export async function runAttempt(input: AttemptInput): Promise<AttemptResult> {
  const { tool } = input;
  const write = tool.effect === 'write';
  const outcome = await runWithDeadline({
    tool,
    args: input.args,
    callId: input.call.call_id,
    principal: input.principal,
    attempt: input.attempt,
    idempotencyKey: input.idempotencyKey,
    signal: input.signal,
    now: input.now,
  });
  if (outcome.kind === 'returned') {
    const n = normalizeOutput({
      tool,
      // The builders copy the call block anyway; copy here only when the attempt differs.
      call: input.call.attempt === input.attempt ? input.call : { ...input.call, attempt: input.attempt },
      value: outcome.value,
      retrievedAt: isoAt(input.now()),
      idempotencyKey: input.idempotencyKey,
      memoryPolicy: input.memoryPolicy,
    });
    if (!n.ok) {
      // A write that answered with something unreadable may still have committed.
      if (write) return { kind: 'ambiguous', error: { ...contractError(n.problem.code, n.problem.message), kind: 'unknown_outcome' }, outcome };
      return { kind: 'failed', error: contractError(n.problem.code, n.problem.message), sideEffect: null, outcome };
    }
    const findings = checkOutputSchema(tool, n.envelope.data);
    if (findings.length > 0) {
      const error = contractError('OUTPUT_SCHEMA_MISMATCH', `tool "${tool.name}" returned data that does not match its output schema`, {
        findings: findings.map((f) => ({ pointer: f.pointer, message: f.message })),
      });
      const se = n.envelope.side_effect;
      // The write did happen (it has an external id); only its reported data is untrustworthy.
      const sideEffect: SideEffectInput | null = se.occurred && typeof se.external_id === 'string'
        ? { occurred: true, operation: se.operation, external_id: se.external_id, idempotency_key: se.idempotency_key ?? null, committed_at: se.committed_at ?? null }
        : null;
      return { kind: 'failed', error, sideEffect, outcome };
    }
    return { kind: 'ok', envelope: n.envelope, outcome };
  }
  if (outcome.kind === 'threw' && isToolFailure(outcome.error)) {
    const error = outcome.error.toErrorInfo();
    if (write && outcome.error.failure.applied === 'maybe') return { kind: 'ambiguous', error: { ...error, retryable: false, kind: 'unknown_outcome' }, outcome };
    return { kind: 'failed', error, sideEffect: null, outcome };
  }
  const classified = classifyError(outcome.error, { writeSent: write && outcome.sent, operation: tool.operation ?? tool.name, now: input.now });
  if (classified.status === 'unknown') return { kind: 'ambiguous', error: classified.error, outcome };
  return { kind: 'failed', error: classified.error, sideEffect: null, outcome };
}

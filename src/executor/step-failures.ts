/**
 * Envelopes for the pipeline's own steps failing (a policy that throws, a ledger on a closed or
 * broken store): the call still resolves to a valid envelope that says what may have happened,
 * never a rejected promise that loses a committed write.
 */
import { failed, isTrcError, type CallInput, type Envelope, type ErrorInfo } from '../contract/index.js';
import { unknownEnvelope } from '../effects/index.js';
import type { LayerNotes } from './audit.js';
import { reconcileContext } from './write-path.js';
import type { ToolRules } from './rules.js';
import { isoAt } from './iso-time.js';

/** The message of whatever was thrown, with its code when it has one. */
export function errorText(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return isTrcError(cause) ? `${cause.code}: ${message}` : message;
}

/** An internal step of the pipeline failed before the tool ran. */
export function stepFailure(code: string, message: string, cause: unknown): ErrorInfo {
  return { category: 'internal', code, message: `${message}: ${errorText(cause)}`, retryable: false, action: 'explain_to_user', kind: 'execution' };
}

/**
 * The envelope of a write whose ledger failed: `failed` when no attempt was sent (nothing can
 * have happened; retry once the store works), `unknown` when one was (the write may have landed).
 */
export function ledgerFailure(
  rules: ToolRules,
  call: CallInput,
  key: string,
  sent: boolean,
  cause: unknown,
  notes: LayerNotes,
  now: () => number,
): Envelope {
  notes.execution.push(`the ledger failed${sent ? ' after an attempt was sent' : ' before anything was sent'}: ${errorText(cause)}`);
  if (!sent) {
    const error: ErrorInfo = { category: 'internal', code: 'LEDGER_UNAVAILABLE', message: `the write was not sent: its ledger entry could not be written (${errorText(cause)})`, retryable: true, action: 'retry_later', kind: 'execution' };
    return failed({ call: { ...call, idempotency_key: key }, error, side_effect: { occurred: false, operation: rules.operation, idempotency_key: key } });
  }
  const ctx = reconcileContext(rules, call, key, isoAt(now()));
  return unknownEnvelope(ctx, { category: 'internal', code: 'COMMIT_STATUS_UNKNOWN', message: `an attempt was sent, then the ledger failed (${errorText(cause)}); look the write up by its idempotency key` }, 'unknowable');
}

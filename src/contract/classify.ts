/**
 * `classifyError()` (SPEC X1–X3): turn a failure into the envelope's `error` and the status it
 * implies. The executor calls it because only the executor knows whether the write was sent;
 * the model never infers retryability from a message.
 */
import type {
  ClassifiableFailure,
  Classification,
  ClassifiedError,
  ClassifyOptions,
  HttpFailure,
  JsonRpcFailure,
} from './classify-types.js';
import { classifyHttpStatus, parseRetryAfter } from './classify-http.js';
import { classifyJsonRpcCode } from './classify-jsonrpc.js';
import { classifyThrown } from './classify-thrown.js';
import type { ErrorInfo } from './types.js';

/** The code of every outcome that became unknown because the write may have been applied. */
export const COMMIT_STATUS_UNKNOWN = 'COMMIT_STATUS_UNKNOWN';

function isHttpFailure(v: unknown): v is HttpFailure {
  return typeof v === 'object' && v !== null && !(v instanceof Error) && typeof (v as { httpStatus?: unknown }).httpStatus === 'number';
}

function isJsonRpcFailure(v: unknown): v is JsonRpcFailure {
  if (typeof v !== 'object' || v === null || v instanceof Error) return false;
  const e = (v as { jsonRpcError?: unknown }).jsonRpcError;
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'number';
}

function classify(failure: ClassifiableFailure, nowMs: number): Classification {
  if (isHttpFailure(failure)) {
    const c = classifyHttpStatus(failure.httpStatus, parseRetryAfter(failure.retryAfter, nowMs));
    return failure.message === undefined ? c : { ...c, message: `${c.message}: ${failure.message}` };
  }
  if (isJsonRpcFailure(failure)) {
    const { code, message } = failure.jsonRpcError;
    if (!Number.isInteger(code)) {
      return { kind: 'protocol', category: 'protocol', code: 'JSONRPC_INVALID_ERROR', message: `the server sent a JSON-RPC error with a non-integer code ${code}`, retryable: false, action: 'abort', afterSend: 'ambiguous' };
    }
    return classifyJsonRpcCode(code, typeof message === 'string' ? message.slice(0, 300) : undefined);
  }
  return classifyThrown(failure, nowMs);
}

function toErrorInfo(c: Classification): ErrorInfo {
  const info: ErrorInfo = { category: c.category, code: c.code, message: c.message, retryable: c.retryable, action: c.action, kind: c.kind };
  if (c.http_status !== undefined) info.http_status = c.http_status;
  if (c.jsonrpc_code !== undefined) info.jsonrpc_code = c.jsonrpc_code;
  if (c.retry_after_ms !== undefined) info.retry_after_ms = c.retry_after_ms;
  if (c.cause_code !== undefined) info.details = { cause_code: c.cause_code };
  return info;
}

/**
 * Classify a failure into the envelope's `error`, with the status it implies.
 *
 * Accepts anything thrown (DOMException `TimeoutError`/`AbortError`, undici `fetch failed`
 * with `cause.code`, `node:net` errors, SDK errors with `status` or a JSON-RPC `code`), an
 * `{ httpStatus, retryAfter? }` or a `{ jsonRpcError }`. When `writeSent` is true and the failure
 * leaves open whether the write was applied (a timeout, a reset, a 5xx from a gateway), the
 * result is `unknown` with code `COMMIT_STATUS_UNKNOWN` and action `query_by_idempotency_key`:
 * never retry such a write blindly. Failures that prove the request never left (connection
 * refused, DNS, TLS) stay `failed` and retryable. Never throws.
 * @example
 * try { await fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(5000) }); }
 * catch (e) {
 *   const { status, error } = classifyError(e, { writeSent: true, operation: 'payment.charge' });
 *   // status === 'unknown', error.action === 'query_by_idempotency_key'
 * }
 */
export function classifyError(failure: ClassifiableFailure, options: ClassifyOptions): ClassifiedError {
  let c: Classification;
  try {
    c = classify(failure, (options.now ?? Date.now)());
  } catch {
    // Unreachable by design (every read is guarded); keep the promise of never throwing.
    c = { kind: 'execution', category: 'internal', code: 'UNCLASSIFIABLE_ERROR', message: 'the failure could not be inspected', retryable: false, action: 'abort', afterSend: 'ambiguous' };
  }
  if (options.writeSent && c.afterSend === 'ambiguous') {
    const op = options.operation ?? 'the write';
    const error: ErrorInfo = {
      category: c.category,
      code: COMMIT_STATUS_UNKNOWN,
      message: `${op} may or may not have been applied: ${c.message}, after the request was sent. Look it up by its idempotency key before any retry.`,
      retryable: false,
      action: 'query_by_idempotency_key',
      kind: 'unknown_outcome',
      details: { cause: c.code, ...(c.cause_code === undefined ? {} : { cause_code: c.cause_code }) },
    };
    if (c.http_status !== undefined) error.http_status = c.http_status;
    if (c.jsonrpc_code !== undefined) error.jsonrpc_code = c.jsonrpc_code;
    return { kind: 'unknown_outcome', error, status: 'unknown' };
  }
  return { kind: c.kind, error: toErrorInfo(c), status: 'failed' };
}

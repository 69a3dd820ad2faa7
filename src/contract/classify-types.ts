/**
 * Types of the error classifier (SPEC X1–X3).
 */
import type { ErrorAction, ErrorCategory } from './taxonomy.js';
import type { ErrorInfo } from './types.js';

/** SPEC X1: a protocol error, a tool execution error, or an outcome nobody can observe. */
export type ErrorKind = 'protocol' | 'execution' | 'unknown_outcome';

/** A failed HTTP exchange: the status and, when the upstream sent one, its `Retry-After`. */
export interface HttpFailure {
  readonly httpStatus: number;
  /** Raw `Retry-After` header (seconds or HTTP-date), or seconds as a number. */
  readonly retryAfter?: string | number | null;
  readonly message?: string;
}

/** A JSON-RPC `error` member as it came off the wire. */
export interface JsonRpcFailure {
  readonly jsonRpcError: { readonly code: number; readonly message?: string; readonly data?: unknown };
}

/** What `classifyError()` accepts: anything thrown, or a described HTTP / JSON-RPC failure. */
export type ClassifiableFailure = HttpFailure | JsonRpcFailure | unknown;

/** Context only the executor knows (SPEC X3). */
export interface ClassifyOptions {
  /**
   * True once the request of a side-effecting call may have left this process. After that, a
   * lost answer means the effect may have happened: the outcome becomes `unknown`.
   */
  readonly writeSent: boolean;
  /** The operation, e.g. `payment.charge`; named in messages. */
  readonly operation?: string;
  /** Clock for `Retry-After` HTTP-dates (ms since epoch); defaults to `Date.now`. */
  readonly now?: () => number;
}

/** Result of `classifyError()`: the envelope's `error`, and the status it implies. */
export interface ClassifiedError {
  readonly kind: ErrorKind;
  readonly error: ErrorInfo;
  readonly status: 'failed' | 'unknown';
}

/**
 * Internal: one classified cause before the write position is applied. `afterSend` says what
 * the failure means once a write was sent: `definite` (the upstream answered, or the request
 * provably never left), or `ambiguous` (the effect may have happened).
 */
export interface Classification {
  readonly kind: 'protocol' | 'execution';
  readonly category: ErrorCategory;
  readonly code: string;
  readonly message: string;
  readonly retryable: boolean;
  readonly action: ErrorAction;
  readonly afterSend: 'definite' | 'ambiguous';
  readonly http_status?: number;
  readonly jsonrpc_code?: number;
  readonly retry_after_ms?: number;
  /** The low-level code this was read from (`ECONNRESET`, `UND_ERR_SOCKET`, …). */
  readonly cause_code?: string;
}

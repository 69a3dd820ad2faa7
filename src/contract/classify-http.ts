/**
 * HTTP status → error classification (SPEC X2/X3). Pure table plus the `Retry-After` parser.
 */
import type { Classification } from './classify-types.js';

/**
 * Parse a `Retry-After` value (RFC 9110 §10.2.3): delta-seconds or an HTTP-date. Returns
 * milliseconds from `nowMs`, or undefined when the value is missing or unreadable.
 * @example parseRetryAfter('120', Date.now()) // 120000
 */
export function parseRetryAfter(value: string | number | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const ms = Number(text) * 1000;
    return Number.isSafeInteger(ms) ? ms : undefined;
  }
  // An HTTP-date always names a weekday and "GMT"; refuse anything looser so "soon" is not a date.
  if (!/GMT$/.test(text)) return undefined;
  const at = Date.parse(text);
  if (!Number.isFinite(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * Classify an HTTP status the upstream answered with. A response means the request arrived, so
 * only statuses that say "the server may have done part of the work" stay ambiguous after a
 * write (500, 502, 504, other 5xx); a 503 or a 4xx is the server declining the request.
 */
export function classifyHttpStatus(status: number, retryAfterMs: number | undefined): Classification {
  const http = { http_status: status };
  const later = retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs };
  switch (status) {
    case 400:
      return { ...http, kind: 'execution', category: 'validation', code: 'HTTP_BAD_REQUEST', message: 'the upstream rejected the request as malformed (HTTP 400)', retryable: false, action: 'fix_arguments', afterSend: 'definite' };
    case 401:
      return { ...http, kind: 'execution', category: 'authentication', code: 'HTTP_UNAUTHENTICATED', message: 'the upstream did not accept the credentials (HTTP 401)', retryable: false, action: 'request_authorization', afterSend: 'definite' };
    case 403:
      return { ...http, kind: 'execution', category: 'authorization', code: 'HTTP_FORBIDDEN', message: 'the caller is not allowed to do this (HTTP 403)', retryable: false, action: 'request_authorization', afterSend: 'definite' };
    case 404:
      return { ...http, kind: 'execution', category: 'not_found', code: 'HTTP_NOT_FOUND', message: 'the upstream has no such resource (HTTP 404)', retryable: false, action: 'explain_to_user', afterSend: 'definite' };
    case 408:
      return { ...http, ...later, kind: 'execution', category: 'transport_timeout', code: 'HTTP_REQUEST_TIMEOUT', message: 'the upstream gave up waiting for the request (HTTP 408)', retryable: true, action: 'retry', afterSend: 'definite' };
    case 409:
      return { ...http, kind: 'execution', category: 'conflict', code: 'HTTP_CONFLICT', message: 'the request conflicts with the current state of the resource (HTTP 409)', retryable: false, action: 'explain_to_user', afterSend: 'definite' };
    case 422:
      return { ...http, kind: 'execution', category: 'validation', code: 'HTTP_UNPROCESSABLE', message: 'the upstream understood the request but refused its content (HTTP 422)', retryable: false, action: 'fix_arguments', afterSend: 'definite' };
    case 429:
      return { ...http, ...later, kind: 'execution', category: 'rate_limited', code: 'HTTP_RATE_LIMITED', message: 'the upstream is rate limiting the caller (HTTP 429)', retryable: true, action: 'retry_later', afterSend: 'definite' };
    case 500:
      return { ...http, kind: 'execution', category: 'upstream', code: 'HTTP_INTERNAL_SERVER_ERROR', message: 'the upstream failed while handling the request (HTTP 500)', retryable: false, action: 'explain_to_user', afterSend: 'ambiguous' };
    case 502:
      return { ...http, ...later, kind: 'execution', category: 'upstream', code: 'HTTP_BAD_GATEWAY', message: 'a gateway got no valid answer from the upstream (HTTP 502)', retryable: true, action: 'retry', afterSend: 'ambiguous' };
    case 503:
      return { ...http, ...later, kind: 'execution', category: 'upstream', code: 'HTTP_SERVICE_UNAVAILABLE', message: 'the upstream is temporarily unavailable (HTTP 503)', retryable: true, action: 'retry_later', afterSend: 'definite' };
    case 504:
      return { ...http, kind: 'execution', category: 'transport_timeout', code: 'HTTP_GATEWAY_TIMEOUT', message: 'a gateway timed out waiting for the upstream (HTTP 504)', retryable: true, action: 'retry', afterSend: 'ambiguous' };
    default:
      break;
  }
  if (status >= 500 && status <= 599) {
    return { ...http, kind: 'execution', category: 'upstream', code: 'HTTP_SERVER_ERROR', message: `the upstream failed (HTTP ${status})`, retryable: false, action: 'explain_to_user', afterSend: 'ambiguous' };
  }
  if (status >= 400 && status <= 499) {
    return { ...http, kind: 'execution', category: 'upstream', code: 'HTTP_CLIENT_ERROR', message: `the upstream refused the request (HTTP ${status})`, retryable: false, action: 'abort', afterSend: 'definite' };
  }
  // 1xx/2xx/3xx reported as a failure: the caller could not use the answer; say so plainly.
  const valid = Number.isInteger(status) && status >= 100 && status <= 599;
  return {
    ...(valid ? http : {}),
    kind: 'execution',
    category: 'upstream',
    code: 'HTTP_UNEXPECTED_STATUS',
    message: `the upstream answered with an unexpected status ${String(status)}`,
    retryable: false,
    action: 'abort',
    afterSend: 'ambiguous',
  };
}

/**
 * Classify what Node actually throws: DOMException timeouts and aborts, undici `fetch failed`
 * TypeErrors with a `cause.code`, `node:net` errors, SDK errors that carry an HTTP status or a
 * JSON-RPC code, the v2 MCP SDK's own timeout and closed-connection errors.
 */
import type { Classification } from './classify-types.js';
import { classifyHttpStatus, parseRetryAfter } from './classify-http.js';
import { classifyJsonRpcCode } from './classify-jsonrpc.js';
import { TrcError } from './trc-error.js';

type Row = Omit<Classification, 'message' | 'cause_code'> & { readonly what: string };

const refused: Row = { kind: 'execution', category: 'network', code: 'CONNECTION_REFUSED', what: 'the upstream refused the connection', retryable: true, action: 'retry', afterSend: 'definite' };
const dns: Row = { kind: 'execution', category: 'network', code: 'HOST_NOT_FOUND', what: 'the upstream host name does not resolve', retryable: false, action: 'abort', afterSend: 'definite' };
const dnsAgain: Row = { kind: 'execution', category: 'network', code: 'DNS_TEMPORARY_FAILURE', what: 'the host name could not be resolved right now', retryable: true, action: 'retry_later', afterSend: 'definite' };
const connectTimeout: Row = { kind: 'execution', category: 'transport_timeout', code: 'CONNECT_TIMEOUT', what: 'the connection to the upstream timed out', retryable: true, action: 'retry', afterSend: 'definite' };
const tls: Row = { kind: 'execution', category: 'network', code: 'TLS_ERROR', what: "the upstream's TLS certificate was not accepted", retryable: false, action: 'abort', afterSend: 'definite' };
const reset: Row = { kind: 'execution', category: 'network', code: 'CONNECTION_RESET', what: 'the connection was reset or closed before the response arrived', retryable: true, action: 'retry', afterSend: 'ambiguous' };
const unreachable: Row = { kind: 'execution', category: 'network', code: 'NETWORK_UNREACHABLE', what: 'the upstream could not be reached', retryable: true, action: 'retry_later', afterSend: 'ambiguous' };
const timeout: Row = { kind: 'execution', category: 'transport_timeout', code: 'TIMEOUT', what: 'the request timed out', retryable: true, action: 'retry', afterSend: 'ambiguous' };
const aborted: Row = { kind: 'execution', category: 'cancelled', code: 'CANCELLED', what: 'the request was cancelled', retryable: false, action: 'abort', afterSend: 'ambiguous' };

/**
 * Low-level codes (Node `errno` codes and undici `UND_ERR_*`). Refused, DNS, connect-timeout and
 * TLS failures happen before any request byte leaves, so they stay definite even after
 * `writeSent`; everything that can break an established exchange is ambiguous.
 */
const NETWORK_CODES: Readonly<Record<string, Row>> = {
  ECONNREFUSED: refused,
  ENOTFOUND: dns,
  EAI_AGAIN: dnsAgain,
  UND_ERR_CONNECT_TIMEOUT: connectTimeout,
  CERT_HAS_EXPIRED: tls,
  DEPTH_ZERO_SELF_SIGNED_CERT: tls,
  SELF_SIGNED_CERT_IN_CHAIN: tls,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: tls,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: tls,
  ERR_TLS_CERT_ALTNAME_INVALID: tls,
  ECONNRESET: reset,
  ECONNABORTED: reset,
  EPIPE: reset,
  UND_ERR_SOCKET: reset,
  UND_ERR_CLOSED: reset,
  EHOSTUNREACH: unreachable,
  ENETUNREACH: unreachable,
  ENETDOWN: unreachable,
  ETIMEDOUT: timeout,
  ESOCKETTIMEDOUT: timeout,
  UND_ERR_HEADERS_TIMEOUT: timeout,
  UND_ERR_BODY_TIMEOUT: timeout,
  UND_ERR_ABORTED: aborted,
};

/**
 * What the v2 MCP SDK's `SdkError` codes mean: errors its client makes itself, never a server's
 * answer (a server's JSON-RPC error is a `ProtocolError` with a numeric code). It reports the
 * caller's abort as `REQUEST_TIMEOUT` too, with the abort reason's text as the message and no
 * `data`; its own timeouts carry their limits in `data`, an `AbortSignal.timeout()` says
 * `TimeoutError`.
 */
function mcpSdkRow(link: unknown): Row | undefined {
  if (prop(link, 'name') !== 'SdkError') return undefined;
  const code = prop(link, 'code');
  if (code === 'CONNECTION_CLOSED') return reset;
  if (code !== 'REQUEST_TIMEOUT') return undefined;
  const message = prop(link, 'message');
  const timedOut = prop(link, 'data') !== undefined || (typeof message === 'string' && message.startsWith('TimeoutError'));
  return timedOut ? timeout : aborted;
}

/**
 * Whether `value` is an error an MCP client made itself rather than a server's JSON-RPC error:
 * v1's `McpError` for its own timeout (-32001 with `data.timeout`, the limit it waited: a
 * server's error never carries the client's limit) or a transport that closed (-32000
 * "Connection closed", no data), and v2's `SdkError`. {@link classifyError} reads these as a
 * timeout or a closed connection, never as the server's answer.
 * @example isMcpClientError(new McpError(-32001, 'Request timed out', { timeout: 60000 })) // true
 */
export function isMcpClientError(value: unknown): boolean {
  if (prop(value, 'name') === 'SdkError') return true;
  if (prop(value, 'name') !== 'McpError') return false;
  const code = prop(value, 'code');
  const data = prop(value, 'data');
  if (code === -32001) return typeof prop(data, 'timeout') === 'number';
  return code === -32000 && data === undefined && prop(value, 'message') === 'MCP error -32000: Connection closed';
}

const MAX_DETAIL = 300;

/** The thrown value's own message, shortened: it may be long or come from an untrusted server. */
function detail(value: unknown): string {
  const raw = value instanceof Error ? value.message : typeof value === 'string' ? value : '';
  const text = raw.length > MAX_DETAIL ? raw.slice(0, MAX_DETAIL) + '…' : raw;
  return text === '' ? '' : ` (${text})`;
}

const fromRow = (row: Row, value: unknown, causeCode?: string): Classification => {
  const { what, ...rest } = row;
  return { ...rest, message: what + detail(value), ...(causeCode === undefined ? {} : { cause_code: causeCode }) };
};

/** Read a property without trusting the value: getters and proxies may throw. */
function prop(value: unknown, key: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** The value, its `cause` chain and `AggregateError.errors`, breadth first, bounded. */
function chain(value: unknown): unknown[] {
  const out: unknown[] = [];
  const queue: unknown[] = [value];
  while (queue.length > 0 && out.length < 16) {
    const next = queue.shift();
    if (next === undefined || next === null || out.includes(next)) continue;
    out.push(next);
    queue.push(prop(next, 'cause'));
    const errors = prop(next, 'errors');
    if (Array.isArray(errors)) queue.push(...errors.slice(0, 4));
  }
  return out;
}

function retryAfterOf(value: unknown, nowMs: number): number | undefined {
  const headers = prop(value, 'headers');
  let raw: unknown;
  const get = prop(headers, 'get');
  if (typeof get === 'function') {
    try {
      raw = (get as (name: string) => unknown).call(headers, 'retry-after');
    } catch {
      raw = undefined;
    }
  } else {
    raw = prop(headers, 'retry-after') ?? prop(headers, 'Retry-After');
  }
  return typeof raw === 'string' || typeof raw === 'number' ? parseRetryAfter(raw, nowMs) : undefined;
}

const isHttpStatus = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 400 && v <= 599;
const isRpcCode = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= -32768 && v <= -32000;

/** Classify a thrown value (or a rejection reason). Never throws. */
export function classifyThrown(value: unknown, nowMs: number): Classification {
  const links = chain(value);
  const names = links.map((l) => prop(l, 'name'));
  // A TimeoutError anywhere in the chain wins over the AbortError that may wrap it.
  if (names.includes('TimeoutError')) return fromRow(timeout, value);
  if (names[0] === 'AbortError') return fromRow(aborted, value);
  for (const link of links) {
    const code = prop(link, 'code');
    if (typeof code === 'string' && Object.prototype.hasOwnProperty.call(NETWORK_CODES, code)) {
      return fromRow(NETWORK_CODES[code] as Row, link, code);
    }
    const sdk = mcpSdkRow(link);
    if (sdk !== undefined) return fromRow(sdk, link, code as string);
  }
  if (value instanceof TrcError) {
    return { kind: 'execution', category: 'internal', code: value.code, message: value.message, retryable: false, action: 'abort', afterSend: 'ambiguous' };
  }
  // SDK errors (OpenAI, Anthropic, many HTTP clients) carry the response status.
  const status = prop(value, 'status') ?? prop(value, 'statusCode');
  if (isHttpStatus(status)) {
    const c = classifyHttpStatus(status, retryAfterOf(value, nowMs));
    return { ...c, message: c.message + detail(value) };
  }
  // MCP SDK `McpError` / `ProtocolError`: a JSON-RPC code on the thrown error.
  const rpc = prop(value, 'code');
  if (isRpcCode(rpc)) {
    return classifyJsonRpcCode(rpc, value instanceof Error ? value.message.slice(0, MAX_DETAIL) : undefined, isMcpClientError(value));
  }
  if (value instanceof TypeError && value.message === 'fetch failed') {
    const code = links.map((l) => prop(l, 'code')).find((c): c is string => typeof c === 'string');
    return {
      kind: 'execution', category: 'network', code: 'FETCH_FAILED',
      message: 'the HTTP request failed' + detail(links[1] ?? value),
      retryable: false, action: 'abort', afterSend: 'ambiguous',
      ...(code === undefined ? {} : { cause_code: code }),
    };
  }
  if (value instanceof SyntaxError) {
    return { kind: 'execution', category: 'upstream', code: 'UPSTREAM_INVALID_RESPONSE', message: 'the upstream response could not be parsed' + detail(value), retryable: false, action: 'abort', afterSend: 'ambiguous' };
  }
  if (value instanceof Error) {
    return { kind: 'execution', category: 'internal', code: 'INTERNAL_ERROR', message: `the tool threw ${value.name}` + detail(value), retryable: false, action: 'abort', afterSend: 'ambiguous' };
  }
  return { kind: 'execution', category: 'internal', code: 'THROWN_NON_ERROR', message: `the tool threw a non-Error value (${value === null ? 'null' : typeof value})`, retryable: false, action: 'abort', afterSend: 'ambiguous' };
}

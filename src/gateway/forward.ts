/**
 * Faithful forwarding of one request to an upstream: results pass through untouched (a loose
 * schema keeps unknown fields), JSON-RPC errors keep their code, message and data, progress
 * notifications are relayed under the client's own progress token.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, ResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { beginRelated, type RequestId } from './related-requests.js';
import type { UpstreamConnection } from './upstream.js';

/** The subset of the SDK's request-handler `extra` that forwarding uses. */
export interface ForwardExtra {
  readonly signal: AbortSignal;
  /** The client request being served: what the upstream sends meanwhile goes on its stream. */
  readonly requestId?: RequestId;
  sendNotification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
}

/** An error that the SDK server sends back as exactly this JSON-RPC error. */
export class RelayedRpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  /**
   * False when the SDK made the error on this side (its own timeout, the connection closing):
   * those codes (−32001, −32000) are also codes an upstream may answer with, and then they are
   * the upstream's answer, not a timeout or a dropped connection.
   */
  readonly fromUpstream: boolean;
  constructor(code: number, message: string, data?: unknown, fromUpstream = true) {
    super(message);
    this.name = 'RelayedRpcError';
    this.code = code;
    this.data = data;
    this.fromUpstream = fromUpstream;
  }
}

const PREFIX = /^MCP error -?\d+: /;

/**
 * Turn an SDK client error back into the JSON-RPC error the upstream sent. `local`: the SDK made
 * it here (see {@link RelayedRpcError.fromUpstream}).
 */
export function relayError(error: unknown, local = false): unknown {
  if (error instanceof McpError) {
    // The SDK decorates messages with "MCP error <code>: " on each side of the wire; the server's
    // own words are what follows.
    let message = error.message;
    for (let i = 0; i < 4 && PREFIX.test(message); i++) message = message.replace(PREFIX, '');
    return new RelayedRpcError(error.code, message, error.data, !local);
  }
  return error;
}

/**
 * The JSON-RPC error answer (HTTP 200, as for any error of a request that was read) to the
 * request `body`, for `error`: a relayed one keeps its code, message and data; anything else is
 * −32603 with its message.
 * @example return errorResponse(body, relayError(error));
 */
export function errorResponse(body: unknown, error: unknown): Response {
  const id = (body as { id?: unknown } | null)?.id;
  const rpc = error instanceof RelayedRpcError
    ? { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) }
    : { code: -32603, message: error instanceof Error ? error.message : String(error) };
  return Response.json({ jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: rpc });
}

/**
 * A URL upstream answered 404 to a request of an established session: the server no longer
 * knows it (it restarted). The request was not processed, and the client must start a new
 * session (Streamable HTTP, "Session Management").
 */
export function sessionGone(up: UpstreamConnection, error: unknown): boolean {
  return up.config.url !== undefined && error instanceof Error && (error as { code?: unknown }).code === 404 && error.message.startsWith('Streamable HTTP error');
}

// The SDK's default request timeout, when none is given.
const SDK_TIMEOUT_MS = 60_000;

/**
 * Whether the SDK made `error` on this side: a connection-closed error once the transport is
 * gone, a timeout once the request's own timeout has run out. An upstream that answers −32000
 * on a live connection, or −32001 early, sent it.
 */
function madeLocally(error: unknown, up: UpstreamConnection, elapsedMs: number, timeoutMs: number): boolean {
  if (!(error instanceof McpError)) return false;
  if (error.code === ErrorCode.ConnectionClosed) return up.closed;
  if (error.code === ErrorCode.RequestTimeout) return elapsedMs >= timeoutMs - 5;
  return false;
}

/**
 * Send `method` with `params` to the upstream and return its raw result.
 * @example const page = await forwardRequest(up, 'tools/list', { cursor }, extra);
 */
export async function forwardRequest(
  up: UpstreamConnection,
  method: string,
  params: Record<string, unknown> | undefined,
  extra: ForwardExtra,
  options: { timeoutMs?: number } = {},
): Promise<Record<string, unknown>> {
  const pending: Promise<void>[] = [];
  const relay = relayProgress(up, params, extra, pending);
  const related = beginRelated(up.client, extra.requestId);
  const started = performance.now();
  try {
    const result = await up.client.request({ method, ...(relay.params === undefined ? {} : { params: relay.params }) }, ResultSchema, {
      signal: extra.signal,
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs, maxTotalTimeout: options.timeoutMs }),
    });
    // Progress relayed before the answer must reach the client before it.
    await Promise.all(pending);
    return result as Record<string, unknown>;
  } catch (error) {
    if (sessionGone(up, error)) up.markClosed('the upstream answered HTTP 404 for this session: it restarted or dropped the session');
    throw relayError(error, madeLocally(error, up, performance.now() - started, options.timeoutMs ?? SDK_TIMEOUT_MS));
  } finally {
    relay.stop();
    related();
  }
}

/**
 * The upstream gets a progress token of the gateway's own (unique per upstream connection);
 * its progress notifications go back to the client under the token the client chose.
 */
function relayProgress(
  up: UpstreamConnection,
  params: Record<string, unknown> | undefined,
  extra: ForwardExtra,
  pending: Promise<void>[],
): { params: Record<string, unknown> | undefined; stop: () => void } {
  const meta = params?.['_meta'] as Record<string, unknown> | undefined;
  const token = meta?.['progressToken'];
  if (params === undefined || meta === undefined || token === undefined) return { params, stop: () => undefined };
  const own = `trc-${randomUUID()}`;
  const stop = up.watchProgress(own, (p) => {
    pending.push(extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken: token } }).catch(() => undefined));
  });
  return { params: { ...params, _meta: { ...meta, progressToken: own } }, stop };
}

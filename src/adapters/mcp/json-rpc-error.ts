/**
 * JSON-RPC errors (X1: protocol errors) as the MCP adapter recognizes them: the SDK's
 * `McpError`/`ProtocolError` (an `Error` with a numeric `code`), a raw error object
 * `{ code, message, data? }`, or a whole JSON-RPC error response `{ jsonrpc, id, error: {...} }`.
 * Classifying them is the executor's job.
 */
import { isMcpClientError } from '../../contract/index.js';

/** A JSON-RPC error member. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

const PREFIX = /^MCP error -?\d+: /;

/**
 * The JSON-RPC error in `value`, or undefined when it is not one.
 * @example asJsonRpcError({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } })?.code // -32601
 */
export function asJsonRpcError(value: unknown): JsonRpcErrorObject | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // An abort or timeout reason: its numeric `code` is the DOM's legacy one (20, 23), not JSON-RPC.
  if (value instanceof DOMException) return undefined;
  // The client's own timeout or closed connection looks like a server's error; it is not one.
  if (isMcpClientError(value)) return undefined;
  const rec = value as Record<string, unknown>;
  if ('error' in rec && typeof rec['error'] === 'object' && rec['error'] !== null && !('content' in rec)) {
    return asJsonRpcError(rec['error']);
  }
  const code = rec['code'];
  const message = rec['message'];
  if (typeof code !== 'number' || !Number.isInteger(code)) return undefined;
  if (typeof message !== 'string') return undefined;
  // A CallToolResult never has a numeric `code` next to `message` without `content`.
  if ('content' in rec) return undefined;
  // The SDK prefixes its errors' messages; the server's own words are what follows.
  return { code, message: message.replace(PREFIX, ''), ...(rec['data'] === undefined ? {} : { data: rec['data'] }) };
}

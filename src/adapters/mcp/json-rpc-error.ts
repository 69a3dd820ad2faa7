/**
 * JSON-RPC errors (X1: protocol errors) → envelopes. Accepts the SDK's `McpError`/`ProtocolError`
 * (an `Error` with a numeric `code`), a raw error object `{ code, message, data? }`, or a whole
 * JSON-RPC error response `{ jsonrpc, id, error: {...} }`.
 */
import { classifyError, type Envelope } from '../../contract/index.js';
import { envelopeFromClassified, type CallRef } from '../shared/index.js';

/** A JSON-RPC error member. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * The JSON-RPC error in `value`, or undefined when it is not one.
 * @example asJsonRpcError({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } })?.code // -32601
 */
export function asJsonRpcError(value: unknown): JsonRpcErrorObject | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
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
  return { code, message, ...(rec['data'] === undefined ? {} : { data: rec['data'] }) };
}

/**
 * Envelope for a JSON-RPC error answering a `tools/call`. `writeSent` is true unless the tool
 * is known to only read: a lost response to a write is an unknown outcome, not a failure.
 */
export function fromJsonRpcError(err: JsonRpcErrorObject, call: CallRef, options: { operation: string; writeSent: boolean }): Envelope {
  const classified = classifyError({ jsonRpcError: err }, { writeSent: options.writeSent, operation: options.operation });
  // A definite protocol failure is filed under `protocol` whatever the code; the classifier's
  // action (e.g. fix_arguments for -32602) still says what to do. Unknown outcomes keep their
  // transport category (timeout, network).
  const category = classified.kind === 'protocol' ? 'protocol' : classified.error.category;
  const error = { ...classified.error, category, jsonrpc_code: err.code };
  if (err.data !== undefined && error.details === undefined) error.details = { data: err.data };
  return envelopeFromClassified({ ...classified, error }, call, options.operation);
}

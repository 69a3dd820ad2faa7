/**
 * JSON-RPC error code → error classification (SPEC X1: protocol errors). Codes from JSON-RPC 2.0
 * and the MCP specification / SDK.
 */
import type { Classification } from './classify-types.js';

/**
 * Classify a JSON-RPC error code. The reserved codes mean the call never ran as intended; the
 * implementation-defined server range (-32000…-32099) is the server's own failure. `thrown`: the
 * MCP client made the error itself (see `isMcpClientError`): −32001 for its own timeout and
 * −32000 for a closed connection, a transport failure (kind `execution`) and no answer at all;
 * in an error a server answered, they are the server's own codes.
 */
export function classifyJsonRpcCode(code: number, message: string | undefined, thrown = false): Classification {
  const rpc = { jsonrpc_code: code };
  const said = message === undefined || message === '' ? '' : `: ${message}`;
  switch (code) {
    case -32700:
      return { ...rpc, kind: 'protocol', category: 'protocol', code: 'JSONRPC_PARSE_ERROR', message: `the server could not parse the request as JSON${said}`, retryable: false, action: 'abort', afterSend: 'definite' };
    case -32600:
      return { ...rpc, kind: 'protocol', category: 'protocol', code: 'JSONRPC_INVALID_REQUEST', message: `the request is not a valid JSON-RPC request${said}`, retryable: false, action: 'abort', afterSend: 'definite' };
    case -32601:
      return { ...rpc, kind: 'protocol', category: 'protocol', code: 'JSONRPC_METHOD_NOT_FOUND', message: `the server does not offer this method${said}`, retryable: false, action: 'abort', afterSend: 'definite' };
    case -32602:
      // MCP servers also use this for an unknown tool name: the arguments of the call are wrong.
      return { ...rpc, kind: 'protocol', category: 'validation', code: 'JSONRPC_INVALID_PARAMS', message: `the server rejected the parameters${said}`, retryable: false, action: 'fix_arguments', afterSend: 'definite' };
    case -32603:
      return { ...rpc, kind: 'protocol', category: 'internal', code: 'JSONRPC_INTERNAL_ERROR', message: `the server failed internally${said}`, retryable: false, action: 'explain_to_user', afterSend: 'ambiguous' };
    case -32002:
      return { ...rpc, kind: 'protocol', category: 'not_found', code: 'RESOURCE_NOT_FOUND', message: `the server has no such resource${said}`, retryable: false, action: 'explain_to_user', afterSend: 'definite' };
    case -32001:
      if (!thrown) break;
      // MCP SDK: the client stopped waiting for the response.
      return { ...rpc, kind: 'execution', category: 'transport_timeout', code: 'REQUEST_TIMEOUT', message: `no response before the request timed out${said}`, retryable: true, action: 'retry', afterSend: 'ambiguous' };
    case -32000:
      if (!thrown) break;
      // MCP SDK: the connection closed before the response arrived.
      return { ...rpc, kind: 'execution', category: 'network', code: 'CONNECTION_CLOSED', message: `the connection closed before the response arrived${said}`, retryable: true, action: 'retry', afterSend: 'ambiguous' };
    case -32042:
      return { ...rpc, kind: 'protocol', category: 'authorization', code: 'URL_ELICITATION_REQUIRED', message: `the user must complete a step in the browser first${said}`, retryable: false, action: 'ask_user', afterSend: 'definite' };
    default:
      break;
  }
  if (code <= -32000 && code >= -32099) {
    return { ...rpc, kind: 'protocol', category: 'upstream', code: 'JSONRPC_SERVER_ERROR', message: `the server reported an error (${code})${said}`, retryable: false, action: 'explain_to_user', afterSend: 'ambiguous' };
  }
  if (code <= -32100 && code >= -32768) {
    return { ...rpc, kind: 'protocol', category: 'protocol', code: 'JSONRPC_RESERVED_ERROR', message: `the server used a reserved JSON-RPC code (${code})${said}`, retryable: false, action: 'abort', afterSend: 'ambiguous' };
  }
  // Application-defined codes: the server answered, but we cannot tell what it means.
  return { ...rpc, kind: 'execution', category: 'upstream', code: 'JSONRPC_APPLICATION_ERROR', message: `the server returned application error ${code}${said}`, retryable: false, action: 'explain_to_user', afterSend: 'ambiguous' };
}

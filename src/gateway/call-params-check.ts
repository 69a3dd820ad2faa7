/**
 * A `tools/call` whose params the SDK's schema refuses (arguments that are not an object, a
 * missing name) is answered here with JSON-RPC −32602 and the JSON Pointer of the offending
 * member. Left to the SDK, the schema check fails inside its dispatcher and the client gets
 * −32603 "internal error" with a Zod dump as the message, for a mistake that is the client's.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Why a `tools/call` request's params are refused. */
export interface CallParamsProblem {
  /** JSON Pointer into the request message, e.g. `/params/arguments`. */
  readonly pointer: string;
  readonly message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What is wrong with the `tools/call` request `message`, or null when the SDK's schema accepts
 * it. The common shape (a name, object arguments, no task) is recognized without the schema.
 * @example callParamsProblem({ method: 'tools/call', params: { name: 'echo', arguments: 'x' } })?.pointer // '/params/arguments'
 */
export function callParamsProblem(message: { readonly method?: unknown; readonly params?: unknown }): CallParamsProblem | null {
  const params = message.params;
  if (isObject(params) && typeof params['name'] === 'string' && params['task'] === undefined && !Object.hasOwn(params, '_meta')) {
    const args = params['arguments'];
    if (args === undefined || isObject(args)) return null;
  }
  const parsed = CallToolRequestSchema.safeParse(message);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  const pointer = path.map((p) => '/' + String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
  return { pointer, message: `tools/call ${pointer === '' ? 'request' : pointer}: ${issue?.message ?? 'does not match the schema'}` };
}

/**
 * Answer bad `tools/call` params on `transport` itself, before the SDK's dispatcher sees them.
 * Call after `server.connect(transport)`, which installs the handler this wraps.
 * @example await server.connect(transport); refuseBadCallParams(transport);
 */
export function refuseBadCallParams(transport: Transport): void {
  const dispatch = transport.onmessage;
  if (dispatch === undefined) return;
  transport.onmessage = (message, extra) => {
    const m = message as { id?: string | number; method?: unknown; params?: unknown };
    if (m.method === 'tools/call' && m.id !== undefined) {
      const problem = callParamsProblem(m);
      if (problem !== null) {
        const answer: JSONRPCMessage = { jsonrpc: '2.0', id: m.id, error: { code: ErrorCode.InvalidParams, message: problem.message, data: { pointer: problem.pointer } } };
        void transport.send(answer, { relatedRequestId: m.id }).catch(() => undefined);
        return;
      }
    }
    dispatch.call(transport, message, extra);
  };
}

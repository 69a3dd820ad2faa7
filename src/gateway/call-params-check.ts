/**
 * A request whose params the SDK's schema refuses (`tools/call` arguments that are not an
 * object, a missing name, a `resources/read` without a string `uri`, a `prompts/get` whose
 * arguments are not an object…) is answered here with JSON-RPC −32602 and the JSON Pointer of
 * the offending member. Left to the SDK, the schema check fails inside its dispatcher and the
 * client gets −32603 "internal error" with a Zod dump as the message, for a mistake that is the
 * client's.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

/** Why a `tools/call` request's params are refused. */
export interface ParamsProblem {
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
export function callParamsProblem(message: { readonly method?: unknown; readonly params?: unknown }): ParamsProblem | null {
  const params = message.params;
  if (isObject(params) && typeof params['name'] === 'string' && params['task'] === undefined && !Object.hasOwn(params, '_meta')) {
    const args = params['arguments'];
    if (args === undefined || isObject(args)) return null;
  }
  return schemaProblem('tools/call', CallToolRequestSchema, message);
}

/** What the SDK's dispatcher parses each request the gateway serves with (besides `tools/call`). */
const SCHEMAS: Readonly<Record<string, RequestSchema>> = {
  'resources/read': ReadResourceRequestSchema,
  'resources/subscribe': SubscribeRequestSchema,
  'resources/unsubscribe': UnsubscribeRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'completion/complete': CompleteRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
  'tasks/get': GetTaskRequestSchema,
  'tasks/result': GetTaskPayloadRequestSchema,
  'tasks/list': ListTasksRequestSchema,
  'tasks/cancel': CancelTaskRequestSchema,
  ping: PingRequestSchema,
};

interface RequestSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * What is wrong with the params of request `message` (any method the gateway serves), or null
 * when the SDK's schema for its method accepts them or the method is not one the gateway serves
 * (the SDK answers those −32601).
 * @example requestParamsProblem({ method: 'resources/read', params: { uri: 5 } })?.pointer // '/params/uri'
 */
export function requestParamsProblem(message: { readonly method?: unknown; readonly params?: unknown }): ParamsProblem | null {
  if (message.method === 'tools/call') return callParamsProblem(message);
  const schema = typeof message.method === 'string' && Object.hasOwn(SCHEMAS, message.method) ? SCHEMAS[message.method] : undefined;
  return schema === undefined ? null : schemaProblem(message.method as string, schema, message);
}

function schemaProblem(method: string, schema: RequestSchema, message: unknown): ParamsProblem | null {
  const parsed = schema.safeParse(message);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  const pointer = path.map((p) => '/' + String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
  return { pointer, message: `${method} ${pointer === '' ? 'request' : pointer}: ${issue?.message ?? 'does not match the schema'}` };
}

/**
 * Answer bad request params on `transport` itself, before the SDK's dispatcher sees them.
 * Call after `server.connect(transport)`, which installs the handler this wraps.
 * @example await server.connect(transport); refuseBadParams(transport);
 */
export function refuseBadParams(transport: Transport): void {
  const dispatch = transport.onmessage;
  if (dispatch === undefined) return;
  transport.onmessage = (message, extra) => {
    const m = message as { id?: string | number; method?: unknown; params?: unknown };
    if (m.id !== undefined) {
      const problem = requestParamsProblem(m);
      if (problem !== null) {
        const answer: JSONRPCMessage = { jsonrpc: '2.0', id: m.id, error: { code: ErrorCode.InvalidParams, message: problem.message, data: { pointer: problem.pointer } } };
        void transport.send(answer, { relatedRequestId: m.id }).catch(() => undefined);
        return;
      }
    }
    dispatch.call(transport, message, extra);
  };
}

/**
 * The HTTP answer to a 2026-07-28 request `body` of one of `methods` with bad params (−32602 and the pointer, as
 * {@link refuseBadParams} answers on a session), or null when its params are fine. The v2 server
 * package checks params inside its own dispatcher and answers such a request −32603 with a Zod
 * dump (a `tools/call`: −32602 without a pointer), so the gateway answers first.
 * @example const refused = badParamsResponse(body, new Set(['tools/call'])); if (refused !== null) return refused;
 */
export function badParamsResponse(body: unknown, methods: ReadonlySet<string>): Response | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const m = body as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof m.id !== 'string' && typeof m.id !== 'number') return null;
  // Only the methods the endpoint serves: any other is the SDK's to answer −32601.
  if (typeof m.method !== 'string' || !methods.has(m.method)) return null;
  const problem = requestParamsProblem(m);
  if (problem === null) return null;
  return Response.json({ jsonrpc: '2.0', id: m.id, error: { code: ErrorCode.InvalidParams, message: problem.message, data: { pointer: problem.pointer } } });
}

/**
 * MCP in (SPEC I1): a `CallToolResult` — or the JSON-RPC error that answered the call, or what
 * the client threw — becomes an envelope, through the executor's own classification,
 * normalization and trust stages (`envelopeFromOutcome`): output-schema check in the schema's
 * dialect, E7, isolation and detection of server text, annotations as hints only (T5). This
 * module only turns what it was given into the pipeline's `Outcome`.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { escapePointerToken, failed, type Envelope } from '../../contract/index.js';
import { callShapeProblem, envelopeFromOutcome, invalidCallError, outputCheckFor, recordableCall, type Outcome, type ToolRules } from '../../executor/index.js';
import { asJsonRpcError } from './json-rpc-error.js';
import type { FromMcpContext, McpToolRef } from './types.js';


/**
 * The rules of an MCP tool known only by its listing entry: its text is untrusted (source type
 * `mcp`), its annotations count only from a trusted server, and unless something says it only
 * reads it is handled as a possible write.
 * @example mcpToolRules({ name: 'search' }, { name: 'web' }).sourceUntrusted // true
 */
export function mcpToolRules(tool: McpToolRef, ctx: Pick<FromMcpContext, 'server' | 'readOnly'>): ToolRules {
  const trusted = ctx.server.trusted === true;
  const annotatedRead = trusted && tool.annotations?.readOnlyHint === true;
  const read = ctx.readOnly === true || annotatedRead;
  return {
    name: tool.name,
    effect: read ? 'read' : 'write',
    effectSource: ctx.readOnly === true ? 'declared' : annotatedRead ? 'annotation' : 'default',
    operation: read ? 'read' : tool.name,
    risk: read ? 'low' : 'medium',
    confirmation: { required: false },
    idempotent: read,
    honoursKey: false,
    reportsSend: false,
    reconcile: { available: false, queryTool: 'manual' },
    untrusted: [],
    trusted: [],
    sourceUntrusted: true,
    visibility: {},
    budget: {},
    validateInput: null,
    inputSchema: null,
    validateOutput: outputCheckFor(tool.outputSchema as Record<string, unknown> | undefined),
    source: { type: 'mcp', id: `${ctx.server.name}/${tool.name}` },
    timeoutMs: 60_000,
  };
}

/** What `result` is, as the pipeline's outcome. */
export function mcpOutcome(result: unknown, tool: McpToolRef, server: { name: string; trusted: boolean }): Outcome {
  const rpc = asJsonRpcError(result);
  if (rpc !== undefined) return { kind: 'rpc_error', code: rpc.code, message: rpc.message, ...(rpc.data === undefined ? {} : { data: rpc.data }) };
  // A transport failure (closed pipe, aborted request, timeout) rather than an answer.
  if (result instanceof Error) return { kind: 'threw', error: result };
  const parsed = CallToolResultSchema.safeParse(result);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 20).map((i) => ({ pointer: '/' + i.path.map((p) => escapePointerToken(String(p))).join('/'), message: i.message }));
    return { kind: 'mcp', result, server, issues };
  }
  const listing = { name: tool.name, ...(tool.title === undefined ? {} : { title: tool.title }), ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as Record<string, unknown> }), ...(tool.annotations === undefined ? {} : { annotations: tool.annotations as Record<string, unknown> }) };
  return { kind: 'mcp', result: parsed.data, listing, server };
}

/**
 * Wrap what a `tools/call` returned into an envelope. `result` may be a `CallToolResult`, an
 * `McpError`/`ProtocolError` or a raw JSON-RPC error, or any other thrown error (a transport
 * failure); anything else becomes a protocol-error envelope. Never throws; the envelope returned
 * always passes `validate()`.
 * @example
 * const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Hangzhou' } });
 * const env = fromMcpResult(result, tool, { call_id: 'call_1', server: { name: 'weather' } });
 */
export function fromMcpResult(result: unknown, tool: McpToolRef, ctx: FromMcpContext): Envelope {
  const server = { name: ctx.server.name, trusted: ctx.server.trusted === true };
  const rules = mcpToolRules(tool, ctx);
  const call = { tool_name: tool.name, call_id: ctx.call_id, ...(ctx.attempt === undefined ? {} : { attempt: ctx.attempt }), ...(ctx.idempotency_key === undefined || ctx.idempotency_key === null ? {} : { idempotency_key: ctx.idempotency_key }) };
  const clock = ctx.now;
  // A clock whose answer is no time would make every timestamp throw: the real clock stands in.
  const now = clock === undefined ? undefined : () => {
    const ms = Date.parse(clock());
    return Number.isNaN(ms) ? Date.now() : ms;
  };
  const shape = callShapeProblem({ ...call, args: null });
  const attemptBad = call.attempt !== undefined && !(Number.isInteger(call.attempt) && call.attempt >= 1);
  if (shape !== null || attemptBad) {
    // A context the envelope cannot carry (a numeric call id, attempt 0): the conversion says so in a valid envelope.
    const fixed = recordableCall({ ...call, args: null });
    return failed({ call: { tool_name: fixed.tool_name, call_id: fixed.call_id, attempt: 1 }, error: invalidCallError(shape ?? { pointer: '/attempt', message: 'attempt must be a whole number of at least 1' }) });
  }
  return envelopeFromOutcome(rules, mcpOutcome(result, tool, server), { call, ...(now === undefined ? {} : { now }) });
}

/**
 * `tools/call` through the gateway: route → rules → the executor's pipeline (policy,
 * confirmation, idempotency ledger and reconciliation for writes, deadline and cancellation,
 * classification, visibility, budget, evidence, isolation, model text, audit) with the upstream
 * as the invoker → render the envelope as a `CallToolResult`. The gateway adds no stage of its
 * own: transport, routing, sessions and configuration only.
 */
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ENVELOPE_META_KEY, createExecutor, idempotencyKey, newCallId, writeBehindAuditSink, type Executor, type Invoker, type McpListing, type ToolRules } from '../executor/index.js';
import { isTrcError, type ErrorInfo } from '../contract/index.js';
import { toMcpResult } from '../adapters/mcp/index.js';
import { RelayedRpcError, type ForwardExtra } from './forward.js';
import { upstreamInvoker } from './mcp-invoker.js';
import type { GatewayOptions, SessionState } from './session-state.js';
import { confirmationMeta, runOf, RUN_NOT_OPENED, CONFIRMATION_META_KEY, RUN_ID_META_KEY, RUN_SCOPE_META_KEY, RUN_USER_TEXT_META_KEY } from './run-identity.js';
import { holdOf, reconnectUpstream, resolveTool } from './session-upstreams.js';
import { toolRulesFor } from './tool-rules.js';

/** `_meta` key a client may set to choose the idempotency key of a write. */
export const IDEMPOTENCY_META_KEY = 'dev.tool-result-contract/idempotency_key';
/** `_meta` key a client may set to derive a stable key (tool + args + principal + scope) for a write it may repeat. */
export const SCOPE_META_KEY = 'dev.tool-result-contract/idempotency_scope';
/**
 * `_meta` key a client's host sets to confirm a held call: the token of the held result's
 * `_meta["dev.tool-result-contract/confirmation"]` (bound to those arguments, used once), or
 * `true` for a tool that requires confirmation of every call and was not held by its run.
 */
export const CONFIRM_META_KEY = 'dev.tool-result-contract/confirmed';
/** Attempts of one write under one key (the first send plus one resend after a confirmed absence). */
const MAX_WRITE_ATTEMPTS = 2;

const executors = new WeakMap<GatewayOptions, Executor>();

/**
 * The executor every session of one gateway runs its calls through: the gateway's store, a
 * write-behind audit sink (reads batched, writes recorded before they are answered), its clock.
 * The records of reads are made late, when their batch is stored: the gateway only renders the
 * envelopes it gets back, never changes them, so the record is the same and the answer does not
 * wait for it.
 */
export function gatewayExecutor(options: GatewayOptions): Executor {
  let ex = executors.get(options);
  if (ex === undefined) {
    const now = options.now;
    ex = createExecutor({ store: options.store, audit: writeBehindAuditSink(options.store, { lateRecords: true, ...(options.onAuditTrouble === undefined ? {} : { onTrouble: options.onAuditTrouble }) }), maxWriteAttempts: MAX_WRITE_ATTEMPTS, ...(now === undefined ? {} : { clock: () => now().getTime() }), ...(options.lease === undefined ? {} : { lease: options.lease }) });
    executors.set(options, ex);
  }
  return ex;
}

/**
 * Handle one `tools/call` request of a session (or, with `taskId`, the outcome of a task-augmented
 * call: `tasks/result` of that upstream task is the attempt, so the contract applies to it alike).
 * @example server.setRequestHandler(CallToolRequestSchema, (req, extra) => callTool(state, req.params, extra));
 */
export async function callTool(
  state: SessionState,
  params: { name: string; arguments?: Record<string, unknown> | undefined; _meta?: Record<string, unknown> | undefined },
  extra: ForwardExtra,
  options: { taskId?: string } = {},
): Promise<CallToolResult> {
  // A call sent before initialize was answered waits for the upstreams it starts.
  if (state.starting !== null) await state.starting;
  const route = await resolveTool(state, params.name);
  if (route === null) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
  const { upstream, name: upstreamTool, tool } = route;
  const compiled = compiledRules(state, route, params.name);
  // The pin a tool's definition is checked against lives in the store: when the store does not
  // answer, the call is refused by the pipeline (an envelope and a record, nothing sent), never
  // sent unchecked and never a bare protocol error.
  const pinned = await holdOf(state, upstream, tool).then((h) => ({ hold: h, refused: undefined }), (cause: unknown) => ({ hold: null, refused: pinUnavailable(params.name, cause) }));
  const rules = pinned.hold === null ? compiled : { ...compiled, hold: pinned.hold };
  const meta = params._meta ?? {};
  const args = params.arguments ?? {};
  const callId = newCallId();
  const executor = gatewayExecutor(state.options);
  // The run (session, or principal + run id): scope, taint and confirmations are the executor's.
  // A named run the store cannot give back is refused by the pipeline like a pin it cannot: the
  // run's record of untrusted content is what later calls are checked against.
  const opened = await runOf(state, executor, meta, extra).then(
    (r) => ({ run: r, refused: undefined }),
    (error: unknown) => {
      if (!isTrcError(error) || error.code !== RUN_NOT_OPENED) throw error;
      return { run: undefined, refused: { category: 'internal', code: RUN_NOT_OPENED, message: error.message, retryable: true, action: 'retry_later', kind: 'execution' } satisfies ErrorInfo };
    },
  );
  const run = opened.run;
  const refused = pinned.refused ?? opened.refused;
  const key = rules.effect === 'write' ? writeKey(meta, params.name, args, state.principal, callId) : undefined;
  // The client's cancellation (or its disconnect) cancels the call; the pipeline decides what that means.
  const cancel = new AbortController();
  // The SDK aborts a call before it reports the close: tell the two apart a turn later.
  const onAbort = () => setImmediate(() => cancel.abort(state.clientClosed ? 'client_disconnected' : 'client_cancelled'));
  if (extra.signal.aborted) onAbort();
  else extra.signal.addEventListener('abort', onAbort, { once: true });
  const onStop = () => cancel.abort(state.stopping.signal.reason);
  if (state.stopping.signal.aborted) onStop();
  else state.stopping.signal.addEventListener('abort', onStop, { once: true });
  // A dead upstream is restarted before the call, so the restart does not eat the tool's deadline
  // (the invoker still restarts it between attempts).
  const live = upstream.closed ? ((await reconnectUpstream(state, upstream).catch(() => null)) ?? upstream) : upstream;
  const invoker = upstreamInvoker(state, live, rules, { upstreamTool, listing: tool, meta: (k) => forwardedMeta(meta, k), extra, ...(options.taskId === undefined ? {} : { taskId: options.taskId }) });
  const confirm = meta[CONFIRM_META_KEY];
  // With an output schema the client validates structured content: never error details there.
  const structured = tool?.outputSchema !== undefined ? 'always' : 'auto';
  const env = await executor.run(
    rules,
    invoker,
    { call_id: callId, tool_name: params.name, args, ...(key === undefined ? {} : { idempotency_key: key }) },
    { id: state.principal, ...(confirm === true ? { confirmed: [callId] } : {}) },
    {
      signal: cancel.signal,
      ...(run === undefined ? {} : { run }),
      ...(refused === undefined ? {} : { refused }),
      ...(typeof confirm === 'string' ? { confirmation: confirm } : {}),
      // `structured`: how the result below is rendered, so the inspector can show what the client got.
      edge: { kind: 'gateway', transport: state.transport, session: state.sessionId, ...(run === undefined ? {} : { run: run.id }), upstream: upstream.config.name, upstream_tool: upstreamTool, effect_source: rules.effectSource, structured },
      // The MCP client's trace context (W3C, in `_meta`), linked from the call's span.
      ...(typeof meta['traceparent'] === 'string' ? { traceLinks: [meta] } : {}),
    },
  );
  extra.signal.removeEventListener('abort', onAbort);
  state.stopping.signal.removeEventListener('abort', onStop);
  const error = env.error;
  if (rules.effect === 'read' && env.status === 'failed' && error?.kind === 'protocol' && typeof error.jsonrpc_code === 'number') {
    // A protocol error from the upstream stays a JSON-RPC error (SPEC X1), in the pipeline's words.
    throw new RelayedRpcError(error.jsonrpc_code, error.message, { [ENVELOPE_META_KEY]: env });
  }
  const result = toMcpResult(env, { structured }) as CallToolResult;
  const held = run === undefined ? undefined : confirmationMeta(run, env);
  return held === undefined ? result : { ...result, _meta: { ...result._meta, ...held } };
}

type ToolRoute = NonNullable<Awaited<ReturnType<typeof resolveTool>>>;

/** The refusal of a call whose tool pin could not be read (the store did not answer). */
function pinUnavailable(tool: string, cause: unknown): ErrorInfo {
  const why = cause instanceof Error ? cause.message : String(cause);
  return { category: 'internal', code: 'TOOL_PIN_UNAVAILABLE', message: `the call was not sent: the pinned definition of "${tool}" could not be read from the store to check it (${why})`, retryable: true, action: 'retry_later', kind: 'execution' };
}

/** The rules of a routed tool, from the config and (for a trusted upstream) its listing. */
function compiledRules(state: SessionState, route: ToolRoute, exposed: string): ToolRules {
  const listing: McpListing | undefined = route.tool === undefined ? undefined : (route.tool as McpListing);
  return toolRulesFor(state.options.config, route.upstream.config, exposed, route.name, listing, CONFIRM_META_KEY);
}

/**
 * The rules a call of the exposed tool `name` would run with, null for an unknown tool: what the
 * HTTP door's scope check reads (the tool's effect), compiled exactly as {@link callTool} does.
 */
export async function toolRulesOf(state: SessionState, name: string): Promise<ToolRules | null> {
  const route = await resolveTool(state, name);
  return route === null ? null : compiledRules(state, route, name);
}

/** The invoker of a refused call: the pipeline refuses before any attempt, so it is never asked. */
const NOT_INVOKED: Invoker = {
  attempt: () => Promise.reject(new Error('a refused call is never invoked')),
};

/** What the HTTP door answered a refused call with: no MCP result, an HTTP error with a JSON-RPC error body. */
export interface DoorAnswer {
  readonly http_status: number;
  readonly jsonrpc_code: number;
}

/**
 * Run a `tools/call` the HTTP door refused (a token without the tool's scope) through the
 * pipeline as refused: nothing reaches the upstream, and the call gets its audit record like any
 * other, under the caller's principal. An unknown tool is not recorded: the session answers it.
 * `answered` is recorded in the edge block, so the inspector shows what the client got.
 * @example await recordRefusedCall(state, { name: 'pay__charge', arguments: args }, insufficientScope, { http_status: 403, jsonrpc_code: -32000 });
 */
export async function recordRefusedCall(state: SessionState, params: { name: string; arguments?: Record<string, unknown> | undefined }, error: ErrorInfo, answered: DoorAnswer): Promise<void> {
  const route = await resolveTool(state, params.name);
  if (route === null) return;
  const rules = compiledRules(state, route, params.name);
  const executor = gatewayExecutor(state.options);
  await executor.run(rules, NOT_INVOKED, { call_id: newCallId(), tool_name: params.name, args: params.arguments ?? {} }, { id: state.principal }, {
    refused: error,
    edge: { kind: 'gateway', transport: state.transport, session: state.sessionId, upstream: route.upstream.config.name, upstream_tool: route.name, effect_source: rules.effectSource, refused_at: 'http_door', answered },
  });
}

/** The client's `_meta` as forwarded upstream: the gateway's own keys out, the idempotency key in. */
function forwardedMeta(meta: Record<string, unknown>, key: string | null): Record<string, unknown> {
  const { [IDEMPOTENCY_META_KEY]: _k, [CONFIRM_META_KEY]: _c, [SCOPE_META_KEY]: _s, [RUN_ID_META_KEY]: _r, [RUN_SCOPE_META_KEY]: _rs, [RUN_USER_TEXT_META_KEY]: _u, [CONFIRMATION_META_KEY]: _cm, ...rest } = meta;
  // A write carries its key upstream, so a server that honours keys can deduplicate and be looked up by it.
  if (key !== null) rest[IDEMPOTENCY_META_KEY] = key;
  return rest;
}

/** The client's key; else one derived by the effects module, scoped by the client's scope or (default) this call. */
function writeKey(meta: Record<string, unknown>, tool: string, args: unknown, principal: string, callId: string): string | undefined {
  const given = meta[IDEMPOTENCY_META_KEY];
  if (typeof given === 'string' && given !== '') return given;
  const scope = meta[SCOPE_META_KEY];
  try {
    return idempotencyKey({ tool, args, principal, scope: typeof scope === 'string' && scope !== '' ? scope : callId });
  } catch {
    // Arguments with no canonical form (1e400, a lone surrogate): the pipeline refuses them
    // (ARGUMENTS_NOT_JSON) with an envelope and an audit record, before any key is needed.
    return undefined;
  }
}

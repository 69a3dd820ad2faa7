/**
 * The upstream MCP server as an invoker of the executor's pipeline: an attempt is one
 * `tools/call` forwarded to the (restarted, if it died) upstream, answered by its
 * `CallToolResult` or by what went wrong (JSON-RPC error, timeout, closed connection); a lookup
 * is the configured reconciliation tool. What the upstream wrote to stderr is kept for the audit
 * record only — never for the model.
 */
import { CallToolResultSchema, ErrorCode, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { escapePointerToken } from '../contract/index.js';
import type { Invoker, Outcome, ToolRules } from '../executor/index.js';
import { forwardRequest, RelayedRpcError, sessionGone, type ForwardExtra } from './forward.js';
import { MAX_UPSTREAM_MESSAGE_BYTES, MessageNotSentError } from './stdio-transports.js';
import { namespacedUri } from './routing.js';
import type { SessionState } from './session-state.js';
import { reconnectUpstream } from './session-upstreams.js';
import type { UpstreamConnection } from './upstream.js';
import { lookupOnUpstream } from './write-reconcile.js';

/** What the invoker forwards besides the arguments. */
export interface ForwardedCall {
  readonly upstreamTool: string;
  readonly listing: Tool | undefined;
  /** `_meta` to send upstream (the client's, minus the gateway's own keys, plus the idempotency key). */
  readonly meta: (key: string | null) => Record<string, unknown>;
  readonly extra: ForwardExtra;
  /** A task-augmented call's outcome: the attempt fetches `tasks/result` of this upstream task instead of calling the tool. */
  readonly taskId?: string;
}

/**
 * With several upstreams the client reads an upstream's resources by namespaced URI: the links
 * and embedded resources of its results say so too (before the pipeline, so evidence agrees).
 */
function namespaceResultUris(result: Record<string, unknown>, upstream: string): Record<string, unknown> {
  const content = result['content'];
  if (!Array.isArray(content)) return result;
  const blocks = content.map((b: Record<string, unknown>) => {
    if (b?.['type'] === 'resource_link' && typeof b['uri'] === 'string') return { ...b, uri: namespacedUri(upstream, b['uri']) };
    const r = b?.['resource'] as Record<string, unknown> | undefined;
    if (b?.['type'] === 'resource' && typeof r?.['uri'] === 'string') return { ...b, resource: { ...r, uri: namespacedUri(upstream, r['uri']) } };
    return b;
  });
  return { ...result, content: blocks };
}

/** The gateway's own reason for dropping the connection (a message over its limit), which the client may see. */
function tooLarge(up: UpstreamConnection): { why?: string } {
  const limit = up.config.max_message_bytes;
  return up.lastError !== undefined && /exceeded maximum size/.test(up.lastError) ? { why: `upstream "${up.config.name}" sent a message over the gateway's limit of ${limit ?? MAX_UPSTREAM_MESSAGE_BYTES} bytes for one message (max_message_bytes), so the connection was dropped` } : {};
}

function exitDetail(up: UpstreamConnection): string {
  if (up.lastError !== undefined && /exceeded maximum size/.test(up.lastError)) return `the gateway dropped the connection: ${up.lastError}`;
  const tail = up.stderrTail.at(-1);
  return tail === undefined ? 'the upstream process exited' : `the upstream process exited (last stderr line: ${tail.slice(0, 200)})`;
}

/**
 * The invoker of one tool call on `upstream`.
 * @example executor.run(rules, upstreamInvoker(state, upstream, rules, forwarded), call, principal)
 */
export function upstreamInvoker(state: SessionState, upstream: UpstreamConnection, rules: ToolRules, call: ForwardedCall): Invoker {
  let current: UpstreamConnection | null = upstream;
  let closedDuringCall = false;
  const connection = async (): Promise<UpstreamConnection | null> => {
    if (current !== null && current.closed) current = await reconnectUpstream(state, current).catch(() => null);
    return current;
  };
  const listing = call.listing === undefined ? undefined : { name: call.listing.name, ...(call.listing.title === undefined ? {} : { title: call.listing.title }), ...(call.listing.outputSchema === undefined ? {} : { outputSchema: call.listing.outputSchema as Record<string, unknown> }), ...(call.listing.annotations === undefined ? {} : { annotations: call.listing.annotations as Record<string, unknown> }) };
  const server = { name: upstream.config.name, trusted: upstream.config.trusted === true };
  return {
    async attempt(args, ctx): Promise<Outcome> {
      for (let tries = 0; ; tries++) {
        const up = await connection();
        if (up === null) return { kind: 'unavailable', detail: `upstream "${upstream.config.name}" exited and could not be restarted`, sent: false };
        const params: Record<string, unknown> = call.taskId === undefined ? { name: call.upstreamTool, arguments: args } : { taskId: call.taskId };
        const meta = call.meta(ctx.idempotencyKey);
        // The call's span is the upstream request's parent (W3C trace context in `_meta`).
        if (ctx.traceparent !== undefined) meta['traceparent'] = ctx.traceparent;
        if (Object.keys(meta).length > 0) params['_meta'] = meta;
        const noiseBefore = up.noise;
        ctx.markSent();
        try {
          // The executor's deadline ends the attempt; the SDK's own timeout only backs it up.
          const result = await forwardRequest(up, call.taskId === undefined ? 'tools/call' : 'tasks/result', params, { signal: ctx.signal, sendNotification: call.extra.sendNotification, ...(call.extra.requestId === undefined ? {} : { requestId: call.extra.requestId }) }, { timeoutMs: rules.timeoutMs + 1000 });
          const noise = up.noise - noiseBefore;
          const parsed = CallToolResultSchema.safeParse(state.upstreams.length > 1 ? namespaceResultUris(result, up.config.name) : result);
          if (!parsed.success) {
            const issues = parsed.error.issues.slice(0, 20).map((i) => ({ pointer: '/' + i.path.map((p) => escapePointerToken(String(p))).join('/'), message: i.message }));
            return { kind: 'mcp', result, listing, server, noise, issues };
          }
          return { kind: 'mcp', result: parsed.data, listing, server, noise };
        } catch (error) {
          if (error instanceof RelayedRpcError) {
            if (!error.fromUpstream && error.code === ErrorCode.RequestTimeout) return { kind: 'timeout', afterMs: rules.timeoutMs };
            if (!error.fromUpstream && error.code === ErrorCode.ConnectionClosed) {
              closedDuringCall = true;
              return { kind: 'closed', detail: exitDetail(up), ...tooLarge(up) };
            }
            return { kind: 'rpc_error', code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
          }
          // The request could not be serialized: it was never written, whatever the effect.
          if (error instanceof MessageNotSentError) return { kind: 'threw', error, sent: false };
          // A restarted URL upstream refused the old session without processing the request:
          // once more on a new session, a write too (it provably did not run).
          if (sessionGone(up, error)) {
            if (tries === 0 && !ctx.signal.aborted) continue;
            return { kind: 'unavailable', detail: `upstream "${up.config.name}" refused the session twice (HTTP 404)`, sent: false };
          }
          // A URL upstream that is down refused the connection: the request never left.
          if (up.config.url !== undefined && (error as { cause?: { code?: unknown } }).cause?.code === 'ECONNREFUSED') {
            return { kind: 'unavailable', detail: `upstream "${up.config.name}" refused the connection (${up.config.url})`, sent: false };
          }
          const message = (error as Error).message ?? String(error);
          // The SDK refuses to send on a transport that is gone: the request never left.
          const notSent = /not connected/i.test(message);
          // The process died before the request could be written (the SDK had not noticed yet):
          // once more on a fresh connection — a read always, a write only when it provably never left.
          if (tries === 0 && !ctx.signal.aborted && (notSent || (rules.effect === 'read' && up.closed))) continue;
          if (notSent) return { kind: 'unavailable', detail: `${message}; ${exitDetail(up)}`, sent: false };
          closedDuringCall = true;
          return { kind: 'closed', detail: `${message}; ${exitDetail(up)}`, ...tooLarge(up) };
        }
      }
    },
    ...(rules.reconcile.available
      ? {
          async lookup(key, ctx) {
            const up = await connection();
            if (up === null) return { state: 'unknown', reason: 'the upstream could not be restarted for the lookup' };
            return lookupOnUpstream(up, { tool: rules.reconcile.queryTool, args: rules.reconcile.queryArgs }, key, rules.timeoutMs, ctx.signal);
          },
        }
      : {}),
    diagnostics() {
      // Upstream stderr is for whoever reads the audit record, never for the model.
      if (!closedDuringCall || upstream.stderrTail.length === 0) return undefined;
      return { upstream_stderr: upstream.stderrTail.slice(-5) };
    },
  };
}

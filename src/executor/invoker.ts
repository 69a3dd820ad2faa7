/**
 * The `Invoker` port: how the pipeline reaches a tool. An in-process tool, an upstream MCP
 * server (the gateway) and a framework tool (AI SDK, Agents SDK, LangChain) are three invokers;
 * the pipeline around them — policy, write path, deadline, classification, normalization, trust,
 * budget, evidence, finalize, audit — is the same.
 *
 * An attempt answers with an {@link Outcome}, the raw fact of what happened, never an envelope:
 * classifying and normalizing it is the pipeline's job.
 */
import type { ReconcileLookup } from '../effects/index.js';
import type { ToolContext } from './types.js';

/** What an attempt gets: the tool context (deadline, signal, key, `markSent`). */
export type AttemptContext = ToolContext;

/** What a lookup gets. */
export interface LookupContext {
  readonly signal: AbortSignal;
  /** Epoch milliseconds by which the lookup must answer. */
  readonly deadline: number;
}

/** The listing entry of an MCP tool (from `tools/list`), as far as normalization reads it. */
export interface McpListing {
  readonly name: string;
  readonly title?: string | undefined;
  readonly outputSchema?: Record<string, unknown> | undefined;
  /** The tool's input schema: a run's taint check reads which argument names are data. */
  readonly inputSchema?: Record<string, unknown> | undefined;
  readonly annotations?: Record<string, unknown> | undefined;
}

/** `sent`: whether the request may have left (default: what `ctx.markSent()` and `reportsSend` say). */
interface Sent {
  readonly sent?: boolean;
}

/** How one attempt ended, before any classification. */
export type Outcome =
  /** An in-process tool's return value: a `ToolOutput` (`{ data, completeness?, … }`). */
  | ({ readonly kind: 'output'; readonly output: unknown } & Sent)
  /** A framework tool's plain return value. */
  | ({ readonly kind: 'value'; readonly value: unknown } & Sent)
  /** An MCP `CallToolResult`, with the tool's listing entry and the server it came from. */
  | ({ readonly kind: 'mcp'; readonly result: unknown; readonly listing?: McpListing | undefined; readonly server: { readonly name: string; readonly trusted: boolean }; readonly noise?: number; /** Set when the answer is not a CallToolResult (pointer and message per problem). */ readonly issues?: readonly { readonly pointer: string; readonly message: string }[] } & Sent)
  /** A JSON-RPC error answered the call. */
  | ({ readonly kind: 'rpc_error'; readonly code: number; readonly message: string; readonly data?: unknown } & Sent)
  /** The tool (or its client library) threw. */
  | ({ readonly kind: 'threw'; readonly error: unknown } & Sent)
  /** No answer before the deadline. */
  | ({ readonly kind: 'timeout'; readonly afterMs: number } & Sent)
  /**
   * The connection closed before the answer (an upstream process died). `detail` is for the audit
   * only (it may quote the upstream); `why`, when the invoker itself closed it for a reason of its
   * own (a message over the size limit), is shown in the error message too.
   */
  | ({ readonly kind: 'closed'; readonly detail: string; readonly why?: string } & Sent)
  /** The caller cancelled, or went away. */
  | ({ readonly kind: 'cancelled'; readonly reason: 'caller' | 'client_cancelled' | 'client_disconnected'; readonly cause?: unknown } & Sent)
  /** The tool could not be reached at all (the request never left). */
  | ({ readonly kind: 'unavailable'; readonly detail: string } & Sent);

/** How the pipeline reaches one tool. */
export interface Invoker {
  /** Make one attempt. May throw: a throw is recorded as `{ kind: 'threw' }`. */
  attempt(args: unknown, ctx: AttemptContext): Promise<Outcome>;
  /** Look an idempotency key up downstream (W2); absent when the tool offers no way to. */
  lookup?(key: string, ctx: LookupContext): Promise<ReconcileLookup>;
  /** Diagnostics for the audit record only (e.g. an upstream's last stderr lines). Never model-facing. */
  diagnostics?(): Record<string, unknown> | undefined;
}

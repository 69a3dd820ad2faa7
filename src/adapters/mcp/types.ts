/**
 * Types of the MCP adapter. The wire shapes are the official SDK's (`@modelcontextprotocol/sdk`);
 * the adapter adds only what the envelope needs to know about the call and the server.
 */
import type { CallToolResult, ContentBlock, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult as SpecCallToolResult, ContentBlock as SpecContentBlock } from '@modelcontextprotocol/sdk/spec.types.js';

export type { CallToolResult, ContentBlock, Tool };
/**
 * The MCP specification's own `CallToolResult` (what `toMcpResult` returns). It is assignable to
 * the SDK's schema-derived type, so it can be returned from an SDK tool handler as is.
 */
export type { SpecCallToolResult, SpecContentBlock };

export { ENVELOPE_META_KEY } from '../../executor/index.js';

/** The server a result came from. Annotations of an untrusted server are hints only (T5). */
export interface McpServerRef {
  readonly name: string;
  /** Set by the operator's configuration, never by anything the server says. */
  readonly trusted?: boolean;
}

/**
 * What the adapter reads of a tool definition: a `Tool` from `tools/list` of either SDK
 * generation fits (v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/client`/`server`),
 * so it is typed by shape, not by one SDK's type.
 */
export interface McpToolRef {
  readonly name: string;
  readonly title?: string | undefined;
  /** A JSON Schema object (checked in the schema's own dialect). */
  readonly outputSchema?: { readonly [key: string]: unknown } | undefined;
  readonly annotations?: { readonly readOnlyHint?: boolean | undefined; readonly [key: string]: unknown } | undefined;
}

/** Everything `fromMcpResult` needs to know about the call beyond the result itself. */
export interface FromMcpContext {
  /** The call id the model used (P1): the envelope answers this id, whatever the server says. */
  readonly call_id: string;
  readonly attempt?: number;
  readonly idempotency_key?: string | null;
  readonly server: McpServerRef;
  /** Clock for `retrieved_at`; defaults to the current time. */
  readonly now?: () => string;
  /** True when the operator knows the tool only reads (trusted, unlike a server's readOnlyHint). */
  readonly readOnly?: boolean;
}

/**
 * Types of the MCP adapter. The wire shapes are the official SDK's (`@modelcontextprotocol/sdk`);
 * the adapter adds only what the envelope needs to know about the call and the server.
 */
import type { CallToolResult, ContentBlock, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult as SpecCallToolResult, ContentBlock as SpecContentBlock } from '@modelcontextprotocol/sdk/spec.types.js';
import type { SideEffect, UntrustedContent } from '../../contract/index.js';

export type { CallToolResult, ContentBlock, Tool };
/**
 * The MCP specification's own `CallToolResult` (what `toMcpResult` returns). It is assignable to
 * the SDK's schema-derived type, so it can be returned from an SDK tool handler as is.
 */
export type { SpecCallToolResult, SpecContentBlock };

/**
 * The `_meta` key under which a contract-aware server puts the whole envelope. A valid MCP
 * `_meta` key: reverse-DNS prefix whose second label is neither `modelcontextprotocol` nor `mcp`.
 */
export const ENVELOPE_META_KEY = 'dev.tool-result-contract/envelope';

/** The server a result came from. Annotations of an untrusted server are hints only (T5). */
export interface McpServerRef {
  readonly name: string;
  /** Set by the operator's configuration, never by anything the server says. */
  readonly trusted?: boolean;
}

/** What the adapter reads of a tool definition: a `Tool` from `tools/list` fits. */
export type McpToolRef = Pick<Tool, 'name'> & Partial<Pick<Tool, 'outputSchema' | 'annotations' | 'title'>>;

/** Metadata handed to an isolation hook for one piece of server text. */
export interface IsolateInput {
  readonly content_id: string;
  readonly mime_type: string;
  readonly source: { type: string; name: string; id?: string; uri?: string };
  /** Pointer into the envelope where the block is summarized. */
  readonly origin: string;
}

/** Turns server text into an `untrusted_content` item (the trust stage's `isolate`). */
export type IsolateHook = (text: string, input: IsolateInput) => UntrustedContent;

/** Everything `fromMcpResult` needs to know about the call beyond the result itself. */
export interface FromMcpContext {
  /** The call id the model used (P1): the envelope answers this id, whatever the server says. */
  readonly call_id: string;
  readonly attempt?: number;
  readonly idempotency_key?: string | null;
  readonly server: McpServerRef;
  /** Clock for `retrieved_at`; defaults to the current time. */
  readonly now?: () => string;
  /**
   * What the executor knows about the side effect. Without it, a tool not known to be
   * read-only is recorded as `possibly_occurred` on success.
   */
  readonly side_effect?: SideEffect;
  /** True when the operator knows the tool only reads (trusted, unlike a server's readOnlyHint). */
  readonly readOnly?: boolean;
  /** Replace the default isolation of server text (e.g. with the trust stage's detector). */
  readonly isolate?: IsolateHook;
}

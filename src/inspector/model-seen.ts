/**
 * "What the model saw" for one recorded call, recomputed from the record by the same renderer
 * the call's edge used. The audit record keeps the final envelope and the edge, and every
 * renderer is a pure function of the envelope (plus, for MCP, the structured-content mode the
 * gateway records in its edge block), so the text is not stored a second time: recording the
 * model text in every envelope doubled what each call stores (docs/architecture.md).
 *
 * One thing differs by design: the boundary token around external text is drawn at random for
 * each rendering (so the text inside cannot predict it) and is not recorded. The tokens this
 * rendering drew are shown as {@link BOUNDARY_PLACEHOLDER}; they are read from where the renderer
 * put them, never by pattern, so a forged marker inside the external text stays visible as is.
 */
import type { Envelope } from '../contract/index.js';
import { renderModelText } from '../executor/index.js';
// The renderer module itself, not the adapter's index: the index also loads the MCP SDK's schemas.
import { toMcpResult } from '../adapters/mcp/to-mcp-result.js';

/** Stands for the random boundary token the model got (`<<<EXTERNAL_CONTENT (random)>>>`). */
export const BOUNDARY_PLACEHOLDER = '(random)';

const OPEN = '<<<EXTERNAL_CONTENT ';

/** The token a renderer put at the start of `text` (`<<<EXTERNAL_CONTENT token>>>`), if any. */
function leadingToken(text: unknown): string | null {
  if (typeof text !== 'string' || !text.startsWith(OPEN)) return null;
  const end = text.indexOf('>>>', OPEN.length);
  return end < 0 ? null : text.slice(OPEN.length, end);
}

/** The token of the external block of a model-view JSON text, if it has one. */
function viewToken(text: string): string | null {
  try {
    const view = JSON.parse(text) as { external_content?: unknown };
    return leadingToken(view.external_content);
  } catch {
    return null;
  }
}

/** `text` with each of `tokens` (drawn to be absent from the content) shown as the placeholder. */
function hideTokens(text: string, tokens: readonly string[]): string {
  let out = text;
  for (const t of tokens) if (t.length >= 16) out = out.split(t).join(BOUNDARY_PLACEHOLDER);
  return out;
}

/** What the model was given for one call. */
export type ModelSeen =
  /** In-process and framework calls: the model text every renderer shows. */
  | { readonly wire: 'text'; readonly text: string }
  /** Gateway calls: the `CallToolResult` the MCP client received (without the `_meta` copy of the envelope). */
  | { readonly wire: 'mcp'; readonly blocks: readonly unknown[]; readonly structured: unknown; readonly is_error: boolean }
  /**
   * Gateway calls an upstream answered with a protocol error: relayed as that JSON-RPC error;
   * or calls the HTTP door refused (a token without the tool's scope): an HTTP error
   * (`http_status`) whose body is this JSON-RPC error, no tool result at all.
   */
  | { readonly wire: 'jsonrpc-error'; readonly code: number; readonly message: string; readonly http_status?: number };

/** The edge block of a record, as far as rendering goes. */
export interface EdgeHint {
  readonly kind?: unknown;
  readonly structured?: unknown;
  /** What the gateway answered instead of a result (a refusal at the HTTP door). */
  readonly answered?: unknown;
}

/**
 * Render what the model saw of `env`, as the call's edge rendered it; null when the recorded
 * envelope cannot be rendered (a foreign or edited record).
 * @example modelSeen(env, { kind: 'gateway', structured: 'auto' })?.wire // 'mcp'
 */
export function modelSeen(env: Envelope, edge: EdgeHint | undefined): ModelSeen | null {
  try {
    if (edge?.kind !== 'gateway') {
      const text = renderModelText(env);
      const token = viewToken(text);
      return { wire: 'text', text: token === null ? text : hideTokens(text, [token]) };
    }
    const error = env.error;
    // Refused at the HTTP door: the client got an HTTP error with a JSON-RPC error body, never
    // a CallToolResult (rendering one showed a result nobody received).
    const door = edge.answered as { http_status?: unknown; jsonrpc_code?: unknown } | null | undefined;
    if (typeof door?.http_status === 'number' && typeof door.jsonrpc_code === 'number' && error !== undefined && error !== null) {
      return { wire: 'jsonrpc-error', code: door.jsonrpc_code, message: error.message, http_status: door.http_status };
    }
    // The gateway relays an upstream's protocol error on a read as a JSON-RPC error (SPEC X1).
    if (env.side_effect.operation === 'read' && env.status === 'failed' && error?.kind === 'protocol' && typeof error.jsonrpc_code === 'number') {
      return { wire: 'jsonrpc-error', code: error.jsonrpc_code, message: error.message };
    }
    const structured = edge.structured === 'always' ? 'always' : 'auto';
    const r = toMcpResult(env, { structured, includeEnvelope: false });
    const tokens: string[] = [];
    for (const b of r.content) {
      if (b.type !== 'text') continue;
      const t = leadingToken(b.text) ?? viewToken(b.text);
      if (t !== null) tokens.push(t);
    }
    const blocks = tokens.length === 0 ? r.content : r.content.map((b) => (b.type === 'text' ? { ...b, text: hideTokens(b.text, tokens) } : b));
    return { wire: 'mcp', blocks, structured: r.structuredContent ?? null, is_error: r.isError === true };
  } catch {
    return null;
  }
}

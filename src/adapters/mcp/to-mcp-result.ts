/**
 * MCP out (SPEC I1): an envelope becomes a spec-conformant `CallToolResult` — the model text,
 * `structuredContent`, `isError`, a resource link per externalized result (and per linked
 * evidence resource of a result without external text), and the whole envelope under a
 * namespaced `_meta` key for contract-aware clients.
 */
import { TrcError, type Envelope, type Json } from '../../contract/index.js';
import { assertRenderable, isErrorStatus, modelView, renderModelText } from '../shared/index.js';
import { ENVELOPE_META_KEY, type SpecCallToolResult as CallToolResult, type SpecContentBlock as ContentBlock } from './types.js';

/** Options of {@link toMcpResult}. */
export interface ToMcpOptions {
  /**
   * `structuredContent`: `auto` (default) sends what the model may see of the data when it is a
   * JSON object (external text as `{"$untrusted": id}` references, `user`-only fields left out),
   * and of a failure's structured `details`; `always` sends the data itself and requires it to
   * be an object — set it when the tool declares an output schema (the spec then requires
   * structured content that validates against it). With `always`, a failure carries no
   * `structuredContent`, because deployed v1 SDK clients validate error results against the
   * output schema too and would reject the call; the error payload stays in the text and in
   * `_meta`. `never` leaves it out.
   */
  readonly structured?: 'auto' | 'always' | 'never';
  /** Put the whole envelope under `_meta["dev.tool-result-contract/envelope"]` (default true). */
  readonly includeEnvelope?: boolean;
}

/**
 * Render an envelope as an MCP `CallToolResult`.
 * @example
 * server.registerTool('order_get', { inputSchema, outputSchema }, async (args) =>
 *   toMcpResult(await runOrderGet(args), { structured: 'always' }));
 */
export function toMcpResult(env: Envelope, options: ToMcpOptions = {}): CallToolResult {
  assertRenderable(env);
  const isError = isErrorStatus(env);
  const content: ContentBlock[] = [{ type: 'text', text: renderModelText(env) }];
  for (const link of resourceLinks(env)) content.push(link);
  const result: CallToolResult = { content };
  const structured = structuredFor(env, isError, options.structured ?? 'auto');
  if (structured !== undefined) result.structuredContent = structured;
  if (isError) result.isError = true;
  if (options.includeEnvelope !== false) result._meta = { [ENVELOPE_META_KEY]: env };
  return result;
}

function structuredFor(env: Envelope, isError: boolean, mode: 'auto' | 'always' | 'never'): Record<string, unknown> | undefined {
  if (mode === 'never') return undefined;
  // An error result carries its structured payload, which output schemas do not describe.
  if (isError && mode === 'always') return undefined;
  const hasData = env.status === 'succeeded' || env.status === 'partial';
  if (mode === 'always') {
    // An output schema describes the data itself (the transparency work decides how external
    // text inside it is wrapped); the model text above stays the isolated view.
    if (isPlainObject(env.data)) return env.data;
    throw new TrcError('MCP_STRUCTURED_NOT_OBJECT', 'structuredContent must be a JSON object, but the envelope data is not one', {
      data: { pointer: '/data', status: env.status },
    });
  }
  const view = modelView(env);
  const value = isError ? (view['error'] as Record<string, Json> | undefined)?.['details'] : hasData ? view['data'] : undefined;
  return isPlainObject(value) ? value : undefined;
}

/**
 * One `resource_link` per externalized resource and per linked evidence resource. A linked
 * resource's name is ours (its evidence id): a name, title or description an untrusted server
 * gave it is its own text and stays behind the boundary; the URI is kept, as the address.
 */
function resourceLinks(env: Envelope): ContentBlock[] {
  const seen = new Set<string>();
  const links: ContentBlock[] = [];
  for (const r of env.resources ?? []) {
    if (seen.has(r.uri)) continue;
    seen.add(r.uri);
    links.push({ type: 'resource_link', uri: r.uri, name: nameOf(r.uri), mimeType: r.mime_type, size: r.bytes, ...(r.description === undefined ? {} : { description: r.description }) });
  }
  const external = (env.untrusted_content ?? []).length > 0;
  for (const e of env.evidence ?? []) {
    const uri = e.locator?.resource_uri;
    if (uri === undefined || seen.has(uri)) continue;
    seen.add(uri);
    links.push({ type: 'resource_link', uri, name: external ? e.evidence_id : nameOf(uri), description: `evidence ${e.evidence_id}` });
  }
  return links;
}

function nameOf(uri: string): string {
  const tail = uri.split(/[/#?]/).filter((p) => p !== '').pop();
  return tail === undefined || tail === '' ? uri : tail;
}

function isPlainObject(v: unknown): v is Record<string, unknown> & Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

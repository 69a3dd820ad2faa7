/**
 * MCP out (SPEC I1): an envelope becomes a spec-conformant `CallToolResult`.
 *
 * A result that came from an MCP server keeps the server's content blocks, in its order, each
 * with every field it had (resource link names, descriptions, MIME types, sizes, icons,
 * annotations, `_meta`; image and audio bytes unchanged). Only what the contract says changes:
 * text of an untrusted server stands inside a boundary and instruction-like text is withheld
 * (the trust module's `mcpBlockView`), internal fields are gone, an oversized result is cut and
 * linked. The contract view is added as its own text block, after the server's blocks, and
 * does not repeat what they show. Any other envelope is rendered as the model text plus links.
 * The whole envelope goes under a namespaced `_meta` key for contract-aware clients.
 */
import { TrcError, type Envelope, type Json } from '../../contract/index.js';
import { STRUCTURED_CONTENT_WITHHELD, WITHHELD_TEXT, mcpBlockView } from '../../executor/index.js';
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
   * `_meta`. For the same reason, with `always` a `needs_input` or `accepted` result, which has
   * no data to send, is marked `isError` (its envelope under `_meta` says what it is). `never`
   * leaves it out.
   *
   * For a result from an MCP server, structured content is sent only when the server sent it,
   * never for an error (`auto`: the model's view of the data; `always`: the data); with
   * `always`, a result whose data no longer matches
   * the output schema (warning `STRUCTURED_CONTENT_WITHHELD`) is answered as an error result
   * that says so, since a client rejects a success without valid structured content.
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
  const mode = options.structured ?? 'auto';
  const upstream = upstreamBlocks(env);
  if (upstream !== null) return fromUpstream(env, upstream, mode, options.includeEnvelope !== false);
  // With an output schema a result without valid structured content must be an error result,
  // or a client rejects it: a held call (needs_input) or an accepted job has no data to send.
  const isError = isErrorStatus(env) || (mode === 'always' && env.status !== 'succeeded' && env.status !== 'partial');
  const content: ContentBlock[] = [{ type: 'text', text: renderModelText(env) }];
  for (const link of resourceLinks(env, new Set())) content.push(link);
  const result: CallToolResult = { content };
  const structured = structuredFor(env, isError, mode);
  if (structured !== undefined) result.structuredContent = structured;
  if (isError) result.isError = true;
  if (options.includeEnvelope !== false) result._meta = { [ENVELOPE_META_KEY]: env };
  return result;
}

interface UpstreamBlocks {
  readonly blocks: readonly Json[];
  readonly base: string;
  readonly parts: readonly string[];
  /** The server sent structured content (the data is it). */
  readonly structured: boolean;
}

/** The server's blocks as the envelope keeps them, or null for an envelope of another source. */
function upstreamBlocks(env: Envelope): UpstreamBlocks | null {
  const mcp = env.extensions?.['mcp'] as Record<string, unknown> | undefined;
  if (mcp === undefined || mcp === null || typeof mcp !== 'object') return null;
  const parts = Array.isArray(mcp['parts']) ? (mcp['parts'] as string[]) : [];
  if (mcp['content_at'] === '/data/content') {
    const content = (env.data as { content?: unknown } | null)?.content;
    return { blocks: Array.isArray(content) ? (content as Json[]) : [], base: '/data/content', parts, structured: false };
  }
  if (Array.isArray(mcp['content'])) return { blocks: mcp['content'] as Json[], base: '/extensions/mcp/content', parts, structured: true };
  return null;
}

function fromUpstream(env: Envelope, up: UpstreamBlocks, mode: 'auto' | 'always' | 'never', includeEnvelope: boolean): CallToolResult {
  let isError = isErrorStatus(env);
  const view = mcpBlockView(env, up.blocks, up.base);
  const content: ContentBlock[] = [];
  const uris = new Set<string>();
  up.blocks.forEach((raw, i) => {
    const block = wireBlock((raw ?? {}) as Record<string, Json>, i, view.texts, view.withheld, up.parts);
    if (block === null) return;
    if (block.type === 'resource_link') uris.add(block.uri);
    if (block.type === 'resource') uris.add(block.resource.uri);
    content.push(block);
  });
  for (const link of resourceLinks(env, uris)) content.push(link);
  content.push({ type: 'text', text: view.contractText });
  const result: CallToolResult = { content };
  const withheld = env.warnings.some((w) => typeof w === 'object' && w.code === STRUCTURED_CONTENT_WITHHELD);
  if (!isError && up.structured && mode !== 'never') {
    if (mode === 'always') {
      if (!withheld && isPlainObject(env.data)) result.structuredContent = env.data;
      // A client rejects a success without valid structured content: answered as an error that says why.
      else isError = true;
    } else {
      // No output schema binds it: what the model may see of the data (external text as references).
      const value = modelView(env)['data'];
      if (isPlainObject(value)) result.structuredContent = value;
    }
  }
  if (isError) result.isError = true;
  if (includeEnvelope) result._meta = { [ENVELOPE_META_KEY]: withoutParts(env) };
  return result;
}

const str = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** The block's annotations and `_meta`, as the server sent them. */
function decorations(b: Record<string, Json>): { annotations?: never; _meta?: Record<string, unknown> } {
  const out: Record<string, unknown> = {};
  if (b['annotations'] !== undefined) out['annotations'] = b['annotations'];
  if (b['_meta'] !== undefined) out['_meta'] = b['_meta'];
  return out as { annotations?: never; _meta?: Record<string, unknown> };
}

/** One normalized block back on the wire; null for a block the fitting cut beyond use. */
function wireBlock(b: Record<string, Json>, i: number, texts: ReadonlyMap<number, string>, withheldFields: ReadonlyMap<number, ReadonlySet<string>>, parts: readonly string[]): ContentBlock | null {
  const withheld = withheldFields.get(i) ?? new Set<string>();
  const deco = decorations(b);
  const payload = typeof b['part'] === 'number' ? parts[b['part']] : undefined;
  switch (b['type']) {
    case 'text': {
      // A text the envelope no longer holds on its own (an error's further blocks, joined into
      // its message) is not sent as an empty block.
      const text = texts.get(i);
      return text === undefined ? null : { type: 'text', text, ...deco };
    }
    case 'image':
    case 'audio':
      if (payload === undefined) return { type: 'text', text: `[${String(b['type'])} block ${i} (${String(b['mime_type'])}) not available]` };
      return { type: b['type'], data: payload, mimeType: str(b['mime_type']) ?? 'application/octet-stream', ...deco };
    case 'resource_link': {
      const uri = str(b['uri']) ?? '';
      const link: Record<string, unknown> = { type: 'resource_link', uri, name: str(b['name']) ?? uri };
      for (const [from, to] of [['title', 'title'], ['description', 'description'], ['mime_type', 'mimeType'], ['size', 'size'], ['icons', 'icons']] as const) {
        if (b[from] !== undefined) link[to] = withheld.has(from) ? WITHHELD_TEXT : b[from];
      }
      if (withheld.has('name')) link['name'] = WITHHELD_TEXT;
      return { ...(link as unknown as ContentBlock & { type: 'resource_link' }), ...deco };
    }
    case 'resource': {
      const uri = str(b['uri']) ?? '';
      const mime = b['mime_type_inferred'] === true ? {} : { mimeType: str(b['mime_type']) ?? 'application/octet-stream' };
      const meta = b['resource_meta'] === undefined ? {} : { _meta: b['resource_meta'] as Record<string, unknown> };
      if (typeof b['text'] === 'string') {
        const text = withheld.has('text') ? WITHHELD_TEXT : b['text'];
        return { type: 'resource', resource: { uri, ...(withheld.has('text') ? { mimeType: 'text/plain' } : mime), text, ...meta }, ...deco };
      }
      if (payload === undefined) return { type: 'text', text: `[embedded resource ${uri} not available]` };
      return { type: 'resource', resource: { uri, ...mime, blob: payload, ...meta }, ...deco };
    }
    default:
      // A block of a newer revision, passed on as it came.
      return (b['block'] ?? null) as ContentBlock | null;
  }
}

/** The envelope for `_meta`: binary payloads are already in the blocks, once is enough. */
function withoutParts(env: Envelope): Envelope {
  const mcp = env.extensions?.['mcp'] as Record<string, unknown> | undefined;
  if (mcp === undefined || !('parts' in mcp)) return env;
  const { parts: _p, ...rest } = mcp;
  return { ...env, extensions: { ...env.extensions, mcp: { ...rest, parts_in_content: true } } };
}

function structuredFor(env: Envelope, isError: boolean, mode: 'auto' | 'always' | 'never'): Record<string, unknown> | undefined {
  if (mode === 'never') return undefined;
  // An error result carries its structured payload, which output schemas do not describe.
  if (isError && mode === 'always') return undefined;
  const hasData = env.status === 'succeeded' || env.status === 'partial';
  if (mode === 'always') {
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
 * One `resource_link` per externalized resource and per linked evidence resource not already
 * among the blocks. A linked resource's name is ours (its evidence id): a name, title or
 * description an untrusted server gave it stays behind the boundary; the URI is kept.
 */
function resourceLinks(env: Envelope, seen: Set<string>): ContentBlock[] {
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

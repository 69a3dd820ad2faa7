/**
 * MCP content blocks → envelope parts. Every block is summarized (in `data.content` for
 * unstructured results, in `extensions` otherwise); server text becomes `untrusted_content`
 * (T1); resource links and embedded resources become evidence with a resource locator.
 */
import type { Evidence, Json, UntrustedContent } from '../../contract/index.js';
import { DEFAULT_ALLOWED_USES, DEFAULT_FORBIDDEN_USES, detectInstructions } from '../../trust/index.js';
import type { ContentBlock, IsolateHook, IsolateInput } from './types.js';

/** The envelope parts made from a result's `content`. */
export interface NormalizedContent {
  readonly summaries: Json[];
  /** Text blocks with their index in `content`, for the E7 comparison. */
  readonly texts: ReadonlyArray<{ readonly index: number; readonly text: string }>;
  readonly untrusted: UntrustedContent[];
  readonly evidence: Evidence[];
}

/**
 * Default isolation (T1, T7): the text is untrusted data, run through the trust stage's
 * instruction detector, with the trust stage's allowed and forbidden uses.
 */
export const defaultIsolate: IsolateHook = (text, input) => {
  const detection = detectInstructions(text);
  return {
    content_id: input.content_id,
    mime_type: input.mime_type,
    text,
    trust: 'untrusted',
    source: input.source,
    instructional: detection.instructional,
    families: [...detection.families],
    spans: detection.spans.map((sp) => ({ family: sp.family, start: sp.start, end: sp.end })),
    origin: input.origin,
    allowed_uses: [...DEFAULT_ALLOWED_USES],
    forbidden_uses: [...DEFAULT_FORBIDDEN_USES],
  };
};

/**
 * Summarize `blocks`; `base` is the pointer of the summary array inside the envelope.
 */
export function normalizeContent(
  blocks: readonly ContentBlock[],
  ctx: { server: string; tool: string; base: string; isolate: IsolateHook; serializes?: (text: string) => boolean },
): NormalizedContent {
  const summaries: Json[] = [];
  const texts: Array<{ index: number; text: string }> = [];
  const untrusted: UntrustedContent[] = [];
  const evidence: Evidence[] = [];
  const source = (uri?: string): IsolateInput['source'] => ({ type: 'mcp', name: ctx.server, id: ctx.tool, ...(uri === undefined ? {} : { uri }) });
  blocks.forEach((block, i) => {
    const origin = `${ctx.base}/${i}`;
    const annotations = 'annotations' in block && block.annotations !== undefined ? { annotations: block.annotations as Json } : {};
    switch (block.type) {
      case 'text': {
        if (ctx.serializes?.(block.text) === true) {
          // The spec's backwards-compatible copy of structuredContent: the same data, kept once.
          summaries.push({ type: 'text', serializes: '/data', ...annotations });
          break;
        }
        const content_id = `mcp_text_${i}`;
        texts.push({ index: i, text: block.text });
        untrusted.push(ctx.isolate(block.text, { content_id, mime_type: 'text/plain', source: source(), origin }));
        summaries.push({ type: 'text', content_id, ...annotations });
        break;
      }
      case 'image':
      case 'audio':
        summaries.push({ type: block.type, mime_type: block.mimeType, data: block.data, ...annotations });
        break;
      case 'resource_link': {
        const evidence_id = `mcp_link_${i}`;
        summaries.push(dropUndefined({ type: 'resource_link', uri: block.uri, name: block.name, title: block.title, mime_type: block.mimeType, description: block.description, size: block.size, evidence_id, ...annotations }));
        evidence.push({
          evidence_id,
          kind: 'resource_link',
          source: dropUndefined({ type: 'mcp', name: ctx.server, uri: block.uri, id: ctx.tool }) as Evidence['source'] & object,
          locator: { resource_uri: block.uri },
          supports: [origin],
        });
        break;
      }
      case 'resource': {
        const r = block.resource;
        const evidence_id = `mcp_resource_${i}`;
        const mime = r.mimeType ?? ('text' in r ? 'text/plain' : 'application/octet-stream');
        if ('text' in r && typeof r.text === 'string') {
          const content_id = `mcp_resource_${i}`;
          untrusted.push(ctx.isolate(r.text, { content_id, mime_type: mime, source: source(r.uri), origin }));
          summaries.push({ type: 'resource', uri: r.uri, mime_type: mime, content_id, evidence_id, ...annotations });
        } else {
          summaries.push({ type: 'resource', uri: r.uri, mime_type: mime, blob: 'blob' in r ? String(r.blob) : '', evidence_id, ...annotations });
        }
        evidence.push({
          evidence_id,
          kind: 'embedded_resource',
          source: { type: 'mcp', name: ctx.server, uri: r.uri, id: ctx.tool },
          locator: { resource_uri: r.uri },
          supports: [origin],
        });
        break;
      }
      default:
        // A block type from a newer protocol revision: keep it visible rather than drop it.
        summaries.push({ type: String((block as { type?: unknown }).type ?? 'unknown'), unsupported: true });
    }
  });
  return { summaries, texts, untrusted, evidence };
}

function dropUndefined(record: Record<string, Json | undefined>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(record)) if (v !== undefined) out[k] = v;
  return out;
}

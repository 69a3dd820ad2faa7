/**
 * MCP content blocks → envelope parts (normalization only: no detection, no comparison). For a
 * result without structured content the blocks *are* the data (`data.content[i]`, text
 * included), so they are fitted to the budget, stored and isolated like any data. Next to
 * structured content they are summarized in `extensions.mcp.content`, and their text is kept as
 * untrusted content when the source is untrusted. Resource links and embedded resources become
 * evidence with a resource locator.
 */
import type { Evidence, Json, UntrustedContent } from '../contract/index.js';
import { DEFAULT_ALLOWED_USES, DEFAULT_FORBIDDEN_USES } from '../trust/index.js';

/** A content block as the SDK's schema admits it (validated by the invoker). */
export type McpBlock = { readonly type: string } & Record<string, unknown>;

/** The envelope parts made from a result's `content`. */
export interface NormalizedContent {
  readonly blocks: Json[];
  /** Text blocks with their index in `content`, for the E7 comparison. */
  readonly texts: ReadonlyArray<{ readonly index: number; readonly text: string }>;
  readonly untrusted: UntrustedContent[];
  readonly evidence: Evidence[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function dropUndefined(record: Record<string, Json | undefined>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(record)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Normalize `blocks`; `base` is the pointer of the block array inside the envelope
 * (`/data/content` or `/extensions/mcp/content`).
 */
export function normalizeContent(
  blocks: readonly McpBlock[],
  ctx: { server: string; tool: string; base: string; asData: boolean; untrustedSource: boolean; serializes?: (text: string) => boolean; source: { type: string; id: string } },
): NormalizedContent {
  const out: Json[] = [];
  const texts: Array<{ index: number; text: string }> = [];
  const untrusted: UntrustedContent[] = [];
  const evidence: Evidence[] = [];
  blocks.forEach((block, i) => {
    const origin = `${ctx.base}/${i}`;
    const annotations = block['annotations'] !== undefined ? { annotations: block['annotations'] as Json } : {};
    switch (block.type) {
      case 'text': {
        const text = str(block['text']) ?? '';
        if (ctx.serializes?.(text) === true) {
          // The spec's backwards-compatible copy of structuredContent: the same data, kept once.
          out.push({ type: 'text', serializes: '/data', ...annotations });
          break;
        }
        texts.push({ index: i, text });
        if (ctx.asData || !ctx.untrustedSource) {
          out.push({ type: 'text', text, ...annotations });
          break;
        }
        const content_id = `mcp_text_${i}`;
        untrusted.push({
          content_id, mime_type: 'text/plain', text, trust: 'untrusted', source: { ...ctx.source }, instructional: false, origin,
          allowed_uses: [...DEFAULT_ALLOWED_USES], forbidden_uses: [...DEFAULT_FORBIDDEN_USES],
        });
        out.push({ type: 'text', content_id, ...annotations });
        break;
      }
      case 'image':
      case 'audio':
        out.push({ type: block.type, mime_type: str(block['mimeType']) ?? 'application/octet-stream', data: str(block['data']) ?? '', ...annotations });
        break;
      case 'resource_link': {
        const evidence_id = `mcp_link_${i}`;
        const uri = str(block['uri']) ?? '';
        out.push(dropUndefined({ type: 'resource_link', uri, name: str(block['name']), title: str(block['title']), mime_type: str(block['mimeType']), description: str(block['description']), size: typeof block['size'] === 'number' ? block['size'] : undefined, evidence_id, ...annotations }));
        evidence.push({ evidence_id, kind: 'resource_link', source: { type: 'mcp', name: ctx.server, uri, id: ctx.tool }, locator: { resource_uri: uri }, supports: [origin] });
        break;
      }
      case 'resource': {
        const r = (block['resource'] ?? {}) as Record<string, unknown>;
        const uri = str(r['uri']) ?? '';
        const evidence_id = `mcp_resource_${i}`;
        const text = str(r['text']);
        const mime = str(r['mimeType']) ?? (text !== undefined ? 'text/plain' : 'application/octet-stream');
        if (text !== undefined) out.push({ type: 'resource', uri, mime_type: mime, text, evidence_id, ...annotations });
        else out.push({ type: 'resource', uri, mime_type: mime, blob: str(r['blob']) ?? '', evidence_id, ...annotations });
        evidence.push({ evidence_id, kind: 'embedded_resource', source: { type: 'mcp', name: ctx.server, uri, id: ctx.tool }, locator: { resource_uri: uri }, supports: [origin] });
        break;
      }
      default:
        // A block type from a newer protocol revision: keep it visible rather than drop it.
        out.push({ type: String(block.type ?? 'unknown'), unsupported: true });
    }
  });
  return { blocks: out, texts, untrusted, evidence };
}

/**
 * MCP content blocks → envelope parts (normalization only: no detection, no comparison). For a
 * result without structured content the blocks *are* the data (`data.content[i]`, text
 * included), so they are fitted to the budget, stored and isolated like any data. Next to
 * structured content they are kept in `extensions.mcp.content`, and their text is kept as
 * untrusted content when the source is untrusted. Resource links and embedded resources become
 * evidence with a resource locator.
 *
 * Every field of a block is kept (name, title, description, size, icons, annotations, `_meta`),
 * so the MCP renderer can give the client the block it would have got directly. Binary payloads
 * (image and audio `data`, an embedded resource's `blob`) are not text: they leave the data for
 * `extensions.mcp.parts` (the block keeps `part`, `bytes` and `sha256`), so fitting never cuts
 * them, isolation never shows base64 to the model, and they come back byte for byte.
 */
import { createHash } from 'node:crypto';
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
  /** Binary payloads (base64, as the upstream sent them), by `part` index. */
  readonly parts: string[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function dropUndefined(record: Record<string, Json | undefined>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(record)) if (v !== undefined) out[k] = v;
  return out;
}

/** The block's own decorations, kept as the upstream sent them. */
function decorations(block: Record<string, unknown>): Record<string, Json> {
  return dropUndefined({ annotations: block['annotations'] as Json | undefined, _meta: block['_meta'] as Json | undefined });
}

/** Size and digest of a base64 payload, without keeping a decoded copy. */
function payloadFacts(base64: string): { bytes: number; sha256: string } {
  const bytes = Buffer.from(base64, 'base64');
  return { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Normalize `blocks`; `base` is the pointer of the block array inside the envelope
 * (`/data/content` or `/extensions/mcp/content`). `serializes` tells, for a text block, the
 * pointer of the structured value it is a plain copy of (kept once, as that value).
 */
export function normalizeContent(
  blocks: readonly McpBlock[],
  ctx: { server: string; tool: string; base: string; asData: boolean; untrustedSource: boolean; serializes?: (text: string) => string | undefined; source: { type: string; id: string } },
): NormalizedContent {
  const out: Json[] = [];
  const texts: Array<{ index: number; text: string }> = [];
  const untrusted: UntrustedContent[] = [];
  const evidence: Evidence[] = [];
  const parts: string[] = [];
  // Beside structured content the blocks are not data, so isolation would not see the words a
  // link or an embedded resource carries: they are external text of their own.
  const wordsOf = (i: number, words: Record<string, string | undefined>) => {
    if (ctx.asData || !ctx.untrustedSource) return;
    const kept = Object.fromEntries(Object.entries(words).filter(([, v]) => v !== undefined && v !== ''));
    if (Object.keys(kept).length === 0) return;
    untrusted.push({
      content_id: `mcp_block_${i}`, mime_type: 'application/json', text: JSON.stringify(kept), trust: 'untrusted', source: { ...ctx.source }, instructional: false, origin: `${ctx.base}/${i}`,
      allowed_uses: [...DEFAULT_ALLOWED_USES], forbidden_uses: [...DEFAULT_FORBIDDEN_USES],
    });
  };
  const part = (base64: string): Record<string, Json> => {
    parts.push(base64);
    return { part: parts.length - 1, ...payloadFacts(base64) };
  };
  blocks.forEach((block, i) => {
    const origin = `${ctx.base}/${i}`;
    const deco = decorations(block);
    switch (block.type) {
      case 'text': {
        const text = str(block['text']) ?? '';
        const copyOf = ctx.serializes?.(text);
        if (copyOf !== undefined) {
          // The spec's backwards-compatible copy of structuredContent: the same data, kept once.
          out.push({ type: 'text', serializes: copyOf, ...deco });
          break;
        }
        texts.push({ index: i, text });
        if (ctx.asData || !ctx.untrustedSource) {
          out.push({ type: 'text', text, ...deco });
          break;
        }
        const content_id = `mcp_text_${i}`;
        untrusted.push({
          content_id, mime_type: 'text/plain', text, trust: 'untrusted', source: { ...ctx.source }, instructional: false, origin,
          allowed_uses: [...DEFAULT_ALLOWED_USES], forbidden_uses: [...DEFAULT_FORBIDDEN_USES],
        });
        out.push({ type: 'text', content_id, ...deco });
        break;
      }
      case 'image':
      case 'audio':
        out.push({ type: block.type, mime_type: str(block['mimeType']) ?? 'application/octet-stream', ...part(str(block['data']) ?? ''), ...deco });
        break;
      case 'resource_link': {
        const evidence_id = `mcp_link_${i}`;
        const uri = str(block['uri']) ?? '';
        out.push(dropUndefined({
          type: 'resource_link', uri, name: str(block['name']), title: str(block['title']), mime_type: str(block['mimeType']), description: str(block['description']),
          size: typeof block['size'] === 'number' ? block['size'] : undefined, icons: block['icons'] as Json | undefined, evidence_id, ...deco,
        }));
        wordsOf(i, { name: str(block['name']), title: str(block['title']), description: str(block['description']) });
        evidence.push({ evidence_id, kind: 'resource_link', source: { type: 'mcp', name: ctx.server, uri, id: ctx.tool }, locator: { resource_uri: uri }, supports: [origin] });
        break;
      }
      case 'resource': {
        const r = (block['resource'] ?? {}) as Record<string, unknown>;
        const uri = str(r['uri']) ?? '';
        const evidence_id = `mcp_resource_${i}`;
        const text = str(r['text']);
        const mime = str(r['mimeType']);
        const resourceMeta = r['_meta'] === undefined ? {} : { resource_meta: r['_meta'] as Json };
        const shown = mime ?? (text !== undefined ? 'text/plain' : 'application/octet-stream');
        const declared = mime === undefined ? { mime_type_inferred: true } : {};
        if (text !== undefined) out.push({ type: 'resource', uri, mime_type: shown, ...declared, text, evidence_id, ...resourceMeta, ...deco });
        else out.push({ type: 'resource', uri, mime_type: shown, ...declared, ...part(str(r['blob']) ?? ''), evidence_id, ...resourceMeta, ...deco });
        wordsOf(i, { text });
        evidence.push({ evidence_id, kind: 'embedded_resource', source: { type: 'mcp', name: ctx.server, uri, id: ctx.tool }, locator: { resource_uri: uri }, supports: [origin] });
        break;
      }
      default:
        // A block type from a newer protocol revision: kept whole (it is passed on as it came).
        out.push({ type: String(block.type ?? 'unknown'), unsupported: true, block: block as unknown as Json });
    }
  });
  return { blocks: out, texts, untrusted, evidence, parts };
}

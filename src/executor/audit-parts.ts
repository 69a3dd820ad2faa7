/**
 * Binary payloads in the audit record: an MCP result's image, audio and blob bytes
 * (`extensions.mcp.parts`, base64) would be inlined in every audit record, so a few screenshots
 * grow the store by megabytes of base64 that no audit reader needs inline. The record keeps a
 * reference instead — the part's bytes go to the store's resources (the same path stored results
 * take), kept as long as the record (no expiry) — and the data still says `bytes` and `sha256`
 * of each part. The envelope returned to the caller, and the one a write's ledger entry keeps
 * for replay, are not touched.
 */
import type { Envelope } from '../contract/index.js';
import type { Store } from '../store/types.js';

/** Parts of at least this many base64 characters are referenced; smaller ones stay inline. */
export const AUDIT_INLINE_PART_CHARS = 1024;
/** Prefix of a referenced part in the audit record: the store resource id follows (base64 has no `:`). */
export const AUDIT_PART_REF_PREFIX = 'store-resource:';

/**
 * The envelope as the audit record keeps it: large binary parts replaced by
 * `store-resource:<id>` references to resources holding their bytes. Unchanged (same object)
 * when there is nothing to move; a part that cannot be stored stays inline.
 * @example const recorded = await auditPartsByReference(store, envelope, { principal: 'p', tool: 'screenshot' });
 */
export async function auditPartsByReference(store: Store, envelope: Envelope, owner: { principal: string; tool: string }): Promise<Envelope> {
  const mcp = envelope.extensions?.['mcp'] as { parts?: unknown } | undefined;
  const parts = mcp?.parts;
  if (!Array.isArray(parts) || !hasLargeParts(envelope)) return envelope;
  const mimeTypes = partMimeTypes(envelope);
  const kept = await Promise.all(
    parts.map(async (p, i) => {
      if (typeof p !== 'string' || p.length < AUDIT_INLINE_PART_CHARS) return p;
      let writer: Awaited<ReturnType<Store['createResource']>> | undefined;
      try {
        writer = await store.createResource({ principal: owner.principal, tool: owner.tool, mimeType: mimeTypes.get(i) ?? 'application/octet-stream', expiresAt: null });
        await writer.write(Buffer.from(p, 'base64'));
        const meta = await writer.commit();
        return `${AUDIT_PART_REF_PREFIX}${meta.id}`;
      } catch {
        await writer?.abort().catch(() => undefined);
        return p;
      }
    }),
  );
  return { ...envelope, extensions: { ...envelope.extensions, mcp: { ...mcp, parts: kept } } };
}

/**
 * True when the audit record of `envelope` would reference some part (checked without awaiting,
 * so calls without binary content cost nothing more).
 * @example hasLargeParts(envelope) // false for a text-only result
 */
export function hasLargeParts(envelope: Envelope): boolean {
  const parts = (envelope.extensions?.['mcp'] as { parts?: unknown } | undefined)?.parts;
  return Array.isArray(parts) && parts.some((p) => typeof p === 'string' && p.length >= AUDIT_INLINE_PART_CHARS);
}

/** Each part's MIME type, from the block that refers to it (in the data or beside it). */
function partMimeTypes(envelope: Envelope): Map<number, string> {
  const out = new Map<number, string>();
  const mcp = envelope.extensions?.['mcp'] as { content?: unknown } | undefined;
  const data = envelope.data as { content?: unknown } | null | undefined;
  const blocks = [...(Array.isArray(mcp?.content) ? mcp.content : []), ...(Array.isArray(data?.content) ? data.content : [])] as Record<string, unknown>[];
  for (const b of blocks) {
    const part = b?.['part'];
    const mime = b?.['mime_type'];
    if (typeof part === 'number' && typeof mime === 'string') out.set(part, mime);
  }
  return out;
}

/**
 * Store the full raw result outside the model context (SPEC Z4) and describe it with a
 * resource reference and handles.
 */
import type { ResourceRef } from '../contract/index.js';
import type { HandleRecord, ResourceMeta, ResourceWriter, Store } from '../store/types.js';
import { RESOURCE_URI_PREFIX, mintHandle } from './handles.js';

/** Raw bytes already written to a writer; committed only if the result was trimmed. */
export interface Spool {
  commit(): Promise<ResourceMeta>;
  abort(): Promise<void>;
}

/** Bytes in `chunkBytes`-sized pieces, so a large result is never written as one chunk. */
export async function writeAll(writer: ResourceWriter, bytes: Uint8Array, chunkBytes = 1 << 20): Promise<void> {
  for (let i = 0; i < bytes.length; i += chunkBytes) await writer.write(bytes.subarray(i, i + chunkBytes));
}

/**
 * A spool over bytes that are already in memory: written to the store only on commit.
 */
export function memorySpool(store: Store, bytes: () => Uint8Array, owner: { principal: string; tool: string; expiresAt: string; mimeType?: string }): Spool {
  return {
    async commit() {
      const writer = await store.createResource({ principal: owner.principal, tool: owner.tool, mimeType: owner.mimeType ?? 'application/json', expiresAt: owner.expiresAt });
      try {
        await writeAll(writer, bytes());
      } catch (cause) {
        await writer.abort().catch(() => undefined);
        throw cause;
      }
      return writer.commit();
    },
    async abort() {
      // Nothing was written yet.
    },
  };
}

/** The reference and handle of a committed resource. */
export interface Externalized {
  readonly ref: ResourceRef;
  readonly handle: HandleRecord;
}

/** Mint a resource handle for `meta` and build its `resources[]` entry. */
export async function describeResource(store: Store, meta: ResourceMeta, owner: { principal: string; tool: string; expiresAt: string; now: Date }): Promise<Externalized> {
  const handle = await mintHandle(store, {
    kind: 'resource',
    principal: owner.principal,
    tool: owner.tool,
    target: { resourceId: meta.id },
    expiresAt: owner.expiresAt,
    now: owner.now,
  });
  return {
    handle,
    ref: {
      uri: RESOURCE_URI_PREFIX + handle.id,
      mime_type: meta.mimeType,
      bytes: meta.bytes,
      sha256: meta.sha256,
      expires_at: owner.expiresAt,
      description: 'Full raw result before fitting to the context budget; read it with the same principal.',
    },
  };
}

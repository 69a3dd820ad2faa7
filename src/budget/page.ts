/**
 * `page(cursor, principal, ctx)`: the next slice of an externalized list (SPEC Z6). The cursor
 * is re-authorized on every use; it names a stored resource and an offset, nothing else.
 */
import { randomUUID } from 'node:crypto';
import { CONTRACT_VERSION, TrcError, resolvePointer, type Completeness, type Cursor, type Envelope } from '../contract/index.js';
import type { Store } from '../store/types.js';
import { DEFAULT_BUDGET } from './budget.js';
import { HANDLE_ERROR_CODES, mintHandle, readHandle } from './handles.js';
import { JsonArraySplitter } from './json-array-splitter.js';
import { JSONL_MIME_TYPE, JsonLinesSplitter } from './json-lines-splitter.js';

/** Where to read, and how much. */
export interface PageContext {
  readonly store: Store;
  readonly now?: () => Date;
  /** Items per page (default: the default budget's `maxItems`, 100). */
  readonly pageSize?: number;
}

interface Slice {
  readonly items: unknown[];
  readonly total: number;
  /** The upstream's own cursor when the stored result was itself incomplete. */
  readonly upstreamNext: Cursor | null;
  readonly upstreamAvailable: number | null;
}

async function sliceTopLevel(chunks: AsyncIterable<Uint8Array>, jsonl: boolean, offset: number, size: number): Promise<Slice> {
  const items: unknown[] = [];
  let index = 0;
  const onElement = (bytes: Uint8Array, from: number, to: number): void => {
    // Only the requested slice is decoded; the rest is counted.
    if (index >= offset && index < offset + size) items.push(JSON.parse(Buffer.from(bytes.subarray(from, to)).toString('utf8')));
    index++;
  };
  // A JSON Lines result is a list of its lines: read as one JSON document it holds no elements.
  const splitter = jsonl ? new JsonLinesSplitter(onElement) : new JsonArraySplitter(onElement);
  for await (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  // A cursor is minted within the list it pages, so a list shorter than its offset is not the one it named.
  if (index < offset) throw new TrcError('PAGE_NOT_A_LIST', `the stored result has ${index} items, fewer than this cursor's offset ${offset}`);
  return { items, total: index, upstreamNext: null, upstreamAvailable: null };
}

async function sliceNested(chunks: AsyncIterable<Uint8Array>, pointer: string, offset: number, size: number): Promise<Slice> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  const doc: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'));
  const list = resolvePointer(doc, pointer);
  if (!list.ok || !Array.isArray(list.value)) throw new TrcError('PAGE_NOT_A_LIST', `the stored result has no list at ${pointer}`);
  // A stored envelope may itself have been incomplete upstream: carry its cursor on.
  const isEnvelope = doc !== null && typeof doc === 'object' && 'contract_version' in doc;
  const completeness = isEnvelope ? (doc as { completeness?: Completeness }).completeness : undefined;
  return {
    items: list.value.slice(offset, offset + size),
    total: list.value.length,
    upstreamNext: completeness?.next ?? null,
    upstreamAvailable: completeness?.available_items ?? null,
  };
}

/**
 * Read the page a cursor points at, as a new envelope with its own completeness and the next
 * cursor. Throws `HANDLE_UNKNOWN`, `HANDLE_EXPIRED`, `HANDLE_WRONG_PRINCIPAL` (or
 * `HANDLE_WRONG_KIND` for a resource handle) when the cursor may not be used.
 * @example const next = await page(env.completeness!.next!.value, 'alice', { store });
 */
export async function page(cursor: string, principal: string, ctx: PageContext): Promise<Envelope> {
  const now = ctx.now?.() ?? new Date();
  const record = await readHandle(ctx.store, cursor, { principal, kind: 'cursor', now });
  const meta = await ctx.store.getResourceMeta(record.target.resourceId);
  if (meta === null) throw new TrcError(HANDLE_ERROR_CODES.unknown, 'the resource behind this cursor no longer exists');
  const size = ctx.pageSize ?? DEFAULT_BUDGET.maxItems;
  if (!Number.isSafeInteger(size) || size < 1) throw new TrcError('PAGE_SIZE_INVALID', `pageSize must be an integer ≥ 1; got ${size}`);
  const offset = record.target.offset ?? 0;
  const pointer = record.target.pointer ?? '';
  const chunks = ctx.store.readResource(meta.id);
  const slice = pointer === '' ? await sliceTopLevel(chunks, meta.mimeType === JSONL_MIME_TYPE, offset, size) : await sliceNested(chunks, pointer, offset, size);

  const end = offset + slice.items.length;
  const more = end < slice.total;
  let next: Cursor | null = slice.upstreamNext;
  if (more) {
    const h = await mintHandle(ctx.store, {
      kind: 'cursor', principal, tool: record.tool, expiresAt: record.expiresAt, now,
      target: { resourceId: meta.id, offset: end, pointer },
    });
    next = { type: 'cursor', value: h.id, expires_at: h.expiresAt };
  }
  const upstreamMore = slice.upstreamNext !== null;
  const completeness: Completeness = {
    state: more ? 'truncated' : upstreamMore ? 'partial' : 'complete',
    reason: more ? 'page' : upstreamMore ? 'upstream_has_more' : null,
    returned_items: slice.items.length,
    // Counted from this page on, so the last page is complete (returned = available).
    available_items: upstreamMore
      ? slice.upstreamAvailable === null ? null : Math.max(slice.upstreamAvailable - offset, slice.items.length)
      : slice.total - offset,
    next,
  };
  return {
    contract_version: CONTRACT_VERSION,
    call: { tool_name: record.tool, call_id: `call_${randomUUID()}`, attempt: 1 },
    status: more || upstreamMore ? 'partial' : 'succeeded',
    data: slice.items,
    completeness,
    provenance: { source_type: 'tool', source_id: record.tool, retrieved_at: now.toISOString() },
    side_effect: { occurred: false, operation: 'read_stored_result' },
    warnings: [],
    extensions: { trc_page: { offset, page_size: size, list_pointer: pointer } },
  };
}

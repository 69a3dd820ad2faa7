/**
 * Opaque handles and cursors (SPEC Z6): 128 random bits, bound to the principal and tool that
 * minted them, expiring, and re-checked on every read. They encode nothing; the store maps
 * them to what they name.
 */
import { TrcError, randomId } from '../contract/index.js';
import type { HandleRecord, ResourceMeta, Store } from '../store/types.js';

/** Stable error codes of handle reads. */
export const HANDLE_ERROR_CODES = {
  unknown: 'HANDLE_UNKNOWN',
  expired: 'HANDLE_EXPIRED',
  wrongPrincipal: 'HANDLE_WRONG_PRINCIPAL',
  wrongTool: 'HANDLE_WRONG_TOOL',
  wrongKind: 'HANDLE_WRONG_KIND',
} as const;

/** URI scheme of externalized resources: `trc://resource/<handle>`. */
export const RESOURCE_URI_PREFIX = 'trc://resource/';

/** Default lifetime of handles and stored resources: 24 hours. */
export const DEFAULT_HANDLE_TTL_MS = 24 * 60 * 60 * 1000;

const HANDLE_SHAPE = /^[\w-]{22}$/;

/**
 * A fresh handle id: 16 random bytes, base64url (22 characters), never starting with "-".
 * @example newHandleId().length // 22
 */
export function newHandleId(): string {
  return randomId();
}

/** What to bind a new handle to. */
export interface MintInput {
  readonly kind: HandleRecord['kind'];
  readonly principal: string;
  readonly tool: string;
  readonly target: HandleRecord['target'];
  /** Absolute expiry; defaults to `now + ttlMs`. */
  readonly expiresAt?: string;
  readonly ttlMs?: number;
  readonly now?: Date;
}

/**
 * Mint and store a handle.
 * @example const h = await mintHandle(store, { kind: 'resource', principal: 'alice', tool: 'search', target: { resourceId } });
 */
export async function mintHandle(store: Store, input: MintInput): Promise<HandleRecord> {
  if (input.principal === '') throw new TrcError('HANDLE_PRINCIPAL_REQUIRED', 'a handle must be bound to a non-empty principal');
  const now = input.now ?? new Date();
  const record: HandleRecord = {
    id: newHandleId(),
    kind: input.kind,
    principal: input.principal,
    tool: input.tool,
    target: input.target,
    createdAt: now.toISOString(),
    expiresAt: input.expiresAt ?? new Date(now.getTime() + (input.ttlMs ?? DEFAULT_HANDLE_TTL_MS)).toISOString(),
  };
  await store.putHandle(record);
  return record;
}

/** Who is reading, and what they expect the handle to be. */
export interface ReadAccess {
  readonly principal: string;
  readonly tool?: string;
  readonly kind?: HandleRecord['kind'];
  readonly now?: Date;
}

/** Accept a bare handle or a `trc://resource/<handle>` URI. */
export function handleFromUri(value: string): string {
  return value.startsWith(RESOURCE_URI_PREFIX) ? value.slice(RESOURCE_URI_PREFIX.length) : value;
}

/**
 * Look up a handle and re-authorize it: it must exist, belong to `principal` (and `tool`, if
 * given), and not be expired. Throws `TrcError` with a stable `HANDLE_*` code otherwise.
 * The principal is checked before expiry so a stranger learns nothing about the handle.
 * @example await readHandle(store, id, { principal: 'alice' })
 */
export async function readHandle(store: Store, id: string, access: ReadAccess): Promise<HandleRecord> {
  const token = handleFromUri(id);
  const record = HANDLE_SHAPE.test(token) ? await store.getHandle(token) : null;
  if (record === null) throw new TrcError(HANDLE_ERROR_CODES.unknown, 'no such handle (it may never have existed)');
  if (record.principal !== access.principal) {
    throw new TrcError(HANDLE_ERROR_CODES.wrongPrincipal, 'this handle belongs to another principal');
  }
  if (access.tool !== undefined && record.tool !== access.tool) {
    throw new TrcError(HANDLE_ERROR_CODES.wrongTool, `this handle was minted for another tool, not "${access.tool}"`);
  }
  if (access.kind !== undefined && record.kind !== access.kind) {
    throw new TrcError(HANDLE_ERROR_CODES.wrongKind, `this handle is a ${record.kind}, not a ${access.kind}`);
  }
  const now = (access.now ?? new Date()).getTime();
  if (!(Date.parse(record.expiresAt) > now)) {
    throw new TrcError(HANDLE_ERROR_CODES.expired, `this handle expired at ${record.expiresAt}`, { data: { expiresAt: record.expiresAt } });
  }
  return record;
}

/**
 * Re-authorize a handle and open the resource it names, chunk by chunk; with `from`, from that
 * byte on (the store skips the chunks before it).
 * @example const { meta, chunks } = await openResource(store, uri, { principal: 'alice' });
 */
export async function openResource(store: Store, id: string, access: ReadAccess, from = 0): Promise<{ meta: ResourceMeta; chunks: AsyncIterable<Uint8Array> }> {
  const record = await readHandle(store, id, access);
  const meta = await store.getResourceMeta(record.target.resourceId);
  if (meta === null) throw new TrcError(HANDLE_ERROR_CODES.unknown, 'the resource behind this handle no longer exists');
  const now = (access.now ?? new Date()).getTime();
  if (meta.expiresAt !== null && !(Date.parse(meta.expiresAt) > now)) {
    throw new TrcError(HANDLE_ERROR_CODES.expired, `the resource expired at ${meta.expiresAt}`, { data: { expiresAt: meta.expiresAt } });
  }
  return { meta, chunks: from > 0 ? store.readResource(meta.id, from) : store.readResource(meta.id) };
}

/**
 * The gateway's own `trc://resource/<handle>` links, read through `resources/read`: whole when
 * the stored result fits one chunk, else chunk by chunk, re-authorized on every read (Z6).
 */
import { isTrcError as isError } from '../contract/index.js';
import { HANDLE_ERROR_CODES, openResource } from '../executor/index.js';
import { RelayedRpcError, relayError } from './forward.js';
import type { SessionState } from './session-state.js';

/** Resource-not-found, as the MCP spec names it. */
export const RESOURCE_NOT_FOUND = -32002;

/** Bytes of one `resources/read` answer for a stored result: small enough for any client's default message limit, even escaped. */
export const READ_CHUNK_BYTES = 1024 * 1024;
/** `_meta` key of a chunked read's position. */
export const CHUNK_META_KEY = 'dev.tool-result-contract/chunk';

/**
 * A stored result, read whole when it fits one chunk, else chunk by chunk:
 * `trc://resource/<handle>` answers the first chunk and `_meta["dev.tool-result-contract/chunk"]`
 * says `{ offset, bytes, total_bytes, sha256, next }`; `next` is the URI of the following chunk
 * (`?offset=<byte>`), null at the end. Text chunks end on a character boundary.
 */
export async function readGatewayResource(state: SessionState, uri: string): Promise<Record<string, unknown>> {
  const q = uri.indexOf('?');
  const base = q === -1 ? uri : uri.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : uri.slice(q + 1));
  const offsetText = query.get('offset');
  if (offsetText !== null && !/^\d{1,15}$/.test(offsetText)) throw new RelayedRpcError(-32602, `offset must be a byte offset, got "${offsetText}"`, { uri });
  try {
    // Re-authorized on every read (Z6): the handle must belong to this session's principal.
    const from = Number(offsetText ?? 0);
    // The store starts at the chunk holding the offset: reading a large result chunk by chunk
    // costs its size, not its size times the number of chunks.
    const { meta, chunks } = await openResource(state.options.store, base, { principal: state.principal, now: state.options.now?.() ?? new Date() }, from);
    const text = meta.mimeType.startsWith('text/') || meta.mimeType.startsWith('application/json');
    const whole = offsetText === null && meta.bytes <= READ_CHUNK_BYTES;
    let start = Math.min(from, meta.bytes);
    let end = whole ? meta.bytes : Math.min(meta.bytes, start + READ_CHUNK_BYTES);
    const parts: Buffer[] = [];
    let at = start;
    // One byte past the window, to find a character boundary.
    for await (const c of chunks) {
      const buf = Buffer.from(c);
      if (at + buf.length > start && at <= end) parts.push(buf.subarray(Math.max(0, start - at), Math.min(buf.length, end + 1 - at)));
      at += buf.length;
      if (at > end) break;
    }
    let bytes = Buffer.concat(parts);
    if (text && !whole) {
      // A UTF-8 continuation byte never starts a chunk: move the start forward, the end back.
      let s = 0;
      while (s < bytes.length && s < 4 && ((bytes[s] as number) & 0xc0) === 0x80) s++;
      let e = end - start;
      while (e > s && e < bytes.length && ((bytes[e] as number) & 0xc0) === 0x80) e--;
      start += s;
      end = start + (e - s);
      bytes = bytes.subarray(s, e);
    } else bytes = bytes.subarray(0, end - start);
    const content = text ? { uri, mimeType: meta.mimeType, text: bytes.toString('utf8') } : { uri, mimeType: meta.mimeType, blob: bytes.toString('base64') };
    if (whole) return { contents: [content] };
    const next = end < meta.bytes ? `${base}?offset=${end}` : null;
    return { contents: [content], _meta: { [CHUNK_META_KEY]: { offset: start, bytes: end - start, total_bytes: meta.bytes, sha256: meta.sha256, next } } };
  } catch (error) {
    // One answer for unknown, foreign and expired handles: nothing about other sessions leaks.
    if (isError(error) && Object.values(HANDLE_ERROR_CODES).includes(error.code as never)) {
      throw new RelayedRpcError(RESOURCE_NOT_FOUND, `resource ${base} is not available to this session`, { uri: base });
    }
    throw relayError(error);
  }
}

/**
 * `trc_follow`: the tool a model uses to follow what a fitted result points at — a
 * `trc://resource/<handle>` link (the full raw result, read window by window) or a
 * `completeness.next` cursor (the next page of a list). The handle is re-authorized for the
 * caller's principal on every use (Z6), and what it returns goes through the pipeline like any
 * result: stored text is external text until shown otherwise.
 */
import { TrcError } from '../contract/index.js';
import { HANDLE_ERROR_CODES, RESOURCE_URI_PREFIX, openResource, page } from '../budget/index.js';
import type { Store } from '../store/types.js';
import { defineTool, type ToolDefinition } from './define-tool.js';
import { ToolFailure } from './tool-failure.js';
import type { ToolOutput } from './types.js';

/** Name of the follow tool. */
export const FOLLOW_TOOL_NAME = 'trc_follow';

/** Characters of a stored text returned per call. */
const WINDOW_CHARS = 4000;
/** Bytes read for one window: a character is at most 4 UTF-8 bytes, or two UTF-16 units. */
const WINDOW_BYTES = WINDOW_CHARS * 4;

/** Arguments of the follow tool. */
export interface FollowArgs {
  /** A `trc://resource/<handle>` link, or the `value` of a `completeness.next` cursor. */
  readonly ref: string;
  /** For a link: where to read on (the previous answer's `next_offset`, a byte offset into the stored result). */
  readonly offset: number | null;
}

const HANDLE_CODES = new Set<string>(Object.values(HANDLE_ERROR_CODES));

const isContinuation = (b: number | undefined): boolean => b !== undefined && (b & 0xc0) === 0x80;

/**
 * One window of a stored result from byte `from`: only the bytes of the window are read, so a
 * window of a 100 MB result costs what a window of a small one does (reading the whole result
 * for each window made every call hold it several times over).
 */
async function readWindow(store: Store, ref: string, principal: string, now: Date, offset: number | null): Promise<ToolOutput> {
  const asked = Math.max(0, Math.floor(offset ?? 0));
  const { meta, chunks } = await openResource(store, ref, { principal, now }, asked);
  let from = Math.min(asked, meta.bytes);
  const parts: Buffer[] = [];
  let held = 0;
  for await (const c of chunks) {
    parts.push(Buffer.from(c.subarray(0, WINDOW_BYTES + 4 - held)));
    held += Math.min(c.byteLength, WINDOW_BYTES + 4 - held);
    if (held >= WINDOW_BYTES + 4) break;
  }
  let bytes = Buffer.concat(parts);
  // An offset inside a character (not one this tool handed out) moves on to the next one.
  let s = 0;
  while (s < 3 && isContinuation(bytes[s])) s++;
  from += s;
  bytes = bytes.subarray(s);
  // The window ends on a character boundary: never half a UTF-8 sequence or a surrogate pair.
  let end = Math.min(bytes.length, WINDOW_BYTES);
  while (end > 0 && end < bytes.length && isContinuation(bytes[end])) end--;
  let text = bytes.subarray(0, end).toString('utf8');
  if (text.length > WINDOW_CHARS) {
    let cut = WINDOW_CHARS;
    if (/[\uD800-\uDBFF]/.test(text[cut - 1] ?? '')) cut--;
    text = text.slice(0, cut);
    end = Buffer.byteLength(text);
  }
  const next = from + end;
  const more = next < meta.bytes;
  return {
    data: { uri: ref, mime_type: meta.mimeType, offset: from, next_offset: more ? next : null, total_bytes: meta.bytes, text },
    completeness: more ? { state: 'partial', reason: 'window', next: null } : { state: 'complete' },
  };
}

async function follow(store: Store, args: FollowArgs, principal: string, now: Date): Promise<ToolOutput> {
  try {
    if (args.ref.startsWith(RESOURCE_URI_PREFIX)) return await readWindow(store, args.ref, principal, now, args.offset);
    const env = await page(args.ref, principal, { store, now: () => now });
    return { data: env.data as NonNullable<unknown>, ...(env.completeness === undefined ? {} : { completeness: env.completeness }) };
  } catch (cause) {
    if (cause instanceof TrcError && (HANDLE_CODES.has(cause.code) || cause.code.startsWith('PAGE_'))) {
      // One answer for unknown, foreign and expired handles: nothing about others' handles leaks.
      throw new ToolFailure({ category: 'not_found', code: 'REFERENCE_NOT_AVAILABLE', message: 'this link or cursor is not available to you (unknown, expired, or not yours)', action: 'explain_to_user' });
    }
    throw cause;
  }
}

/**
 * The follow tool over `store`, as an in-process tool definition (the framework wrappers turn it
 * into their own tool type).
 * @example createExecutor({ tools: [followLinkTool(store)], store })
 */
export function followLinkTool(store: Store, options: { readonly timeoutMs?: number; readonly now?: () => Date } = {}): ToolDefinition<FollowArgs, unknown> {
  return defineTool<FollowArgs, unknown>({
    name: FOLLOW_TOOL_NAME,
    description: 'Read more of a tool result that was shortened to fit: pass a trc://resource/… link from "resources" (and the "next_offset" of the previous answer to read on), or the cursor value from "completeness.next".',
    effect: 'read',
    risk: 'low',
    timeoutMs: options.timeoutMs ?? 30_000,
    // What was stored may have come from anywhere: its text is external until shown otherwise.
    source: { type: 'file', id: 'trc.stored_result' },
    input: {
      type: 'object',
      properties: {
        ref: { type: 'string', description: 'A trc://resource/… link or a completeness.next cursor value' },
        offset: { type: ['integer', 'null'], description: 'For a link: where to read on (next_offset of the previous answer, a byte offset), or null' },
      },
      required: ['ref', 'offset'],
      additionalProperties: false,
    },
    run: (args, ctx) => follow(store, args, ctx.principal.id, options.now?.() ?? new Date()),
  });
}

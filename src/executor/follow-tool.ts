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

/** Arguments of the follow tool. */
export interface FollowArgs {
  /** A `trc://resource/<handle>` link, or the `value` of a `completeness.next` cursor. */
  readonly ref: string;
  /** For a link: the character offset to read from (the previous answer's `next_offset`). */
  readonly offset: number | null;
}

const HANDLE_CODES = new Set<string>(Object.values(HANDLE_ERROR_CODES));

async function follow(store: Store, args: FollowArgs, principal: string, now: Date): Promise<ToolOutput> {
  try {
    if (args.ref.startsWith(RESOURCE_URI_PREFIX)) {
      const { meta, chunks } = await openResource(store, args.ref, { principal, now });
      const parts: Buffer[] = [];
      for await (const c of chunks) parts.push(Buffer.from(c));
      const text = Buffer.concat(parts).toString('utf8');
      const offset = Math.max(0, Math.min(text.length, args.offset ?? 0));
      let end = Math.min(text.length, offset + WINDOW_CHARS);
      // Never split a surrogate pair.
      if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
      const more = end < text.length;
      return {
        data: { uri: args.ref, mime_type: meta.mimeType, offset, next_offset: more ? end : null, total_chars: text.length, text: text.slice(offset, end) },
        completeness: more ? { state: 'partial', reason: 'window', next: null } : { state: 'complete' },
      };
    }
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
        offset: { type: ['integer', 'null'], description: 'For a link: where to read on (next_offset of the previous answer), or null' },
      },
      required: ['ref', 'offset'],
      additionalProperties: false,
    },
    run: (args, ctx) => follow(store, args, ctx.principal.id, options.now?.() ?? new Date()),
  });
}

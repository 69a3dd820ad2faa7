/**
 * `fit(input, budget, ctx)`: fit a tool result to a size budget structurally (SPEC Z1–Z5).
 */
import { digest, type Envelope } from '../contract/index.js';
import { serializeDeep } from '../contract/canonical-deep.js';
import { resolveBudget, type Budget } from './budget.js';
import type { FitContext } from './context.js';
import { memorySpool } from './externalize.js';
import { fitCore } from './fit-core.js';
import { DEFAULT_HANDLE_TTL_MS } from './handles.js';
import { toEnvelope } from './wrap.js';

const encoder = new TextEncoder();

/**
 * `JSON.stringify(value)`, also for a value nested deeper than its native recursion goes (JSON
 * parsing has no such limit, and the trim stops at `maxDepth`, so only storing the raw result
 * needs the iterative writer).
 */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return serializeDeep(value, { keyOrder: 'insertion' }) ?? 'null';
  }
}

/**
 * Fit an envelope (or a raw value, wrapped as `succeeded` data) to `budget`. Trimming is
 * structural; every trimmed node is recorded in `completeness.trimmed`; a summary zone says what
 * was left out; evidence-named nodes are kept first; when anything was dropped and
 * `ctx.store` is given, the full input is stored and referenced from `resources[]`.
 * @example
 * const env = await fit(rows, { maxItems: 20 }, { store, principal: 'alice', tool: 'search' });
 * env.completeness?.returned_items // 20
 */
export async function fit(input: unknown, budget: Budget = {}, ctx: FitContext = {}): Promise<Envelope> {
  const resolved = resolveBudget(budget);
  const { env, wrapped } = toEnvelope(input, ctx);
  const store = ctx.store;
  const now = ctx.now?.() ?? new Date();
  const expiresAt = new Date(now.getTime() + (ctx.ttlMs ?? DEFAULT_HANDLE_TTL_MS)).toISOString();
  let filtered: Envelope | null = null;
  const hook = ctx.dropFields;
  const coreCtx: FitContext = hook === undefined ? ctx : { ...ctx, dropFields: (e) => (filtered = hook(e)) };
  // What is stored: the caller's raw bytes, or the input re-serialized; after a visibility
  // hook, the filtered result (internal fields must not leak through the resource).
  const bytes = (): Uint8Array => {
    const seen = filtered as Envelope | null;
    if (seen !== null) return encoder.encode(jsonText(wrapped ? seen.data : seen));
    if (ctx.raw !== undefined) return typeof ctx.raw === 'string' ? encoder.encode(ctx.raw) : ctx.raw;
    return encoder.encode(jsonText(input));
  };
  // The bytes stored are the caller's raw ones only when nothing was filtered; else the JSON.
  let rawMime: string | undefined;
  if (ctx.raw !== undefined) rawMime = ctx.rawMimeType ?? (typeof ctx.raw === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream');
  const spool = store === undefined ? null : memorySpool(store, bytes, {
    principal: ctx.principal ?? 'anonymous', tool: ctx.tool ?? env.call.tool_name, expiresAt,
    get mimeType() {
      return filtered === null && rawMime !== undefined ? rawMime : 'application/json';
    },
  });
  // Where data sits in what is stored: the caller's raw bytes hold it only when they are that
  // very value (an MCP result's JSON text block beside its structured content); a cursor minted
  // with the envelope's '/data' pointer into them named no list, and `page` refused it.
  const storedDataBase = (): string | null => {
    if ((filtered as Envelope | null) !== null || ctx.raw === undefined) return wrapped ? '' : '/data';
    return rawHoldsData(ctx.raw, env.data) ? '' : null;
  };
  return fitCore({ env, wrapped, spool, storedDataBase }, resolved, coreCtx);
}

/** True when `raw` is JSON text of exactly `data` (compared by canonical digest). */
function rawHoldsData(raw: Uint8Array | string, data: unknown): boolean {
  try {
    const text = typeof raw === 'string' ? raw : new TextDecoder('utf-8', { fatal: true }).decode(raw);
    return digest(JSON.parse(text) as unknown) === digest(data);
  } catch {
    return false;
  }
}

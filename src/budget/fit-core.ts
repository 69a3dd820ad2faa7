/**
 * The fitting pipeline in SPEC Z3 order: structure check → visibility hook → trim plan →
 * summary → evidence → externalize → mark partial. Shared by `fit` and `fitStream`.
 */
import { TrcError, digest, resolvePointer, validate, type Completeness, type Envelope, type Trim, type Warning } from '../contract/index.js';
import type { ResolvedBudget } from './budget.js';
import { summaryReserve } from './budget.js';
import type { FitContext } from './context.js';
import { protectedPointers, repointEvidence } from './evidence-repoint.js';
import { describeResource, type Externalized, type Spool } from './externalize.js';
import { DEFAULT_HANDLE_TTL_MS, mintHandle, readHandle } from './handles.js';
import type { Store } from '../store/types.js';
import { ListStats } from './list-stats.js';
import { fitsWithin, searchTrim } from './search.js';
import { buildSummary, type OmittedList } from './summary.js';
import { o200kCounter } from './token-counter.js';
import type { DroppedList, TrimOutcome } from './trim.js';

/** The root list as a stream saw it: how many items in all, and stats of those not passed in. */
export interface StreamedRoot {
  readonly total: number;
  readonly omitted: ListStats;
}

/** How the input reached the core. */
export interface CoreInput {
  readonly env: Envelope;
  /** True when the input was a raw value wrapped as `data` (the resource then holds the value). */
  readonly wrapped: boolean;
  /** Raw bytes to store if trimmed; null when no store is given. */
  readonly spool: Spool | null;
  readonly root?: StreamedRoot;
  /**
   * Where `data` sits in what the spool stored, asked once it is stored: '/data' in a stored
   * envelope, '' in a stored value; null when the stored bytes are not the data at all (a raw
   * text that says something else), so no list in them can be addressed. Default: by `wrapped`.
   */
  readonly storedDataBase?: () => string | null;
}

/** Pointer (relative to data) of the main list: data itself, or its only array field. */
function mainList(data: unknown): string | null {
  if (Array.isArray(data)) return '';
  if (data === null || typeof data !== 'object') return null;
  const arrays = Object.keys(data).filter((k) => Array.isArray((data as Record<string, unknown>)[k]));
  return arrays.length === 1 ? '/' + (arrays[0] as string).replace(/~/g, '~0').replace(/\//g, '~1') : null;
}

/** Fold the stream's root count into the in-memory trim records. */
function applyRoot(outcome: TrimOutcome, root: StreamedRoot | undefined, keptByStream: number): { trims: Trim[]; lists: (DroppedList & { stats: ListStats })[] } {
  const lists = outcome.lists.map((l) => ({ ...l, stats: new ListStats().addAll(l.dropped) }));
  if (root === undefined || root.total === keptByStream) return { trims: outcome.trims, lists };
  const trims = outcome.trims.map((t) => (t.pointer === '' ? { ...t, total: root.total } : t));
  let rootList = lists.find((l) => l.pointer === '');
  if (rootList === undefined) {
    const kept = Array.isArray(outcome.value) ? outcome.value.length : 0;
    // Post-order, like the in-memory walk: the root's record comes last.
    if (!trims.some((t) => t.pointer === '')) trims.push({ pointer: '', kind: 'items', kept, total: root.total });
    rootList = { pointer: '', origin: '', total: root.total, kept, dropped: [], prefix: kept, stats: root.omitted };
    lists.push(rootList);
  } else {
    const merged = root.omitted.addAll(rootList.dropped);
    lists[lists.indexOf(rootList)] = { ...rootList, total: root.total, stats: merged };
  }
  return { trims, lists };
}

/** Run the pipeline on a structurally valid envelope. */
export async function fitCore(input: CoreInput, budget: ResolvedBudget, ctx: FitContext): Promise<Envelope> {
  const counter = ctx.counter ?? o200kCounter;
  const now = ctx.now?.() ?? new Date();
  // Z3 step 2: the trust stage drops internal fields before anything is summarized or stored.
  const env = ctx.dropFields === undefined ? input.env : ctx.dropFields(input.env);
  const data = env.data;
  if (data === null || data === undefined) {
    await input.spool?.abort();
    return env;
  }
  const keptByStream = Array.isArray(data) ? data.length : 0;
  const { targets, onPath } = protectedPointers(env.evidence);
  const reserve = summaryReserve(budget);
  const outcome = searchTrim(data, {
    budget,
    dataTokens: budget.maxTokens - reserve.tokens,
    dataBytes: budget.maxBytes - reserve.bytes,
    counter,
    targets,
    onPath,
    alreadyTrimmed: input.root !== undefined && input.root.total > keptByStream,
  });
  const { trims, lists } = applyRoot(outcome, input.root, keptByStream);
  if (trims.length === 0) {
    await input.spool?.abort();
    return env;
  }

  // Externalize: the full raw result, a handle for it, and a cursor over the main list.
  const principal = ctx.principal ?? 'anonymous';
  const tool = ctx.tool ?? env.call.tool_name;
  const expiresAt = new Date(now.getTime() + (ctx.ttlMs ?? DEFAULT_HANDLE_TTL_MS)).toISOString();
  const dataBase = input.wrapped ? '' : '/data';
  const warnings: Warning[] = [...env.warnings];
  let stored: Externalized | null = null;
  let cursor: { value: string; expires_at: string } | null = null;
  const main = mainList(data);
  const mainTrim = main === null ? undefined : lists.find((l) => l.origin === main);
  let storedBase = dataBase;
  if (input.spool !== null && ctx.store !== undefined) {
    const meta = await input.spool.commit();
    stored = await describeResource(ctx.store, meta, { principal, tool, expiresAt, now });
    // The cursor points into what was stored, which is not always the envelope.
    const base = input.storedDataBase === undefined ? dataBase : input.storedDataBase();
    if (base !== null) storedBase = base;
    if (mainTrim !== undefined && base !== null) {
      const handle = await mintHandle(ctx.store, {
        kind: 'cursor', principal, tool, expiresAt, now,
        target: { resourceId: meta.id, offset: mainTrim.prefix, pointer: base + (main as string) },
      });
      cursor = { value: handle.id, expires_at: expiresAt };
    }
  } else {
    await input.spool?.abort();
    warnings.push({ code: 'BUDGET_NOT_EXTERNALIZED', message: 'the result was trimmed but no store was given, so the full result is not retrievable' });
  }

  // Summary (Z4/Z5), sized to its reserve.
  const omitted: OmittedList[] = lists.map((l) => ({ pointer: '/data' + l.pointer, total: l.total, kept: l.kept, omitted: l.stats.toJSON() }));
  const absTrims = trims.map((t) => ({ ...t, pointer: '/data' + t.pointer }));
  const summary = buildSummary({ trims: absTrims, lists: omitted, resourceUri: stored?.ref.uri ?? null }, (s) => fitsWithin(s, reserve.tokens, reserve.bytes, counter));

  const out: Envelope = { ...env, data: outcome.value, summary, warnings };
  if (env.evidence !== undefined) {
    out.evidence = repointEvidence(env.evidence, outcome.located, { resourceUri: stored?.ref.uri ?? null, dataBase: storedBase });
  }
  if (stored !== null) out.resources = [...(env.resources ?? []), stored.ref];
  // A rendered presentation of the untrimmed data would leak past the budget.
  delete out.presentation;
  if (env.result_digest !== undefined) out.result_digest = digest(out.data);

  // Mark partial (Z3 last step) with exact books.
  const prev: Completeness = env.completeness ?? { state: 'complete' };
  const upstreamNext = prev.next ?? null;
  const completeness: Completeness = { ...prev, state: 'truncated', reason: 'context_budget', trimmed: absTrims };
  if (main !== null) {
    const list = resolvePointer(out.data, main);
    completeness.returned_items = list.ok && Array.isArray(list.value) ? list.value.length : 0;
    const total = mainTrim?.total ?? (input.root?.total ?? keptByStream);
    const upstreamComplete = upstreamNext === null && prev.state === 'complete';
    completeness.available_items = upstreamComplete ? (main === '' ? total : countAt(data, main, total)) : (prev.available_items ?? null);
  }
  // A `next` that is a cursor of this store (a page of a stored list being fitted again, as the
  // follow tool's are) gives way to ours: ours continues right after the kept items and its last
  // page hands that one on, where following it from here would skip the items this fit cut.
  const ownNext = upstreamNext !== null && cursor !== null && ctx.store !== undefined && await isStoreCursor(ctx.store, upstreamNext.value, principal, now);
  if (upstreamNext !== null && !ownNext) {
    completeness.next = upstreamNext;
    if (cursor !== null) out.extensions = { ...env.extensions, trc_page_cursor: { type: 'cursor', ...cursor } };
  } else {
    completeness.next = cursor === null ? null : { type: 'cursor', ...cursor };
  }
  out.completeness = completeness;
  if (out.status === 'succeeded') out.status = 'partial';

  const check = validate(out);
  if (!check.valid) {
    throw new TrcError('FIT_CONTRADICTION', 'fitting produced an envelope that breaks the contract', { data: { findings: check.findings } });
  }
  return out;
}

/** True when `value` is a live cursor of this store for `principal` (one that `page` reads). */
async function isStoreCursor(store: Store, value: string, principal: string, now: Date): Promise<boolean> {
  try {
    await readHandle(store, value, { principal, kind: 'cursor', now });
    return true;
  } catch {
    return false;
  }
}

function countAt(data: unknown, pointer: string, fallback: number): number {
  const r = resolvePointer(data, pointer);
  return r.ok && Array.isArray(r.value) ? r.value.length : fallback;
}

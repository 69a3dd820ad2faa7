/**
 * Workflow-state write-back (W4): a patch carries the version it was based on and its source,
 * so a later step cannot overwrite newer state with an old read.
 */
import type { StatePatch } from '../contract/index.js';
import type { StateEntry, Store } from '../store/types.js';

/** Stable code of a refused state patch. */
export const STATE_CODES = {
  STALE: 'STATE_VERSION_STALE',
  BAD_VERSION: 'STATE_PATCH_BAD_VERSION',
} as const;

/** Outcome of {@link applyStatePatch}. */
export type StatePatchResult =
  | { readonly ok: true; readonly entry: StateEntry }
  | { readonly ok: false; readonly code: (typeof STATE_CODES)[keyof typeof STATE_CODES]; readonly message: string; readonly current: StateEntry | null };

/**
 * Build a patch on top of the version the caller read (null when the key did not exist).
 * @example statePatch({ key: 'order', value: { status: 'shipped' }, baseVersion: 3, source: { call_id: 'c1', tool_name: 'order.get', retrieved_at } })
 */
export function statePatch(input: { key: string; value: unknown; baseVersion: number | null; source: StatePatch['source'] }): StatePatch {
  return { key: input.key, value: input.value, base_version: input.baseVersion, version: (input.baseVersion ?? 0) + 1, source: input.source };
}

/**
 * Apply a patch only if the stored version still equals its base version; a stale base is
 * refused with `STATE_VERSION_STALE` and the current entry, never merged silently.
 * @example const r = await applyStatePatch(store, patch, new Date().toISOString()); if (!r.ok) console.log(r.code);
 */
export async function applyStatePatch(store: Store, patch: StatePatch, now: string): Promise<StatePatchResult> {
  if (patch.version !== (patch.base_version ?? 0) + 1) {
    return {
      ok: false,
      code: STATE_CODES.BAD_VERSION,
      message: `version ${patch.version} must be base_version + 1 (${(patch.base_version ?? 0) + 1})`,
      current: await store.getState(patch.key),
    };
  }
  const r = await store.putState({ key: patch.key, baseVersion: patch.base_version, value: patch.value, source: patch.source, now });
  if ('conflict' in r) {
    const have = r.conflict === null ? 'no entry' : `version ${r.conflict.version}`;
    return { ok: false, code: STATE_CODES.STALE, message: `state "${patch.key}" is at ${have}, not base version ${String(patch.base_version)}: re-read before writing`, current: r.conflict };
  }
  return { ok: true, entry: r };
}

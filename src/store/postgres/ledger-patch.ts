import type { LedgerPatch } from '../types.js';
import { encodeJson } from '../json-column.js';

/** What a ledger patch sets; parameters $1–$6 of updateParams ($5 is the key). */
export const LEDGER_SET = `state = COALESCE($1, state), attempts = COALESCE($2, attempts), envelope = COALESCE($3, envelope), updated_at = $4,
  lease_owner = CASE WHEN $6 THEN NULL ELSE lease_owner END, lease_until_ms = CASE WHEN $6 THEN NULL ELSE lease_until_ms END`;

/** The parameters of {@link LEDGER_SET} (and the key, `$5`) for `patch`. */
export function updateParams(key: string, patch: LedgerPatch): unknown[] {
  const envelope = patch.envelope === undefined ? null : encodeJson(patch.envelope, '/envelope');
  return [patch.state ?? null, patch.attempts ?? null, envelope, patch.now, key, patch.lease === null];
}

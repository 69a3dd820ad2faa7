/**
 * The downstream id of a write, read from what the tool answered: the first of `id`,
 * `external_id`, `uri`, `path` that holds a string or a number.
 */

/**
 * @example externalIdOf({ id: 'ch_1', amount: 5 }) // 'ch_1'
 */
export function externalIdOf(structured: unknown): string | null {
  if (structured === null || typeof structured !== 'object' || Array.isArray(structured)) return null;
  for (const key of ['id', 'external_id', 'uri', 'path']) {
    const v = (structured as Record<string, unknown>)[key];
    if (typeof v === 'string' && v.length > 0) return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return null;
}

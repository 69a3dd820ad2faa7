import { STORE_ERROR_CODES, storeError } from './errors.js';

/** The tables a store schema has from `version` on (its migrations create them). */
export interface SchemaTables {
  readonly version: number;
  readonly tables: readonly string[];
}

/**
 * Refuse a database (SQLite file, PostgreSQL schema) that holds tables another program made,
 * before a migration adds the store's tables beside them or fails half-way on a name they share.
 * It is the store's when it is empty, or when it has the store's `schema_version` table (columns
 * `version` and `applied_at`) and every table that version has. Tables added beside the store's
 * own are left alone: only a database the store never made is refused.
 *
 * @param found - every table in the database or schema
 * @param versionColumns - the columns of its `schema_version` table, `null` when it has none
 * @param version - the highest version recorded there (0 when none)
 * @param expected - the store's tables and the version that created each group
 * @throws TrcError `STORE_SCHEMA_FOREIGN` naming the database, nothing having been written
 */
export function refuseForeignSchema(
  where: string,
  found: readonly string[],
  versionColumns: readonly string[] | null,
  version: number,
  expected: readonly SchemaTables[],
): void {
  const others = found.filter((t) => t !== 'schema_version');
  if (versionColumns === null && others.length === 0) return;
  let why: string | null = null;
  if (versionColumns === null) {
    why = `it has tables (${others.slice(0, 5).join(', ')}${others.length > 5 ? ', …' : ''}) but no schema_version table`;
  } else if (!versionColumns.includes('version') || !versionColumns.includes('applied_at')) {
    why = `its schema_version table has columns (${versionColumns.join(', ')}), not this store's (version, applied_at)`;
  } else if (version > 0) {
    const missing = expected.filter((g) => g.version <= version).flatMap((g) => g.tables).filter((t) => !found.includes(t));
    if (missing.length > 0) why = `its schema_version says version ${version}, but tables of that version are missing (${missing.join(', ')})`;
  } else if (others.length > 0) {
    why = `its schema_version table is empty, but it has tables (${others.slice(0, 5).join(', ')})`;
  }
  if (why !== null) {
    throw storeError(STORE_ERROR_CODES.schemaForeign, `${where} was not made by this store: ${why}; it was left unchanged (give the store its own file or schema)`, { tables: [...found] });
  }
}

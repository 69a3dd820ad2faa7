/**
 * The Store interface and the in-memory store: `tool-result-contract/store`.
 * Native backends live in `./store/sqlite` and `./store/postgres` so this entry has no native deps.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export type {
  Store, ResourceMeta, ResourceWriter, HandleRecord, LedgerState, LedgerEntry, LedgerBegin, LedgerLease, LedgerClaim, AuditRecord, AuditFilter, StateEntry, AuditEncoding, RunEventEntry, LedgerPatch,
} from './types.js';
export { createMemoryStore } from './memory.js';
export type { MemoryStoreOptions } from './memory.js';
export { DEFAULT_MAX_AUDIT_RECORDS, DEFAULT_MAX_RESOURCE_BYTES } from './memory-retention.js';
export type { MemoryEviction } from './memory-retention.js';
export { STORE_ERROR_CODES } from './errors.js';
export type { StoreErrorCode } from './errors.js';
export { DEFAULT_CHUNK_BYTES } from './chunker.js';
export { pruneAuditBefore, AUDIT_PRUNE_BATCH } from './prune-audit.js';
export { userDataDir, defaultStorePath, isPostgresUrl, DATA_DIR_NAME } from './default-location.js';
export type { DataDirContext } from './default-location.js';

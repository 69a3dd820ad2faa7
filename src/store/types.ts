/**
 * The Store interface: the only way the library touches persistence (resources, handles,
 * the side-effect ledger, the audit log, workflow state). Implementations: memory (tests),
 * SQLite (embedded default, `tool-result-contract/store/sqlite`), PostgreSQL
 * (`tool-result-contract/store/postgres`). All must pass `test/store/store-suite.ts`.
 *
 * Async everywhere so a networked database fits; no SQLite-only assumptions (no rowid,
 * no synchronous transactions leaking through the interface).
 */

/** Metadata of a stored external resource (Z4): the full raw result kept out of model context. */
export interface ResourceMeta {
  readonly id: string;
  readonly principal: string;
  readonly tool: string;
  readonly mimeType: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
}

/**
 * Writes a resource in chunks (for results larger than memory). Nothing is visible to readers
 * until `commit()`; `abort()` (or a failed commit) leaves no trace.
 */
export interface ResourceWriter {
  /** The id the resource will have once committed (known up front, e.g. to build its URI). */
  readonly id: string;
  write(chunk: Uint8Array): Promise<void>;
  commit(): Promise<ResourceMeta>;
  abort(): Promise<void>;
}

/** An opaque handle or cursor (Z6), bound to a principal and tool, with expiry. */
export interface HandleRecord {
  /** The opaque token itself (≥128 random bits, base64url). */
  readonly id: string;
  readonly kind: 'resource' | 'cursor';
  readonly principal: string;
  readonly tool: string;
  /** What the handle points at: a resource id, plus for cursors an offset. Never shown to clients. */
  readonly target: { readonly resourceId: string; readonly offset?: number; readonly pointer?: string };
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** Ledger entry states (W2). */
export type LedgerState = 'in_flight' | 'succeeded' | 'failed' | 'unknown';

/**
 * Who runs an entry's write, and until when (RFC 3339): the owner renews it while the write
 * runs; another instance may take the entry over only once it has expired (its owner died).
 */
export interface LedgerLease {
  /** The instance holding the entry (the executor's instance id). */
  readonly owner: string;
  readonly until: string;
}

/** Input of {@link Store.ledgerClaim}. */
export interface LedgerClaim {
  /** The lease to hold from now on. */
  readonly lease: LedgerLease;
  readonly now: string;
  /** The entry is taken only in one of these states. */
  readonly from: readonly LedgerState[];
  /** New state and attempts, written in the same step (default: unchanged). */
  readonly state?: LedgerState;
  readonly attempts?: number;
  /**
   * Also take a live lease whose owner starts with this prefix: a predecessor of this same
   * instance (a stable instance id, restarted) that cannot be running any more.
   */
  readonly over?: string;
}

/** One idempotency-ledger entry for a side-effecting call (W1–W3). */
export interface LedgerEntry {
  readonly key: string;
  readonly tool: string;
  readonly principal: string;
  /** SHA-256 of the canonical arguments; the same key with other args is refused. */
  readonly argsDigest: string;
  readonly state: LedgerState;
  readonly attempts: number;
  readonly callId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The recorded envelope (JSON) once settled, replayed for a repeated key. */
  readonly envelope: unknown;
  /** Present while an instance holds the entry (see {@link LedgerLease}). */
  readonly lease?: LedgerLease;
}

/** Outcome of {@link Store.ledgerBegin}. */
export type LedgerBegin =
  | { readonly created: true; readonly entry: LedgerEntry }
  | { readonly created: false; readonly entry: LedgerEntry };

/** One audit record per call (D1). */
export interface AuditRecord {
  readonly callId: string;
  readonly tool: string;
  readonly principal: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly status: string;
  readonly argsDigest: string;
  readonly envelopeDigest: string | null;
  /** Everything else worth diagnosing (attempts, classification, ledger state, layer notes). */
  readonly detail: unknown;
}

/** Serialization the caller of {@link Store.appendAudit} already did (an optional hint). */
export interface AuditEncoding {
  /** `JSON.stringify(record.detail)`, made from the same object at the same moment. */
  readonly detailJson?: string;
}

/** Filter for {@link Store.listAudit}. */
export interface AuditFilter {
  readonly tool?: string;
  /** Calls started at or after this RFC 3339 time. */
  readonly since?: string;
  /** Calls started before this RFC 3339 time. */
  readonly until?: string;
  readonly limit?: number;
  /** Newest first (and `limit` keeps the newest N); oldest first by default. */
  readonly newest?: boolean;
}

/** A versioned workflow-state value (W4). */
export interface StateEntry {
  readonly key: string;
  readonly version: number;
  readonly value: unknown;
  readonly source: unknown;
  readonly updatedAt: string;
}

/** One entry of a run's event log (see `Store.appendRunEvents`). */
export interface RunEventEntry {
  /** 1, 2, 3… within the run: the order every reader replays the log in. */
  readonly seq: number;
  readonly event: unknown;
  readonly at: string;
}

/**
 * A change to a ledger entry: state, attempts, envelope; `lease: null` releases the lease,
 * absent keeps it; `now` becomes its `updatedAt`.
 */
export interface LedgerPatch {
  readonly state?: LedgerState;
  readonly attempts?: number;
  readonly envelope?: unknown;
  readonly lease?: null;
  readonly now: string;
}

/** Persistence for everything the library keeps. */
export interface Store {
  /** Start writing a resource; see {@link ResourceWriter}. */
  createResource(input: { principal: string; tool: string; mimeType: string; expiresAt: string | null }): Promise<ResourceWriter>;
  getResourceMeta(id: string): Promise<ResourceMeta | null>;
  /**
   * Read the bytes of a resource in order, chunk by chunk; with `from`, from that byte on (the
   * chunks before it are not read, so resuming part-way costs what is read, not what precedes it).
   */
  readResource(id: string, from?: number): AsyncIterable<Uint8Array>;

  putHandle(handle: HandleRecord): Promise<void>;
  getHandle(id: string): Promise<HandleRecord | null>;
  /**
   * Delete handles and committed resources whose expiry is before `now` (RFC 3339); resources
   * without an expiry, writers still open, the ledger, audit and state are kept. Returns the
   * counts deleted. Reads already refuse expired handles; this reclaims their space. A store
   * shared by many processes (PostgreSQL) sweeps once at a time: `skipped` when another was sweeping.
   */
  sweepExpired(now: string): Promise<{ handles: number; resources: number; skipped?: true }>;

  /** Insert an in-flight entry (held by `lease` when given), or return the existing one for the key (atomic). */
  ledgerBegin(entry: Omit<LedgerEntry, 'state' | 'attempts' | 'createdAt' | 'updatedAt' | 'envelope' | 'lease'> & { now: string; lease?: LedgerLease }): Promise<LedgerBegin>;
  /**
   * Settle or update an entry (state, attempts, envelope; `lease: null` releases the lease, absent
   * keeps it). Returns null when the key is absent.
   */
  ledgerUpdate(key: string, patch: LedgerPatch): Promise<LedgerEntry | null>;
  /**
   * Take (or renew) an entry in one atomic step: only when its state is one of `from` and it has
   * no lease, a lease of the same owner, or a lease expired before `now`. Returns the updated
   * entry, or null when the key is absent or another live owner holds it. Two instances racing
   * for a dead instance's entry: exactly one wins.
   */
  ledgerClaim(key: string, claim: LedgerClaim): Promise<LedgerEntry | null>;
  ledgerGet(key: string): Promise<LedgerEntry | null>;
  ledgerList(filter?: { state?: LedgerState }): Promise<LedgerEntry[]>;

  /**
   * Append one audit record (refused when its `callId` exists). `encoded.detailJson`, when given,
   * must be `JSON.stringify(record.detail)` made by the caller: stores that keep records as JSON
   * text may splice it in instead of serializing the detail again. Stores may ignore it.
   */
  appendAudit(record: AuditRecord, encoded?: AuditEncoding): Promise<void>;
  /**
   * Append many audit records at once (one transaction where the backend has them: a write-behind
   * queue pays one commit per batch instead of one per call). Records whose `callId` exists — in
   * the store or earlier in the batch — are skipped and returned; a record with a bad timestamp
   * fails the whole batch (pointer `/<index>/startedAt`) before anything is written.
   * `encodings[i]`, when given, is to `records[i]` what `encoded` is to {@link appendAudit}.
   */
  appendAuditBatch(records: readonly AuditRecord[], encodings?: readonly (AuditEncoding | undefined)[]): Promise<readonly string[]>;
  /**
   * Append a write's audit record and settle its ledger entry (as {@link ledgerUpdate}) in one
   * atomic step, one commit: both or neither. Refused like {@link appendAudit} when the record's
   * `callId` exists, and then nothing is settled. Optional: without it, callers append and then
   * update, in two steps.
   */
  appendAuditAndSettle?(record: AuditRecord, encoded: AuditEncoding | undefined, key: string, patch: LedgerPatch): Promise<LedgerEntry | null>;
  getAudit(callId: string): Promise<AuditRecord | null>;
  listAudit(filter?: AuditFilter): Promise<AuditRecord[]>;
  /**
   * Delete the audit records of calls started before `before` (RFC 3339), at most `limit` of
   * them, oldest first, and return how many went. Each call is one short transaction, so
   * writers sharing the store never wait for a long one: to prune a large log, call it again
   * until it returns less than `limit`. The ledger, runs and state are kept. Optional: a store
   * without it keeps every record.
   */
  pruneAudit?(before: string, limit: number): Promise<number>;

  getState(key: string): Promise<StateEntry | null>;
  /**
   * Write state only if its current version equals `baseVersion` (null = must not exist).
   * Returns the new entry, or `{ conflict: current }` when the base version is stale.
   */
  putState(input: { key: string; baseVersion: number | null; value: unknown; source: unknown; now: string }): Promise<StateEntry | { conflict: StateEntry | null }>;

  /**
   * Append events to the log of run `runId` right after entry `afterSeq` (0: the log must be
   * empty), numbered `afterSeq + 1…`, all or none. Answers `{ conflict: true }`, writing nothing,
   * when another writer appended after `afterSeq` first: read what it wrote and try again. The
   * log is how a run's taint, scope and confirmations outlive a restart and reach a second process.
   */
  appendRunEvents(input: { runId: string; afterSeq: number; events: readonly unknown[]; now: string }): Promise<{ lastSeq: number } | { conflict: true }>;
  /** The entries of run `runId`'s log after `afterSeq` (default 0), in order. */
  listRunEvents(runId: string, afterSeq?: number): Promise<RunEventEntry[]>;

  close(): Promise<void>;
}

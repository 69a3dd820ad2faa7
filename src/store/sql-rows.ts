/**
 * Row shapes shared by the SQL stores (SQLite and PostgreSQL) and their mapping to the Store's
 * types. One table layout, so one mapping; PostgreSQL returns BIGINT byte counts as strings.
 */
import { decodeJson } from './json-column.js';
import { timestampMs } from './timestamps.js';
import type { LedgerEntry, LedgerLease, LedgerState, ResourceMeta, StateEntry } from './types.js';

/** A row of the ledger table. */
export interface LedgerRow {
  key: string; tool: string; principal: string; args_digest: string; state: LedgerState; attempts: number;
  call_id: string; created_at: string; updated_at: string; envelope: string;
  /** Absent in rows of a schema before leases; BIGINT comes back from PostgreSQL as text. */
  lease_owner?: string | null; lease_until_ms?: number | string | null;
}

/** A row of the resources table (`bytes` is a string when the driver returns BIGINT as text). */
export interface ResourceRow {
  id: string; principal: string; tool: string; mime_type: string; bytes: number | string; sha256: string;
  chunks: number; created_at: string; expires_at: string | null;
}

/** A row of the workflow-state table. */
export interface StateRow { key: string; version: number; value: string; source: string; updated_at: string }

/** Ledger row → {@link LedgerEntry}. */
export const toEntry = (r: LedgerRow): LedgerEntry => ({
  key: r.key, tool: r.tool, principal: r.principal, argsDigest: r.args_digest, state: r.state, attempts: r.attempts,
  callId: r.call_id, createdAt: r.created_at, updatedAt: r.updated_at, envelope: decodeJson(r.envelope),
  ...(r.lease_owner == null || r.lease_until_ms == null ? {} : { lease: { owner: r.lease_owner, until: new Date(Number(r.lease_until_ms)).toISOString() } }),
});

/** Resource row → {@link ResourceMeta}. */
export const toMeta = (r: ResourceRow): ResourceMeta => ({
  id: r.id, principal: r.principal, tool: r.tool, mimeType: r.mime_type, bytes: Number(r.bytes), sha256: r.sha256,
  createdAt: r.created_at, expiresAt: r.expires_at,
});

/** State row → {@link StateEntry}. */
export const toState = (r: StateRow): StateEntry => ({
  key: r.key, version: r.version, value: decodeJson(r.value), source: decodeJson(r.source), updatedAt: r.updated_at,
});

/** A lease's expiry as epoch milliseconds for the `lease_until_ms` column (null without a lease). */
export const leaseMs = (lease: LedgerLease | undefined): number | null => (lease === undefined ? null : timestampMs(lease.until, '/lease/until'));

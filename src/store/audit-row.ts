/**
 * An audit row as the SQL stores read it back. The record column is JSON text this library
 * wrote, but a file on disk can be edited, restored from elsewhere or written by another
 * program, and one row that does not parse made `listAudit` throw: `trc audit`, the inspector's
 * call list and `diagnose` of every call of that tool failed on it. Such a row is returned as a
 * record that says it cannot be read (status `unreadable`), keyed by its own columns, so the
 * rest of the log stays readable and the bad row is named.
 */
import type { AuditRecord } from './types.js';

/** The columns an audit query selects. */
export interface AuditRow {
  readonly call_id: string;
  readonly tool: string;
  readonly started_at: string;
  readonly record: string;
}

/** `detail.kind` of a record standing in for a row that cannot be read. */
export const UNREADABLE_RECORD_KIND = 'trc.store.unreadable_record.v1';

/** The status of such a record (none of the envelope's statuses: nothing is known of the call). */
export const UNREADABLE_STATUS = 'unreadable';

const TEXT_FIELDS = ['callId', 'tool', 'principal', 'startedAt', 'finishedAt', 'status', 'argsDigest'] as const;

/** The record in `text`, or where (a pointer into the row) and why it is not one of this library. */
function problemOf(text: string): { value: AuditRecord } | { pointer: string; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (cause) {
    return { pointer: '/record', reason: `is not JSON (${cause instanceof Error ? cause.message : String(cause)})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { pointer: '/record', reason: 'is not a JSON object' };
  const r = value as Record<string, unknown>;
  const bad = TEXT_FIELDS.find((k) => typeof r[k] !== 'string');
  if (bad !== undefined) return { pointer: `/record/${bad}`, reason: 'is not a text' };
  return { value: value as AuditRecord };
}

/**
 * The record of one audit row; a row whose record cannot be read becomes a record saying so.
 * @example decodeAuditRow({ call_id: 'c1', tool: 't', started_at: '2026-01-01T00:00:00Z', record: 'x' }).status // 'unreadable'
 */
export function decodeAuditRow(row: AuditRow): AuditRecord {
  const read = problemOf(row.record);
  if ('value' in read) return read.value;
  return {
    callId: row.call_id,
    tool: row.tool,
    principal: '',
    startedAt: row.started_at,
    finishedAt: row.started_at,
    status: UNREADABLE_STATUS,
    argsDigest: '',
    envelopeDigest: null,
    detail: { kind: UNREADABLE_RECORD_KIND, pointer: read.pointer, reason: read.reason, text: row.record.slice(0, 200) },
  };
}

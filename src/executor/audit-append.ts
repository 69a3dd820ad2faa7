/**
 * How the pipeline hands one call's audit record to its sink, and what happens when the store
 * already holds a record under the call's id. A call id can come back legitimately: the default
 * policy holds a high-risk call "until the principal confirms the call id", so the confirmed run
 * repeats the held call's id; a framework that resumes a conversation re-runs a provider's tool
 * call id. The store keeps one record per id, and refusing the second one lost the record of the
 * run that actually happened (often the write the user just confirmed). The later run is stored
 * under `<call_id>#repeat-<n>` instead, which `diagnose(call_id)` lists beside the first record.
 */
import { TrcError } from '../contract/index.js';
import { STORE_ERROR_CODES } from '../store/errors.js';
import type { AuditRecord, LedgerPatch, Store } from '../store/types.js';
import type { AuditEntry, AuditSink } from './audit-sink.js';

/** The suffix of the record id a repeated call id is stored under: `<call_id>#repeat-<n>`. */
export const REPEAT_SUFFIX = '#repeat-';

/** How many repeats of one call id are looked for: past it, the record is refused as before. */
export const MAX_REPEATS = 100;

/** True for the store's refusal of a call id it already holds. */
export const isAuditExists = (e: unknown): boolean => e instanceof TrcError && e.code === STORE_ERROR_CODES.auditExists;

/** The call-layer note of a record stored under a repeat id. */
export function repeatNote(callId: string, recordId: string): string {
  return `call id ${callId} was recorded before; this run is recorded as ${recordId}`;
}

/** The suffix of a reconciliation's record id: `<call_id>#reconcile-<n>` (recover.ts). */
export const RECONCILE_SUFFIX = '#reconcile-';

/**
 * The records `<callId><suffix>1`, `…2`, … in order, up to the first number the store does not
 * hold (or `max`). Each is looked up by its id: listing every record of the tool to find them
 * held the whole log of a busy tool in memory (60,000 records: 0.5 GB) for one diagnosis.
 * @example await numberedRecords(store, 'call_7', RECONCILE_SUFFIX, 10_000)
 */
export async function numberedRecords(store: Store, callId: string, suffix: string, max: number): Promise<AuditRecord[]> {
  const out: AuditRecord[] = [];
  for (let n = 1; n <= max; n++) {
    const record = await store.getAudit(`${callId}${suffix}${n}`);
    if (record === null) break;
    out.push(record);
  }
  return out;
}

/**
 * The record ids of the later runs of `callId`, in order, as far as the store holds them.
 * @example await repeatedRecordIds(store, 'call_7') // ['call_7#repeat-1']
 */
export async function repeatedRecordIds(store: Store, callId: string): Promise<string[]> {
  return (await numberedRecords(store, callId, REPEAT_SUFFIX, MAX_REPEATS)).map((r) => r.callId);
}

async function freeRepeatId(store: Store, callId: string): Promise<string | null> {
  const taken = await repeatedRecordIds(store, callId);
  return taken.length >= MAX_REPEATS ? null : `${callId}${REPEAT_SUFFIX}${taken.length + 1}`;
}

/** What {@link appendCallRecord} needs to store one record. */
export interface CallRecordInput {
  readonly sink: AuditSink;
  readonly store: Store;
  readonly callId: string;
  readonly entry: AuditEntry;
  /** The same record under another id (a repeat), with a note saying which id it repeats. */
  readonly rebuild: (recordId: string) => AuditEntry;
  readonly durable: boolean;
  /** A write's ledger settle, done in the same commit where the sink can. */
  readonly settle?: { readonly key: string; readonly patch: LedgerPatch } | undefined;
}

async function appendOnce(input: CallRecordInput, entry: AuditEntry): Promise<boolean> {
  const { sink, store, settle, durable } = input;
  const both = settle === undefined ? undefined : sink.appendAndSettle?.(entry, store, settle.key, settle.patch);
  if (both === undefined) {
    await sink.append(entry, { durable });
    return false;
  }
  await both;
  return true;
}

/**
 * Store the record; a call id the store already holds is stored as its next repeat. Resolves
 * to true when the ledger entry was settled with the record; rejects like the sink.
 * @example const settled = await appendCallRecord({ sink, store, callId, entry, rebuild, durable: true, settle });
 */
export async function appendCallRecord(input: CallRecordInput): Promise<boolean> {
  try {
    return await appendOnce(input, input.entry);
  } catch (error) {
    if (!isAuditExists(error)) throw error;
    const id = await freeRepeatId(input.store, input.callId);
    if (id === null) throw error;
    return appendOnce(input, input.rebuild(id));
  }
}

/**
 * Store `record`, whose call id the store already holds, as that id's next repeat, with the
 * note in its call layer: for a sink that learns of the clash after the call answered (a
 * write-behind batch skips such records). Resolves to the id used, or null when none is free.
 * @example await appendRepeat(store, record) // 'call_7#repeat-1'
 */
export async function appendRepeat(store: Store, record: AuditRecord): Promise<string | null> {
  const id = await freeRepeatId(store, record.callId);
  if (id === null) return null;
  const detail = record.detail as { notes?: { call?: unknown } } | null;
  const notes = detail?.notes;
  const noted = notes !== undefined && Array.isArray(notes.call) ? { ...detail, notes: { ...notes, call: [...(notes.call as unknown[]), repeatNote(record.callId, id)] } } : record.detail;
  await store.appendAudit({ ...record, callId: id, detail: noted });
  return id;
}

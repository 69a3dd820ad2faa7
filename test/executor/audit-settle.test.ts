/**
 * A write's audit record and its ledger settle: one step where the sink keeps records in the
 * ledger's store, two where it cannot, and the settle is never lost to a refused record.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex, TrcError } from '../../src/contract/index.js';
import { createExecutor, storeAuditSink } from '../../src/executor/index.js';
import { createMemoryStore, type Store } from '../../src/store/index.js';
import { writeTool } from './helpers/tools.js';

const user = { id: 'user_1' };

/**
 * A memory store that counts the calls of the methods a write's end uses; with `refuseRecords`
 * its audit table fails (a full disk) while the ledger still answers.
 */
function countingStore(refuseRecords = false) {
  const base = createMemoryStore();
  const calls = { ledgerUpdate: 0, appendAudit: 0, appendAuditAndSettle: 0 };
  const full = () => Promise.reject(new TrcError('STORE_BACKEND_ERROR', 'the audit table is full'));
  const store: Store = {
    ...base,
    ledgerUpdate: (key, patch) => { calls.ledgerUpdate++; return base.ledgerUpdate(key, patch); },
    appendAudit: (record, encoded) => { calls.appendAudit++; return refuseRecords ? full() : base.appendAudit(record, encoded); },
    appendAuditAndSettle: (record, encoded, key, patch) => { calls.appendAuditAndSettle++; return refuseRecords ? full() : base.appendAuditAndSettle?.(record, encoded, key, patch) ?? Promise.resolve(null); },
  };
  return { store, calls };
}

describe('a write\'s record and its ledger settle', () => {
  const refund = writeTool(async () => ({ data: { refund_id: 'r1' }, external_id: 'r1' }));

  it('go to the store in one step when the sink keeps records in the ledger\'s store', async () => {
    const { store, calls } = countingStore();
    const executor = createExecutor({ tools: [refund], store });
    const env = await executor.call({ call_id: 'w1', tool_name: 'refund_create', args: { id: 'o1' } }, user);
    expect(env.status).toBe('succeeded');
    expect(calls).toEqual({ ledgerUpdate: 0, appendAudit: 0, appendAuditAndSettle: 1 });
    const [entry] = await store.ledgerList();
    expect(entry).toMatchObject({ state: 'succeeded', attempts: 1, callId: 'w1' });
    expect(entry?.lease).toBeUndefined();
    expect((await store.getAudit('w1'))?.envelopeDigest).toBe('sha256:' + sha256Hex(JSON.stringify(env)));
  });

  it('go in two steps, each to its own store, when records are kept elsewhere', async () => {
    const ledger = countingStore();
    const records = countingStore();
    const executor = createExecutor({ tools: [refund], store: ledger.store, audit: storeAuditSink(records.store) });
    await executor.call({ call_id: 'w2', tool_name: 'refund_create', args: { id: 'o1' } }, user);
    expect(records.calls).toEqual({ ledgerUpdate: 0, appendAudit: 1, appendAuditAndSettle: 0 });
    expect(ledger.calls).toEqual({ ledgerUpdate: 1, appendAudit: 0, appendAuditAndSettle: 0 });
    expect((await ledger.store.ledgerList())[0]).toMatchObject({ state: 'succeeded', callId: 'w2' });
    expect(await records.store.getAudit('w2')).not.toBeNull();
  });

  it('still settle the entry, and the envelope says so, when the record is refused', async () => {
    const { store } = countingStore(true);
    const executor = createExecutor({ tools: [refund], store });
    const env = await executor.call({ call_id: 'w3', tool_name: 'refund_create', args: { id: 'o1' } }, user);
    expect(env.warnings.map((w) => (typeof w === 'string' ? w : w.code))).toContain('AUDIT_WRITE_FAILED');
    expect((await store.ledgerList())[0]).toMatchObject({ state: 'succeeded', callId: 'w3' });
    expect(await store.getAudit('w3')).toBeNull();
  });
});

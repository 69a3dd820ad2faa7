/**
 * Late audit records: a write-behind sink with `lateRecords` has the pipeline make a read's
 * record when its batch is stored, after the call answered; writes are still recorded before
 * they answer, and the record is the one an eager sink stores.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/contract/index.js';
import { createExecutor, diagnose, flushAudit, lateAuditEntry, storeAuditSink, writeBehindAuditSink } from '../../src/executor/index.js';
import { createMemoryStore, type AuditRecord } from '../../src/store/index.js';
import { readTool, writeTool } from './helpers/tools.js';

const user = { id: 'user_1' };
const order = readTool(() => ({ data: { id: 'o1', status: 'shipped' } }));

const record = (callId: string): AuditRecord => ({
  callId, tool: 'echo', principal: 'p', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:00.000Z',
  status: 'succeeded', argsDigest: 'sha256:' + '0'.repeat(64), envelopeDigest: null, detail: { callId },
});

describe('late audit records', () => {
  it('are made when their batch is stored, from the envelope as it is then', async () => {
    const store = createMemoryStore();
    const executor = createExecutor({ tools: [order], store, audit: writeBehindAuditSink(store, { lateRecords: true }) });
    const env = await executor.call({ call_id: 'r1', tool_name: 'order_get', args: { id: 'o1' } }, user);
    // The documented condition of lateRecords: the caller does not change what it got back.
    // Changing it anyway shows when the record was made.
    (env.warnings as unknown[]).push({ code: 'CHANGED_AFTER_THE_ANSWER', message: 'x' });
    await flushAudit(store);
    const stored = (await store.getAudit('r1'))?.detail as { envelope: { warnings: { code: string }[] } };
    expect(stored.envelope.warnings.map((w) => w.code)).toContain('CHANGED_AFTER_THE_ANSWER');
  });

  it('are not made late by a sink that did not ask: the record holds the envelope as returned', async () => {
    const store = createMemoryStore();
    const executor = createExecutor({ tools: [order], store, audit: writeBehindAuditSink(store) });
    const env = await executor.call({ call_id: 'r2', tool_name: 'order_get', args: { id: 'o1' } }, user);
    (env.warnings as unknown[]).push({ code: 'CHANGED_AFTER_THE_ANSWER', message: 'x' });
    await flushAudit(store);
    const stored = (await store.getAudit('r2'))?.detail as { envelope: { warnings: { code: string }[] } };
    expect(stored.envelope.warnings.map((w) => w.code)).not.toContain('CHANGED_AFTER_THE_ANSWER');
  });

  it('are the records an eager sink stores: digest, detail and diagnosis alike', async () => {
    const late = createMemoryStore();
    const eager = createMemoryStore();
    const a = await createExecutor({ tools: [order], store: late, audit: writeBehindAuditSink(late, { lateRecords: true }) }).call({ call_id: 'r3', tool_name: 'order_get', args: { id: 'o1' } }, user);
    const b = await createExecutor({ tools: [order], store: eager, audit: storeAuditSink(eager) }).call({ call_id: 'r3', tool_name: 'order_get', args: { id: 'o1' } }, user);
    await flushAudit(late);
    const [x, y] = [await late.getAudit('r3'), await eager.getAudit('r3')];
    expect(x?.envelopeDigest).toBe('sha256:' + sha256Hex(JSON.stringify(a)));
    expect(y?.envelopeDigest).toBe('sha256:' + sha256Hex(JSON.stringify(b)));
    // Apart from the time each call ran, the two records say the same.
    // Elapsed milliseconds differ from run to run as well (0 against 1 on a busy machine).
    const timeless = (r: AuditRecord | null) => JSON.parse(JSON.stringify(r).replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"T"').replace(/"(timings_ms|duration_ms|elapsed_ms)":(\[[\d,.]*\]|[\d.]+)/g, '"$1":"T"').replace(/"sha256:[0-9a-f]{64}"/g, '"D"').replace(/"uc_[0-9a-f]+"/g, '"U"')) as unknown;
    expect(timeless(x)).toEqual(timeless(y));
    expect((await diagnose('r3', late))?.failed_layer).toBe((await diagnose('r3', eager))?.failed_layer);
  });

  it('leave a write recorded before it answers', async () => {
    const store = createMemoryStore();
    const refund = writeTool(async () => ({ data: { refund_id: 'r1' }, external_id: 'r1' }));
    const executor = createExecutor({ tools: [refund], store, audit: writeBehindAuditSink(store, { lateRecords: true }) });
    const env = await executor.call({ call_id: 'w1', tool_name: 'refund_create', args: { id: 'o1' } }, user);
    // No flush: a write's record is stored with its ledger settle, before the answer.
    expect((await store.getAudit('w1'))?.envelopeDigest).toBe('sha256:' + sha256Hex(JSON.stringify(env)));
    expect((await store.ledgerList())[0]).toMatchObject({ state: 'succeeded', callId: 'w1' });
  });

  it('lose only their own record when one cannot be made; the rest of the batch is stored', async () => {
    const store = createMemoryStore();
    const sink = writeBehindAuditSink(store, { lateRecords: true });
    sink.append({ record: record('a') }, { durable: false });
    sink.append(lateAuditEntry(() => { throw new Error('cannot be made'); }), { durable: false });
    sink.append(lateAuditEntry(() => ({ record: record('c'), detailJson: () => '{"callId":"c","from":"text"}' })), { durable: false });
    await sink.flush();
    expect((await store.listAudit({})).map((r) => r.callId).sort()).toEqual(['a', 'c']);
    expect((await store.getAudit('c'))?.detail).toEqual({ callId: 'c', from: 'text' });
  });
});

describe('a late entry', () => {
  it('makes its record once, on first read, and its detail text from the same build', () => {
    let builds = 0;
    const entry = lateAuditEntry(() => {
      builds++;
      return { record: record('x'), detailJson: () => '{"callId":"x"}' };
    });
    expect(builds).toBe(0);
    expect(entry.record.callId).toBe('x');
    expect(entry.detailJson?.()).toBe('{"callId":"x"}');
    expect(entry.record.callId).toBe('x');
    expect(builds).toBe(1);
  });
});

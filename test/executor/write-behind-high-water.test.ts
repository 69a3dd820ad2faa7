/**
 * The write-behind audit queue when the event loop never turns: calls of tools without I/O,
 * awaited one after another, never let a timer or setImmediate run, so the window and the
 * full-batch drain alone would keep every record (and its envelope) queued until the loop ends.
 */
import { describe, expect, it } from 'vitest';
import { AUDIT_HIGH_WATER, createExecutor, flushAudit, writeBehindAuditSink } from '../../src/executor/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { readTool } from './helpers/tools.js';

const order = readTool(({ id }) => ({ data: { id, status: 'shipped' } }));
const user = { id: 'user_1' };

describe('the write-behind audit queue in a loop that never yields', () => {
  it.each([false, true])('stores records while the loop runs, never holding more than its high-water mark (late records: %s)', async (lateRecords) => {
    const store = createMemoryStore();
    const executor = createExecutor({ tools: [order], store, audit: writeBehindAuditSink(store, { lateRecords }) });
    let turned = false;
    setImmediate(() => { turned = true; });
    const calls = 2 * AUDIT_HIGH_WATER + 7;
    for (let i = 0; i < calls; i++) await executor.call({ call_id: `c${i}`, tool_name: 'order_get', args: { id: `o${i}` } }, user);
    // The premise: the loop above ran without a turn of the event loop.
    expect(turned).toBe(false);
    const stored = (await store.listAudit({ limit: calls })).length;
    expect(stored).toBeGreaterThanOrEqual(calls - AUDIT_HIGH_WATER);
    await flushAudit(store);
    const all = await store.listAudit({ limit: calls + 1 });
    expect(all).toHaveLength(calls);
    expect(new Set(all.map((r) => r.callId)).size).toBe(calls);
  });
});

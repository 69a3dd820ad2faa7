/**
 * Read-call audit records queued behind while the store refuses them (an outage) are kept and
 * tried again, and anything given up is reported — they used to be dropped without a word.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_MAX_TRIES, createExecutor, flushAudit, writeBehindAuditSink, type AuditTrouble } from '../../src/executor/index.js';
import { createMemoryStore, type Store } from '../../src/store/index.js';
import { readTool } from './helpers/tools.js';

const order = readTool(({ id }) => ({ data: { id, status: 'shipped' } }));
const user = { id: 'user_1' };

/** A memory store whose batch inserts fail while `down()` says so. */
function flakyStore(down: () => boolean): Store {
  const store = createMemoryStore();
  const batch = store.appendAuditBatch.bind(store);
  return Object.assign(store, {
    appendAuditBatch: (...args: Parameters<Store['appendAuditBatch']>) => (down() ? Promise.reject(new Error('connect ECONNREFUSED')) : batch(...args)),
  });
}

afterEach(() => vi.useRealTimers());

describe('write-behind audit while the store is down', () => {
  it('keeps the records, reports the refusal, and stores them once the store is back', async () => {
    vi.useFakeTimers();
    let down = true;
    const store = flakyStore(() => down);
    const troubles: AuditTrouble[] = [];
    const executor = createExecutor({ tools: [order], store, audit: writeBehindAuditSink(store, { lateRecords: true, onTrouble: (_e, t) => troubles.push(t) }) });
    for (let i = 0; i < 5; i++) await executor.call({ call_id: `c${i}`, tool_name: 'order_get', args: { id: `o${i}` } }, user);
    await vi.advanceTimersByTimeAsync(400);
    expect(troubles.length).toBeGreaterThanOrEqual(2);
    expect(troubles[0]).toEqual({ records: 5, givenUp: 0, retryInMs: 100 });
    // A flush while the store refuses returns (nothing hangs a shutdown) …
    await flushAudit(store);
    expect(await store.listAudit()).toEqual([]);
    down = false;
    await vi.advanceTimersByTimeAsync(10_000);
    // … and the records are all stored once it takes batches again.
    expect((await store.listAudit()).map((r) => r.callId).sort()).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(troubles.every((t) => t.givenUp === 0)).toBe(true);
  });

  it(`gives a record up after ${AUDIT_MAX_TRIES} tries and says so`, async () => {
    vi.useFakeTimers();
    const store = flakyStore(() => true);
    const troubles: AuditTrouble[] = [];
    const executor = createExecutor({ tools: [order], store, audit: writeBehindAuditSink(store, { lateRecords: true, onTrouble: (_e, t) => troubles.push(t) }) });
    await executor.call({ call_id: 'c0', tool_name: 'order_get', args: { id: 'o0' } }, user);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(troubles).toHaveLength(AUDIT_MAX_TRIES);
    expect(troubles.at(-1)).toEqual({ records: 1, givenUp: 1, retryInMs: null });
    expect(troubles.slice(0, -1).every((t) => t.givenUp === 0 && t.retryInMs !== null)).toBe(true);
  });
});

/**
 * The gateway's write-behind audit queue and the reading of reconciliation lookups.
 */
import { describe, expect, it, vi } from 'vitest';
import { AUDIT_MAX_BATCH, AUDIT_WINDOW_MS, enqueueAudit, flushAudit, readLookup } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { AuditRecord } from '../../src/store/index.js';
import { tempDir } from './helpers.js';
import { join } from 'node:path';

const record = (i: number): AuditRecord => ({
  callId: `call_${i}`,
  tool: 'echo',
  principal: 'p',
  startedAt: new Date(1_700_000_000_000 + i).toISOString(),
  finishedAt: new Date(1_700_000_000_000 + i).toISOString(),
  status: 'succeeded',
  argsDigest: 'sha256:' + '0'.repeat(64),
  envelopeDigest: 'sha256:' + '1'.repeat(64),
  detail: { i },
});

describe('the write-behind audit queue', () => {
  it('loses no record queued before a flush, even records queued while it drains', async () => {
    const path = join(tempDir('trc-gw-aq-'), 'a.sqlite');
    const store = await openSqliteStore({ path });
    for (let i = 0; i < 300; i++) enqueueAudit(store, record(i));
    setImmediate(() => {
      for (let i = 300; i < 350; i++) enqueueAudit(store, record(i));
    });
    await new Promise((r) => setImmediate(r));
    await flushAudit(store);
    await store.close();
    const reopened = await openSqliteStore({ path });
    expect((await reopened.listAudit({ limit: 1000 })).map((r) => r.callId).sort()).toEqual(Array.from({ length: 350 }, (_, i) => `call_${i}`).sort());
    await reopened.close();
  });

  const counting = () => {
    const base = createMemoryStore();
    const batches: number[] = [];
    const store = Object.assign(Object.create(base) as typeof base, {
      async appendAuditBatch(records: readonly AuditRecord[], encodings?: Parameters<typeof base.appendAuditBatch>[1]) {
        batches.push(records.length);
        return base.appendAuditBatch(records, encodings);
      },
    });
    return { base, batches, store };
  };

  it('inserts the records of one window in one batch, without being flushed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    try {
      const { base, batches, store } = counting();
      for (let i = 0; i < 10; i++) enqueueAudit(store, record(i));
      await vi.advanceTimersByTimeAsync(AUDIT_WINDOW_MS - 1);
      expect(batches).toEqual([]);
      // Records queued later in the same window share its batch.
      for (let i = 10; i < 15; i++) enqueueAudit(store, record(i));
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([15]);
      expect(await base.listAudit({})).toHaveLength(15);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not wait for the window once a batch is full, and a flush takes whatever is queued', async () => {
    const { base, batches, store } = counting();
    for (let i = 0; i < AUDIT_MAX_BATCH + 3; i++) enqueueAudit(store, record(i));
    await new Promise((r) => setImmediate(() => setImmediate(() => setImmediate(r))));
    expect(batches).toEqual([AUDIT_MAX_BATCH + 3]);
    enqueueAudit(store, record(1000));
    await flushAudit(store);
    expect(batches).toEqual([AUDIT_MAX_BATCH + 3, 1]);
    expect(await base.listAudit({ limit: 1000 })).toHaveLength(AUDIT_MAX_BATCH + 4);
  });
});

describe('the detail text a queued record brings', () => {
  it('is made when the batch is inserted, not when the record is queued, and is what gets stored', async () => {
    const store = createMemoryStore();
    let made = 0;
    // A text that differs from JSON.stringify(detail) shows which one the store kept.
    enqueueAudit(store, record(1), () => {
      made++;
      return '{"i":1,"from":"text"}';
    });
    expect(made).toBe(0);
    await flushAudit(store);
    expect(made).toBe(1);
    expect((await store.getAudit('call_1'))?.detail).toEqual({ i: 1, from: 'text' });
  });

  it('falls back to the record itself when making the text throws, losing no record', async () => {
    const store = createMemoryStore();
    enqueueAudit(store, record(2), () => {
      throw new Error('cannot serialize');
    });
    enqueueAudit(store, record(3));
    await flushAudit(store);
    expect((await store.getAudit('call_2'))?.detail).toEqual({ i: 2 });
    expect((await store.getAudit('call_3'))?.detail).toEqual({ i: 3 });
  });
});

describe('reading a reconciliation lookup', () => {
  it('reads found, absent and unknowable answers from structured content or JSON text', () => {
    expect(readLookup({ structuredContent: { found: true, external_id: 'ch_1', committed_at: '2026-01-01T00:00:00Z' } })).toEqual({ state: 'found', external_id: 'ch_1', committed_at: '2026-01-01T00:00:00Z' });
    expect(readLookup({ content: [{ type: 'text', text: '{"found": true, "id": 42}' }] })).toEqual({ state: 'found', external_id: '42' });
    expect(readLookup({ structuredContent: { found: false } })).toEqual({ state: 'absent' });
    expect(readLookup({ structuredContent: { state: 'absent' } })).toEqual({ state: 'absent' });
  });

  it('treats errors, unreadable answers and "found" without an id as unknown', () => {
    expect(readLookup({ isError: true, content: [{ type: 'text', text: 'boom' }] }).state).toBe('unknown');
    expect(readLookup({ content: [{ type: 'text', text: 'yes it is there' }] }).state).toBe('unknown');
    expect(readLookup({ structuredContent: { found: true } }).state).toBe('unknown');
    expect(readLookup({ structuredContent: { state: 'unknown', reason: 'ledger offline' } })).toEqual({ state: 'unknown', reason: 'ledger offline' });
  });
});

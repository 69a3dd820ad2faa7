import { describe, expect, it } from 'vitest';
import { isTrcError } from '../../src/contract/index.js';
import { openResource, HANDLE_ERROR_CODES } from '../../src/budget/index.js';
import { createExecutor } from '../../src/executor/index.js';
import {
  createMemoryStore, DEFAULT_MAX_AUDIT_RECORDS, STORE_ERROR_CODES, type AuditRecord, type MemoryEviction, type Store,
} from '../../src/store/index.js';
import { readTool } from '../executor/helpers/tools.js';

const record = (n: number): AuditRecord => ({
  callId: `c${n}`, tool: 'search', principal: 'alice', startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  finishedAt: '2026-01-01T01:00:00.000Z', status: 'succeeded', argsDigest: 'sha256:aa', envelopeDigest: null, detail: { attempts: 1 },
});

/** Commit a resource of `bytes` bytes and mint a handle on it; returns the handle id. */
async function storeResult(store: Store, n: number, bytes: number): Promise<{ resource: string; handle: string }> {
  const writer = await store.createResource({ principal: 'alice', tool: 'search', mimeType: 'application/json', expiresAt: null });
  await writer.write(new Uint8Array(bytes).fill(0x61));
  const meta = await writer.commit();
  const handle = `h${n}`.padEnd(22, 'x');
  await store.putHandle({
    id: handle, kind: 'resource', principal: 'alice', tool: 'search', target: { resourceId: meta.id },
    createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2999-01-01T00:00:00.000Z',
  });
  return { resource: meta.id, handle };
}

const codeOf = (e: unknown): unknown => (isTrcError(e) ? e.code : e);

describe('how much the memory store keeps', () => {
  it('keeps the newest audit records and drops the oldest past maxAuditRecords', async () => {
    const dropped: MemoryEviction[] = [];
    const store = createMemoryStore({ maxAuditRecords: 3, onEvict: (e) => dropped.push(e) });
    for (let n = 1; n <= 4; n++) await store.appendAudit(record(n));
    expect(await store.appendAuditBatch([record(5), record(6)])).toEqual([]);
    expect((await store.listAudit()).map((r) => r.callId)).toEqual(['c4', 'c5', 'c6']);
    expect(await store.getAudit('c1')).toBeNull();
    expect(dropped).toEqual(['c1', 'c2', 'c3'].map((id) => ({ kind: 'audit', id, limit: 3 })));
  });

  it('holds at most the default number of records when given no limit', async () => {
    const dropped: string[] = [];
    const store = createMemoryStore({ onEvict: (e) => dropped.push(e.id) });
    const total = DEFAULT_MAX_AUDIT_RECORDS + 25;
    for (let n = 0; n < total; n += 500) {
      await store.appendAuditBatch(Array.from({ length: Math.min(500, total - n) }, (_, i) => record(n + i)));
    }
    expect((await store.listAudit()).length).toBe(DEFAULT_MAX_AUDIT_RECORDS);
    expect(dropped).toEqual(Array.from({ length: 25 }, (_, i) => `c${i}`));
  });

  it('keeps every record when the limit is Infinity', async () => {
    const store = createMemoryStore({ maxAuditRecords: Infinity, onEvict: () => { throw new Error('nothing may be dropped'); } });
    const total = DEFAULT_MAX_AUDIT_RECORDS + 1;
    await store.appendAuditBatch(Array.from({ length: total }, (_, i) => record(i)));
    expect((await store.listAudit()).length).toBe(total);
  });

  it('drops the oldest stored results and their handles past maxResourceBytes', async () => {
    const dropped: MemoryEviction[] = [];
    const store = createMemoryStore({ maxResourceBytes: 1000, onEvict: (e) => dropped.push(e) });
    const first = await storeResult(store, 1, 400);
    const second = await storeResult(store, 2, 400);
    const third = await storeResult(store, 3, 400);
    expect(dropped).toEqual([{ kind: 'resource', id: first.resource, limit: 1000 }]);
    expect(await store.getResourceMeta(first.resource)).toBeNull();
    expect(await store.getHandle(first.handle)).toBeNull();
    const refused = await openResource(store, first.handle, { principal: 'alice' }).catch((e: unknown) => e);
    expect(codeOf(refused)).toBe(HANDLE_ERROR_CODES.unknown);
    for (const kept of [second, third]) {
      const { meta } = await openResource(store, kept.handle, { principal: 'alice' });
      expect(meta.bytes).toBe(400);
    }
  });

  it('always keeps the newest result, even one larger than the limit alone', async () => {
    const dropped: string[] = [];
    const store = createMemoryStore({ maxResourceBytes: 100, onEvict: (e) => dropped.push(e.id) });
    const small = await storeResult(store, 1, 50);
    const big = await storeResult(store, 2, 500);
    expect(dropped).toEqual([small.resource]);
    expect((await store.getResourceMeta(big.resource))?.bytes).toBe(500);
  });

  it('stops counting results that sweepExpired removed', async () => {
    const dropped: string[] = [];
    const store = createMemoryStore({ maxResourceBytes: 1000, onEvict: (e) => dropped.push(e.id) });
    const writer = await store.createResource({ principal: 'alice', tool: 'search', mimeType: 'text/plain', expiresAt: '2026-01-01T00:00:00.000Z' });
    await writer.write(new Uint8Array(900));
    await writer.commit();
    expect(await store.sweepExpired('2026-06-01T00:00:00.000Z')).toEqual({ handles: 0, resources: 1 });
    const kept = await storeResult(store, 1, 900);
    expect(dropped).toEqual([]);
    expect(await store.getHandle(kept.handle)).not.toBeNull();
  });

  it('warns once per kind when nobody listens', async () => {
    const warnings: Error[] = [];
    const listener = (w: Error): void => { warnings.push(w); };
    process.on('warning', listener);
    try {
      const store = createMemoryStore({ maxAuditRecords: 1, maxResourceBytes: 10 });
      for (let n = 0; n < 4; n++) await store.appendAudit(record(n));
      for (let n = 0; n < 3; n++) await storeResult(store, n, 20);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', listener);
    }
    const ours = warnings.filter((w) => (w as Error & { code?: string }).code === 'TRC_MEMORY_STORE_EVICTING');
    expect(ours.map((w) => w.message)).toEqual([
      expect.stringContaining('oldest audit records (limit 1 records)'),
      expect.stringContaining('oldest stored results (limit 10 bytes)'),
    ]);
  });

  it.each([0, -1, 1.5, Number.NaN, '10', null])('refuses the limit %s with STORE_BAD_OPTIONS and its pointer', (bad) => {
    for (const name of ['maxAuditRecords', 'maxResourceBytes']) {
      let error: unknown;
      try {
        createMemoryStore({ [name]: bad } as never);
      } catch (e) {
        error = e;
      }
      expect(codeOf(error)).toBe(STORE_ERROR_CODES.badOptions);
      expect(isTrcError(error) ? error.data : undefined).toEqual({ pointer: `/${name}` });
    }
  });

  it('keeps an executor\'s newest audit records within the limit', async () => {
    const store = createMemoryStore({ maxAuditRecords: 5, onEvict: () => undefined });
    const tool = readTool(() => ({ data: { id: 'o1' } }));
    const executor = createExecutor({ tools: [tool], store });
    for (let n = 0; n < 8; n++) await executor.call({ call_id: `call_${n}`, tool_name: tool.name, args: { id: 'o1' } }, { id: 'user_1' });
    await executor.flushAudit();
    expect((await store.listAudit()).map((r) => r.callId)).toEqual(['call_3', 'call_4', 'call_5', 'call_6', 'call_7']);
  });
});

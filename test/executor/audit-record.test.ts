import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/contract/index.js';
import { createExecutor, type CallAuditDetail } from '../../src/executor/index.js';
import { createMemoryStore, type Store } from '../../src/store/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { readTool } from './helpers/tools.js';

const user = { id: 'user_1' };
const order = { id: 'o1', status: 'shipped', note: 'quotes " and \\ and ünïcode survive', items: [{ sku: 'a', qty: 2 }] };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function callOnce(store: Store) {
  const executor = createExecutor({ tools: [readTool(async () => ({ data: structuredClone(order) }))], store, clock: () => Date.parse('2026-01-01T00:00:00.000Z') });
  const env = await executor.call({ call_id: 'c1', tool_name: 'order_get', args: { id: 'o1' } }, user);
  const stored = await store.getAudit('c1');
  if (stored === null) throw new Error('no audit record');
  return { env, stored };
}

describe('audit record of a call', () => {
  it('stores the envelope exactly as returned, and its digest is the SHA-256 of that JSON', async () => {
    const { env, stored } = await callOnce(createMemoryStore());
    const detail = stored.detail as CallAuditDetail & { envelope: unknown };
    expect(detail.envelope).toEqual(env);
    expect(JSON.stringify(detail.envelope)).toBe(JSON.stringify(env));
    expect(stored.envelopeDigest).toBe('sha256:' + sha256Hex(JSON.stringify(detail.envelope)));
    expect(Object.keys(detail)).toEqual(['kind', 'call', 'execution', 'contract', 'model', 'notes', 'envelope']);
  });

  it('is not changed by later mutation of the returned envelope', async () => {
    const store = createMemoryStore();
    const { env } = await callOnce(store);
    (env.data as { status: string }).status = 'mutated';
    env.warnings.push({ code: 'LATE', message: 'added after the call' });
    const again = await store.getAudit('c1');
    const envelope = (again?.detail as { envelope: typeof env }).envelope;
    expect((envelope.data as { status: string }).status).toBe('shipped');
    expect(envelope.warnings).toEqual([]);
  });

  it('reads back the same record from the memory store and from SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trc-audit-'));
    dirs.push(dir);
    const sqlite = await openSqliteStore({ path: join(dir, 'a.db') });
    try {
      const fromMemory = (await callOnce(createMemoryStore())).stored;
      const fromSqlite = (await callOnce(sqlite)).stored;
      expect(JSON.stringify(fromMemory)).toBe(JSON.stringify(fromSqlite));
    } finally {
      await sqlite.close();
    }
  });
});

/**
 * `diagnose` (the inspector runs it for every call opened) and recovery found a call's
 * reconciliation records by listing every audit record of the tool: a busy tool's whole log was
 * read into memory for one call (60,000 records of 3 KB: 0.5 GB, 1.6 s). They are looked up by
 * their ids (`<call_id>#reconcile-<n>`) instead. Real SQLite; the store is wrapped only to see
 * which of its methods are called.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecutor, diagnose } from '../../src/executor/index.js';
import type { AuditFilter, Store } from '../../src/store/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { never, writeTool } from './helpers/tools.js';

describe('a call with reconciliations in a large log', () => {
  it('is diagnosed, and its reconciliations numbered, without listing the tool\'s records', async () => {
    const sqlite = await openSqliteStore({ path: join(mkdtempSync(join(tmpdir(), 'trc-large-log-')), 'trc.sqlite') });
    const listed: AuditFilter[] = [];
    const store: Store = { ...sqlite, listAudit: (filter) => { listed.push(filter ?? {}); return sqlite.listAudit(filter); } };
    const tool = writeTool((_a, ctx) => never(ctx), { timeoutMs: 10, reconcile: async () => ({ state: 'unknown' }) });
    const executor = createExecutor({ tools: [tool], store });
    const env = await executor.call({ call_id: 'w1', tool_name: 'refund_create', args: { id: 'o1' } }, { id: 'u' });
    expect(env.status).toBe('unknown');
    // Other calls of the same tool: the log a listing would have read.
    for (let i = 0; i < 20; i++) await executor.call({ call_id: `other_${i}`, tool_name: 'refund_create', args: { id: `x${i}` } }, { id: 'u' });
    await executor.reconcilePending();
    await executor.reconcilePending();
    const d = await diagnose('w1', store);
    expect(d?.reconciliations).toEqual([{ call_id: 'w1#reconcile-1', status: 'unknown' }, { call_id: 'w1#reconcile-2', status: 'unknown' }]);
    expect(d?.failed_layer).toBe('execution');
    expect(listed).toEqual([]);
    await sqlite.close();
  });
});

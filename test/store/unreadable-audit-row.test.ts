/**
 * One audit row whose record cannot be read (edited by hand, written by another program) must
 * not take the rest of the log with it: `listAudit` threw on it, so `trc audit`, the inspector's
 * call list and `trc diagnose` of every call of that tool failed. The row is listed as
 * `unreadable`, and diagnosing it names the pointer that cannot be read. Real SQLite.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/executor/index.js';
import { startInspector } from '../../src/inspector/index.js';
import { openSqliteDatabase, openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../helpers/cli.js';
import { readTool } from '../executor/helpers/tools.js';

describe('an audit row that cannot be read', () => {
  it('is listed as unreadable and named by pointer, and every other record stays readable', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trc-unreadable-')), 'trc.sqlite');
    const store = await openSqliteStore({ path });
    const executor = createExecutor({ tools: [readTool((a) => ({ data: { id: a.id } }))], store });
    for (const id of ['a1', 'a2', 'a3']) await executor.call({ call_id: id, tool_name: 'order_get', args: { id } }, { id: 'u' });
    await store.close();
    // The store's own driver: better-sqlite3 on Node 20, node:sqlite where that is what loads (CI's Node 22/24 lines).
    const db = openSqliteDatabase(path);
    db.prepare('UPDATE audit SET record = ? WHERE call_id = ?').run('{"callId": "a2", "truncated', 'a2');
    const a3 = JSON.parse(db.prepare('SELECT record FROM audit WHERE call_id = ?').pluck().get('a3') as string) as Record<string, unknown>;
    db.prepare('UPDATE audit SET record = ? WHERE call_id = ?').run(JSON.stringify({ ...a3, status: 5 }), 'a3');
    db.close();

    const listed = await runCli(['audit', '--store', path]);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/succeeded\s+order_get\s+u\s+\d+ms\s+a1/);
    expect(listed.stdout).toMatch(/unreadable\s+order_get\s+0ms\s+a2/);
    expect(listed.stdout).toMatch(/unreadable\s+order_get\s+0ms\s+a3/);

    // A readable call of the same tool is diagnosed (its reconciliations are looked up by tool).
    expect((await runCli(['diagnose', 'a1', '--store', path])).code).toBe(0);
    const bad = await runCli(['diagnose', 'a2', '--store', path]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("the stored row's /record is not JSON");
    expect((await runCli(['diagnose', 'a3', '--store', path])).stderr).toContain("the stored row's /record/status is not a text");

    const reopened = await openSqliteStore({ path });
    const inspector = await startInspector({ store: reopened, port: 0 });
    try {
      const res = await fetch(`http://127.0.0.1:${inspector.port}/api/calls`, { headers: { authorization: `Bearer ${inspector.token}` } });
      expect(res.status).toBe(200);
      const calls = ((await res.json()) as { calls: { call_id: string; status: string }[] }).calls;
      expect(calls.map((c) => [c.call_id, c.status])).toEqual([['a3', 'unreadable'], ['a2', 'unreadable'], ['a1', 'succeeded']]);
    } finally {
      await inspector.close();
      await reopened.close();
    }
  });
});

/**
 * A call id that comes back: the default policy holds a high-risk call until the principal
 * confirms its call id, so the confirmed run repeats the held call's id. The run that happened
 * must be recorded and explained (it was lost: the store refused a second record for the id, the
 * envelope said AUDIT_WRITE_FAILED, and `trc diagnose` said the call never ran). Real SQLite.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecutor, defineTool, diagnose, flushAudit, writeBehindAuditSink } from '../../src/executor/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../helpers/cli.js';
import { readTool } from './helpers/tools.js';

const transfer = defineTool<{ amount: number }>({
  name: 'wire_transfer',
  description: 'Send money',
  effect: 'write',
  operation: 'transfer',
  risk: 'high',
  timeoutMs: 1000,
  source: { type: 'api', id: 'bank' },
  input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'], additionalProperties: false },
  run: (args) => ({ data: { sent: args.amount }, external_id: 'tx_1' }),
});

describe('a call id recorded before', () => {
  it('explains a held call the user confirmed: the run under the same call id has its own record', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trc-repeat-')), 'trc.sqlite');
    const store = await openSqliteStore({ path });
    const executor = createExecutor({ tools: [transfer], store });
    const held = await executor.call({ call_id: 'c1', tool_name: 'wire_transfer', args: { amount: 5 } }, { id: 'u' });
    expect(held.status).toBe('needs_input');
    // Held and not yet confirmed: the call layer failed.
    expect((await diagnose('c1', store))?.failed_layer).toBe('call');
    const ran = await executor.call({ call_id: 'c1', tool_name: 'wire_transfer', args: { amount: 5 } }, { id: 'u', confirmed: ['c1'] });
    expect(ran.status).toBe('succeeded');
    expect(ran.warnings.map((w) => (typeof w === 'string' ? w : w.code))).not.toContain('AUDIT_WRITE_FAILED');

    const repeat = await store.getAudit('c1#repeat-1');
    expect(repeat?.status).toBe('succeeded');
    expect(JSON.stringify(repeat?.detail)).toContain('call id c1 was recorded before; this run is recorded as c1#repeat-1');
    const d = await diagnose('c1', store);
    expect(d?.repeats).toEqual([{ call_id: 'c1#repeat-1', status: 'succeeded' }]);
    expect(d?.layers[0]).toMatchObject({ layer: 'call', verdict: 'ok' });
    expect(d?.layers[0]?.findings.join('\n')).toMatch(/held for human confirmation[\s\S]*recorded as c1#repeat-1 \(succeeded\)/);
    expect(d?.failed_layer).toBeNull();
    // The run itself, on all four layers: a write that executed.
    const r = await diagnose('c1#repeat-1', store);
    expect(r?.layers.map((l) => `${l.layer}:${l.verdict}`)).toEqual(['call:ok', 'execution:ok', 'contract:ok', 'model:at_risk']);
    await store.close();

    const cli = await runCli(['diagnose', 'c1', '--store', path]);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('later run of the same call id c1#repeat-1: succeeded');
  });

  it('keeps every run of a call id a framework sends again, in order', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trc-repeat-')), 'trc.sqlite');
    const store = await openSqliteStore({ path });
    const executor = createExecutor({ tools: [readTool((a) => ({ data: { id: a.id } }))], store });
    for (const id of ['o1', 'o2', 'o3']) await executor.call({ call_id: 'toolu_1', tool_name: 'order_get', args: { id } }, { id: 'u' });
    const d = await diagnose('toolu_1', store);
    expect(d?.repeats.map((r) => r.call_id)).toEqual(['toolu_1#repeat-1', 'toolu_1#repeat-2']);
    const args = await Promise.all(['toolu_1', 'toolu_1#repeat-1', 'toolu_1#repeat-2'].map(async (id) => ((await store.getAudit(id))?.detail as { call: { args: unknown } }).call.args));
    expect(args).toEqual([{ id: 'o1' }, { id: 'o2' }, { id: 'o3' }]);
    await store.close();
  });

  it('keeps every run of a call id through a write-behind sink too: a confirmed write and batched reads', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trc-repeat-')), 'trc.sqlite');
    const store = await openSqliteStore({ path });
    const executor = createExecutor({ tools: [transfer, readTool((a) => ({ data: { id: a.id } }))], store, audit: writeBehindAuditSink(store) });
    await executor.call({ call_id: 'w1', tool_name: 'wire_transfer', args: { amount: 5 } }, { id: 'u' });
    const ran = await executor.call({ call_id: 'w1', tool_name: 'wire_transfer', args: { amount: 5 } }, { id: 'u', confirmed: ['w1'] });
    expect(ran.warnings.map((w) => (typeof w === 'string' ? w : w.code))).not.toContain('AUDIT_WRITE_FAILED');
    // Three reads under one id in one batch window, and one more in a later batch.
    await Promise.all(['o1', 'o2', 'o3'].map((id) => executor.call({ call_id: 'r1', tool_name: 'order_get', args: { id } }, { id: 'u' })));
    await flushAudit(store);
    await executor.call({ call_id: 'r1', tool_name: 'order_get', args: { id: 'o4' } }, { id: 'u' });
    await flushAudit(store);
    expect((await diagnose('w1', store))?.repeats).toEqual([{ call_id: 'w1#repeat-1', status: 'succeeded' }]);
    const reads = await diagnose('r1', store);
    expect(reads?.repeats.map((r) => r.call_id)).toEqual(['r1#repeat-1', 'r1#repeat-2', 'r1#repeat-3']);
    const args = await Promise.all(['r1', 'r1#repeat-1', 'r1#repeat-2', 'r1#repeat-3'].map(async (id) => ((await store.getAudit(id))?.detail as { call: { args: { id: string } } }).call.args.id));
    expect(args.sort()).toEqual(['o1', 'o2', 'o3', 'o4']);
    expect(JSON.stringify((await store.getAudit('r1#repeat-3'))?.detail)).toContain('call id r1 was recorded before; this run is recorded as r1#repeat-3');
    await store.close();
  });
});

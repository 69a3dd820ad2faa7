import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/executor/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../helpers/cli.js';
import { never, netError, readTool, writeTool } from './helpers/tools.js';

const dir = mkdtempSync(join(tmpdir(), 'trc-cli-exec-'));
const storePath = join(dir, 'trc.sqlite');
const toolsModule = join(dir, 'tools.mts');
const executorIndex = fileURLToPath(new URL('../../src/executor/index.ts', import.meta.url));
const now = new Date().toISOString();

beforeAll(async () => {
  const store = await openSqliteStore({ path: storePath });
  // Two writes left in flight by a "crashed" process, one lost response recorded as unknown.
  for (const key of ['k_found', 'k_absent']) await store.ledgerBegin({ key, tool: 'refund_create', principal: 'u1', argsDigest: 'sha256:' + '0'.repeat(64), callId: `call_${key}`, now });
  const executor = createExecutor({
    tools: [
      writeTool((_a, ctx) => never(ctx), { timeoutMs: 10 }),
      readTool(() => ({ data: { id: 'o1', status: 'shipped' } })),
      readTool(() => { throw netError('ECONNREFUSED'); }, { name: 'inventory_get' }),
    ],
    store,
  });
  await executor.call({ call_id: 'call_lost', tool_name: 'refund_create', args: { id: 'o9' }, idempotency_key: 'k_lost' }, { id: 'u1' });
  await executor.call({ call_id: 'call_ok', tool_name: 'order_get', args: { id: 'o1' } }, { id: 'u1' });
  await executor.call({ call_id: 'call_bad_args', tool_name: 'order_get', args: { order: 'o1' } }, { id: 'u1' });
  await executor.call({ call_id: 'call_down', tool_name: 'inventory_get', args: { id: 'o1' } }, { id: 'u1' });
  await store.close();
  writeFileSync(
    toolsModule,
    `import { defineTool } from ${JSON.stringify(executorIndex)};
export const tools = [defineTool({
  name: 'refund_create', description: 'Create a refund', effect: 'write', risk: 'medium', timeoutMs: 1000,
  source: { type: 'api', id: 'refunds' },
  input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  reconcile: async (key) => key === 'k_found' || key === 'k_lost' ? { state: 'found', external_id: 're_' + key } : { state: 'absent' },
  run: async () => { throw new Error('never re-sent by reconcile'); },
})];
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('trc reconcile', () => {
  it('lists pending entries without tools and exits 1 while some are pending', async () => {
    const r = await runCli(['reconcile', '--list', '--store', storePath]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('k_found');
    expect(r.stdout).toContain('k_lost');
  });

  it('refuses to reconcile without a tools module', async () => {
    const r = await runCli(['reconcile', '--store', storePath]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--tools MODULE');
  });

  it('refuses a tools module whose entries only look like tools, naming each by pointer, before touching the ledger', async () => {
    const fake = join(dir, 'fake-tools.mjs');
    writeFileSync(fake, 'export const tools = [{ name: "refund_create", reconcile: async () => ({ state: "found", external_id: "x" }) }];\n');
    const r = await runCli(['reconcile', '--tools', fake, '--store', storePath]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')[0]).toBe(`trc reconcile: --tools: ${fake}: /tools/0 ("refund_create") is not a defineTool() result: it has no compiled rules; export the results of defineTool()`);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /u);
    // Nothing was settled: the entries are still pending.
    expect((await runCli(['reconcile', '--list', '--store', storePath])).stdout).toContain('k_found');
  });

  it('settles found keys, leaves absent ones unknown, and never re-sends a write', async () => {
    const r = await runCli(['reconcile', '--tools', toolsModule, '--store', storePath, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const reports = JSON.parse(r.stdout) as { key: string; result: string; after: string; external_id: string | null }[];
    const byKey = new Map(reports.map((x) => [x.key, x]));
    expect(byKey.get('k_found')).toMatchObject({ result: 'confirmed_present', after: 'succeeded', external_id: 're_k_found' });
    expect(byKey.get('k_lost')).toMatchObject({ result: 'confirmed_present', after: 'succeeded' });
    expect(byKey.get('k_absent')).toMatchObject({ result: 'confirmed_absent', after: 'unknown' });
    const store = await openSqliteStore({ path: storePath });
    expect((await store.ledgerGet('k_found'))?.state).toBe('succeeded');
    expect((await store.ledgerGet('k_absent'))?.state).toBe('unknown');
    await store.close();
  });

  it('explains itself in --help', async () => {
    const r = await runCli(['reconcile', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--tools MODULE');
    expect(r.stdout).toContain('never re-sends a write');
  });
});

describe('trc diagnose', () => {
  it('names the call layer for arguments that broke the schema', async () => {
    const r = await runCli(['diagnose', 'call_bad_args', '--store', storePath]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('failed layer: call');
    expect(r.stdout).toContain('/order');
  });

  it('names the execution layer for a failed upstream', async () => {
    const r = await runCli(['diagnose', 'call_down', '--store', storePath, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ failed_layer: 'execution', status: 'failed' });
  });

  it('sees that a lost write was confirmed by a later reconciliation', async () => {
    const r = await runCli(['diagnose', 'call_lost', '--store', storePath, '--json']);
    const d = JSON.parse(r.stdout) as { failed_layer: string | null; reconciliations: { status: string }[]; layers: { layer: string; verdict: string; findings: string[] }[] };
    expect(d.reconciliations).toEqual([{ call_id: 'call_lost#reconcile-1', status: 'succeeded' }]);
    const execution = d.layers.find((l) => l.layer === 'execution');
    expect(execution?.verdict).toBe('ok');
    expect(execution?.findings.join(' ')).toContain('ledger now: succeeded');
  });

  it('reports no failed layer for a clean read and exits 0', async () => {
    const r = await runCli(['diagnose', 'call_ok', '--store', storePath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no layer failed');
  });

  it('exits 2 for an unknown call id', async () => {
    const r = await runCli(['diagnose', 'nope', '--store', storePath]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no audit record');
  });
});

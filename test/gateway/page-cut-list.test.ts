/**
 * A list the gateway cut to its budget is paged after the fact with `trc page`, by the cursor in
 * the envelope the client got. The gateway stores an MCP result's single JSON text block byte for
 * byte, and the cursor named the list by the envelope's pointer (/data/rows), which that text
 * does not have: `trc page` answered PAGE_NOT_A_LIST. Real gateway, official SDK client, SQLite.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../helpers/cli.js';
import { connectStdio, eventually, gatewayArgv, tempDir, type TestClient } from './helpers.js';

const SERVER = fileURLToPath(new URL('./fixtures/hostile-server.mjs', import.meta.url));
const CONFIG = fileURLToPath(new URL('./fixtures/hostile-budget.yaml', import.meta.url));
const open: TestClient[] = [];
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
});

describe('trc page over a list the gateway cut', () => {
  it('reads every page of the stored upstream list with the session principal', async () => {
    const store = join(tempDir('trc-page-gw-'), 'gw.sqlite');
    const c = await connectStdio('v1', gatewayArgv([process.execPath, SERVER], ['--config', CONFIG, '--store', store]));
    open.push(c);
    const result = await c.request('tools/call', { name: 'internal_list', arguments: {} }, { timeout: 30_000 });
    const env = (result['_meta'] as Record<string, unknown>)[ENVELOPE_META_KEY] as Envelope;
    expect(env.completeness?.state).toBe('truncated');
    const kept = (env.completeness?.trimmed ?? [])[0]?.kept as number;
    const cursor = env.completeness?.next?.value as string;
    expect(cursor).toEqual(expect.any(String));
    await c.close();
    const s = await openSqliteStore({ path: store });
    await eventually(async () => (await s.getAudit(env.call.call_id)) !== null);
    const principal = (await s.getAudit(env.call.call_id))?.principal as string;
    await s.close();

    const ids: number[] = [];
    let next: string | null = cursor;
    while (next !== null) {
      const r = await runCli(['page', next, '--principal', principal, '--store', store, '--page-size', '100', '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const page = JSON.parse(r.stdout) as Envelope;
      ids.push(...(page.data as { id: number }[]).map((row) => row.id));
      next = page.completeness?.next?.value ?? null;
    }
    // The rows the model was not shown, in order, and no more.
    expect(ids).toEqual(Array.from({ length: 300 - kept }, (_, i) => kept + i));
  });
});

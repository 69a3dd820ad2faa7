/**
 * A call an edge refused before the policy was asked (`run(…, { refused })`: a token without the
 * tool's scope, a tool pin or run the store could not give) never ran. Its diagnosis said the
 * call layer was "tool registered, arguments valid, authorized" and no layer failed, so
 * `trc diagnose` exited 0 for a failed call. Real SQLite, the CLI as a user runs it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecutor, diagnose, inProcessInvoker } from '../../src/executor/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../helpers/cli.js';
import { readTool } from './helpers/tools.js';

describe('a call refused before it ran', () => {
  it('fails at the call layer, naming the refusal, and trc diagnose exits 1', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trc-refused-')), 'trc.sqlite');
    const store = await openSqliteStore({ path });
    const tool = readTool(() => ({ data: { id: 'o1' } }));
    const executor = createExecutor({ tools: [tool], store });
    const refused = { category: 'internal', code: 'TOOL_PIN_UNAVAILABLE', message: 'the pinned definition could not be read', retryable: true, action: 'retry_later', kind: 'execution' } as const;
    const env = await executor.run(tool.rules, inProcessInvoker(tool), { call_id: 'r1', tool_name: 'order_get', args: { id: 'o1' } }, { id: 'u' }, { refused });
    expect(env.status).toBe('failed');
    const d = await diagnose('r1', store);
    expect(d?.failed_layer).toBe('call');
    expect(d?.layers[0]).toMatchObject({ layer: 'call', verdict: 'failed' });
    expect(d?.layers[0]?.findings).toEqual(['refused before it ran: internal/TOOL_PIN_UNAVAILABLE', 'not run: TOOL_PIN_UNAVAILABLE: the pinned definition could not be read']);
    await store.close();
    const cli = await runCli(['diagnose', 'r1', '--store', path]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain('failed layer: call');
  });
});

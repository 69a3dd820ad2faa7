/**
 * A secret the model put in a call's arguments is masked before the audit record is made, and
 * the diagnosis must say so at the call layer: it said nothing, so a reader of `trc diagnose`
 * could not tell a masked secret from an argument that was never sent. A held call too: its
 * call layer fails, and still names where secrets were masked. Real SQLite, the file checked.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecutor, defineTool, diagnose } from '../../src/executor/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../helpers/cli.js';

const k = (...parts: string[]) => parts.join('');
const KEY = k('sk-proj-', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z');

const deploy = defineTool<{ target: string; api_key: string; password: string }>({
  name: 'deploy', description: 'Deploy', effect: 'write', operation: 'deploy', risk: 'high', timeoutMs: 1000,
  source: { type: 'api', id: 'ci' },
  input: { type: 'object', properties: { target: { type: 'string' }, api_key: { type: 'string' }, password: { type: 'string' } }, required: ['target', 'api_key', 'password'], additionalProperties: false },
  run: () => ({ data: { deployed: true }, external_id: 'dep_1' }),
});

describe('a call whose arguments held secrets', () => {
  it('names where they were masked at the call layer, held or run, and the store never holds them', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trc-masked-args-')), 'trc.sqlite');
    const store = await openSqliteStore({ path });
    const executor = createExecutor({ tools: [deploy], store });
    const args = { target: 'prod', api_key: KEY, password: 'hunter22-very-secret' };
    expect((await executor.call({ call_id: 'd1', tool_name: 'deploy', args }, { id: 'u' })).status).toBe('needs_input');
    expect((await executor.call({ call_id: 'd2', tool_name: 'deploy', args }, { id: 'u', confirmed: ['d2'] })).status).toBe('succeeded');
    const held = await diagnose('d1', store);
    expect(held?.layers[0]).toMatchObject({ verdict: 'failed' });
    expect(held?.layers[0]?.findings).toContain('secrets masked in the recorded arguments at /api_key, /password (the store never held them)');
    const ran = await diagnose('d2', store);
    expect(ran?.layers[0]).toMatchObject({ verdict: 'ok' });
    expect(ran?.layers[0]?.findings).toContain('secrets masked in the recorded arguments at /api_key, /password (the store never held them)');
    await store.close();
    const file = readFileSync(path);
    expect(file.includes(KEY)).toBe(false);
    expect(file.includes('hunter22-very-secret')).toBe(false);
    expect((await runCli(['diagnose', 'd1', '--store', path])).stdout).toContain('secrets masked in the recorded arguments at /api_key, /password');
  });
});

/**
 * The operator's commands read the PostgreSQL store the gateways share: a `postgres://` URL in
 * --store or TRC_STORE is that store (schema TRC_PG_SCHEMA), never a file path made of the URL,
 * and the URL's password is never printed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createExecutor, defineTool } from '../../src/executor/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { runCli, runInProcess } from '../helpers/cli.js';

const url = inject('trcPgUrl') ?? process.env.TRC_PG_URL ?? '';
const schema = `trc_cli_${randomBytes(5).toString('hex')}`;
const admin = new pg.Pool({ connectionString: url, max: 1 });
afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

const lookup = defineTool({
  name: 'order_get', description: 'Look up an order', effect: 'read', risk: 'low', timeoutMs: 1000,
  source: { type: 'database', id: 'orders' },
  input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  run: async ({ id }: { id: string }) => ({ data: { id, status: 'shipped' } }),
});

describe('the CLI on a PostgreSQL store', { timeout: 120_000 }, () => {
  it('lists, explains and sweeps what a gateway recorded there, with the URL from --store or TRC_STORE', async () => {
    const store = await openPostgresStore({ connectionString: url, schema });
    const executor = createExecutor({ tools: [lookup], store });
    await executor.call({ call_id: 'call_pg_cli_1', tool_name: 'order_get', args: { id: 'o1' } }, { id: 'alice' });
    await store.close();
    const env = { TRC_PG_SCHEMA: schema };

    const listed = await runCli(['audit', '--store', url, '--json'], { env });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('call_pg_cli_1');
    const explained = await runCli(['diagnose', 'call_pg_cli_1'], { env: { ...env, TRC_STORE: url } });
    expect(explained.code).toBe(0);
    const swept = await runCli(['sweep', '--json'], { env: { ...env, TRC_STORE: url } });
    expect(swept.code).toBe(0);
    expect(JSON.parse(swept.stdout)).toMatchObject({ handles: 0, resources: 0 });
  });

  it('never makes a file out of the URL, and hides its password in errors', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'trc-pg-cli-'));
    const input = join(cwd, 'list.json');
    writeFileSync(input, JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, text: 'x'.repeat(40) }))));
    const fitted = await runInProcess(['fit', input, '--max-items', '5'], { cwd, env: { TRC_STORE: url, TRC_PG_SCHEMA: schema } });
    expect(fitted.stderr).toBe('');
    expect(fitted.code).toBe(0);
    expect(readdirSync(cwd)).toEqual(['list.json']);
    const wrong = 'postgres://trc:s3cret-pw@127.0.0.1:1/none';
    const refused = await runInProcess(['audit', '--store', wrong], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('cannot open the store postgres://trc:***@127.0.0.1:1/none');
    expect(refused.stderr).not.toContain('s3cret-pw');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'trc-sweep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('trc sweep', { timeout: 120_000 }, () => {
  it('deletes what has expired and keeps the rest, then finds nothing more', async () => {
    const path = join(dir, 'trc.sqlite');
    const store = await openSqliteStore({ path });
    const stored = async (expiresAt: string | null) => {
      const w = await store.createResource({ principal: 'alice', tool: 'export', mimeType: 'application/json', expiresAt });
      await w.write(new TextEncoder().encode('[1]'));
      return (await w.commit()).id;
    };
    const expired = await stored('2020-01-01T00:00:00Z');
    const live = await stored('2999-01-01T00:00:00Z');
    const base = { kind: 'resource' as const, principal: 'alice', tool: 'export', createdAt: '2020-01-01T00:00:00Z' };
    await store.putHandle({ ...base, id: 'h_old', target: { resourceId: expired }, expiresAt: '2020-01-01T00:00:00Z' });
    await store.putHandle({ ...base, id: 'h_new', target: { resourceId: live }, expiresAt: '2999-01-01T00:00:00Z' });
    await store.close();

    const first = await runCli(['sweep', '--store', path, '--json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ handles: 1, resources: 1 });
    const again = await runCli(['sweep'], { env: { TRC_STORE: path } });
    expect(again.stdout).toContain('deleted 0 expired handle(s) and 0 expired stored result(s)');

    const reopened = await openSqliteStore({ path });
    expect(await reopened.getResourceMeta(expired)).toBeNull();
    expect((await reopened.getResourceMeta(live))?.id).toBe(live);
    expect((await reopened.getHandle('h_new'))?.id).toBe('h_new');
    await reopened.close();
  });

  it('refuses a missing store and stray arguments with exit 2', async () => {
    const missing = await runCli(['sweep', '--store', join(dir, 'none.sqlite')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no store at');
    expect((await runCli(['sweep', 'extra', '--store', join(dir, 'none.sqlite')])).code).toBe(2);
    expect((await runCli(['sweep', '--help'])).stdout).toContain('reclaims the space');
  });
});

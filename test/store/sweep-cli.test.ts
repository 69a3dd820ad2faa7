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

  it('deletes audit records older than --audit-before only when asked, and --until lists them first', async () => {
    const path = join(dir, 'audit.sqlite');
    const store = await openSqliteStore({ path });
    const day = (d: string) => `2020-01-${d}T00:00:00.000Z`;
    for (const [id, d] of [['c1', '01'], ['c2', '02'], ['c3', '03']] as const) {
      await store.appendAudit({ callId: id, tool: 'search', principal: 'alice', startedAt: day(d), finishedAt: day(d), status: 'succeeded', argsDigest: 'sha256:aa', envelopeDigest: null, detail: {} });
    }
    await store.close();

    const kept = await runCli(['sweep', '--store', path, '--json']);
    expect(JSON.parse(kept.stdout)).toEqual({ handles: 0, resources: 0 });
    const listed = await runCli(['audit', '--store', path, '--until', '2020-01-03', '--json']);
    expect(listed.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { callId: string }).callId)).toEqual(['c1', 'c2']);

    const pruned = await runCli(['sweep', '--store', path, '--audit-before', '2020-01-03']);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain('and 2 audit record(s) of calls started before 2020-01-03T00:00:00.000Z');
    const left = await runCli(['audit', '--store', path, '--json']);
    expect(left.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { callId: string }).callId)).toEqual(['c3']);
    // A duration back from now: every record here is years old.
    expect(JSON.parse((await runCli(['sweep', '--store', path, '--audit-before', '30d', '--json'])).stdout)).toEqual({ handles: 0, resources: 0, audit: 1 });

    const bad = await runCli(['sweep', '--store', path, '--audit-before', 'last week']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--audit-before needs an RFC 3339 time with its offset');
  });

  it('deletes a large audit trail in batches and says how far it got', async () => {
    const path = join(dir, 'large.sqlite');
    const store = await openSqliteStore({ path });
    const records = Array.from({ length: 10_001 }, (_, i) => {
      const at = new Date(Date.UTC(2020, 0, 1) + i * 1000).toISOString();
      return { callId: `c${i}`, tool: 'search', principal: 'alice', startedAt: at, finishedAt: at, status: 'succeeded' as const, argsDigest: 'sha256:aa', envelopeDigest: null, detail: {} };
    });
    expect(await store.appendAuditBatch(records)).toEqual([]);
    await store.close();
    const run = await runCli(['sweep', '--store', path, '--audit-before', '2021-01-01', '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('trc sweep: 10000 audit record(s) deleted so far');
    expect(JSON.parse(run.stdout)).toEqual({ handles: 0, resources: 0, audit: 10_001 });
  });

  it('refuses a missing store and stray arguments with exit 2', async () => {
    const missing = await runCli(['sweep', '--store', join(dir, 'none.sqlite')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no store at');
    expect((await runCli(['sweep', 'extra', '--store', join(dir, 'none.sqlite')])).code).toBe(2);
    expect((await runCli(['sweep', '--help'])).stdout).toContain('reclaims the space');
  });
});

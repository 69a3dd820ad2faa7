import { sha256Hex } from '../../src/contract/index.js';
/**
 * `trc audit` lists the calls the gateway recorded, filtered by tool and time.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { connectStdio, gatewayArgv, SERVERS, tempDir } from './helpers.js';

describe('trc audit', () => {
  it('lists every call made through the gateway, with --tool, --since and --json', async () => {
    const dir = tempDir();
    const store = join(dir, 'audit.sqlite');
    const c = await connectStdio('v1', gatewayArgv(SERVERS.faulty, ['--store', store]));
    await c.request('tools/call', { name: 'echo', arguments: { message: 'one' } });
    await c.request('tools/call', { name: 'echo', arguments: { message: 'two' } });
    await c.request('tools/call', { name: 'garbage', arguments: {} });
    await c.close();

    const all = await runCli(['audit', '--store', store]);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/3 call\(s\)/);
    expect(all.stdout).toMatch(/succeeded\s+echo\s+session:/);

    const json = await runCli(['audit', '--store', store, '--tool', 'echo', '--json']);
    const records = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { tool: string; status: string; envelopeDigest: string; detail: { kind: string; edge: { upstream: string }; envelope: { data: unknown } } });
    expect(records.map((r) => r.tool)).toEqual(['echo', 'echo']);
    // The same definition as the executor's records: SHA-256 of the recorded envelope's JSON.
    for (const r of records) expect(r.envelopeDigest).toBe('sha256:' + sha256Hex(JSON.stringify(r.detail.envelope)));
    // One record shape for every edge: the executor's, with where the call came in.
    expect(records[0]?.detail.kind).toBe('trc.executor.call.v1');
    expect(records[0]?.detail.edge.upstream).toBe('faulty-server');
    expect(JSON.stringify(records[1]?.detail.envelope)).toContain('two');

    const future = await runCli(['audit', '--store', store, '--since', '2999-01-01']);
    expect(future.stdout).toContain('no recorded calls match');
    const recent = await runCli(['audit', '--store', store, '--since', '1h', '--tool', 'garbage']);
    expect(recent.stdout).toMatch(/1 call\(s\)/);

    // --last keeps the most recent calls, printed oldest first; --limit the oldest.
    const last = await runCli(['audit', '--store', store, '--last', '2', '--json']);
    expect(last.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { tool: string }).tool)).toEqual(['echo', 'garbage']);
    const first = await runCli(['audit', '--store', store, '--limit', '1', '--json']);
    expect((JSON.parse(first.stdout) as { detail: { envelope: unknown } }).detail.envelope).toBeDefined();
    expect(JSON.stringify(JSON.parse(first.stdout))).toContain('one');
    expect((await runCli(['audit', '--store', store, '--last', '2', '--limit', '1'])).code).toBe(2);
  });

  it('rejects a --since it cannot read with a usage error', async () => {
    const run = await runCli(['audit', '--store', ':memory:', '--since', 'yesterday-ish']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--since');
  });
});

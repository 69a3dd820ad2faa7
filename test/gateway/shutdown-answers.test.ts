/**
 * A gateway that shuts down (SIGTERM) with calls in flight answers them before it closes: the
 * client gets the cancelled envelope (a write's carries its idempotency key), not a silent close
 * or its own timeout. Real processes, the official SDK clients (v1, and v2 pinned to
 * 2026-07-28), stdio and Streamable HTTP.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { closedAfterAll, connectStdio, eventually, gatewayArgv, envelopeOf, tempDir, type TestClient } from './helpers.js';

const FAULTY = fileURLToPath(new URL('./fixtures/faulty-server.mjs', import.meta.url));
const dir = tempDir('trc-shutdown-');
const config = join(dir, 'gateway.yaml');
writeFileSync(config, 'defaults:\n  effect: read\n');
// `slow` declared a write: cancelled after it was sent, its outcome is unknown and the key says how to look it up.
const writes = join(dir, 'writes.yaml');
writeFileSync(writes, 'defaults:\n  effect: read\nupstreams:\n  - name: faulty\n    tools:\n      slow:\n        effect: write\n');
const open = closedAfterAll();


describe('calls in flight when the gateway shuts down', () => {
  it('are answered over stdio before the gateway exits', async () => {
    const c: TestClient = await connectStdio('v1', gatewayArgv([process.execPath, FAULTY], ['--config', config, '--store', join(dir, 'stdio.sqlite')]));
    open.push(c);
    const calls = [c.callTool('slow', { ms: 30_000 }, { timeout: 60_000 }), c.callTool('slow', { ms: 30_000 }, { timeout: 60_000 })];
    await new Promise((r) => setTimeout(r, 500));
    process.kill(c.pid() as number, 'SIGTERM');
    const answers = await Promise.all(calls);
    for (const a of answers) {
      const env = envelopeOf(a);
      expect(env.status).toBe('failed');
      expect(env.error?.code).toBe('CANCELLED');
    }
  }, 60_000);

  it('are answered over HTTP, a write with its key, before the gateway exits', async () => {
    const argv = gatewayArgv([process.execPath, FAULTY], ['--config', writes, '--http', '0', '--store', join(dir, 'http.sqlite')]);
    const proc = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    open.push({ close: async () => void proc.kill('SIGKILL') });
    let stderr = '';
    proc.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    await eventually(() => /listening on (http:\S+)/.test(stderr), 30_000);
    const url = (/listening on (http:\S+)/.exec(stderr) as RegExpExecArray)[1] as string;
    const client = new Client({ name: 'shutdown', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const write = client.callTool({ name: 'slow', arguments: { ms: 30_000 } }, undefined, { timeout: 60_000 });
    await new Promise((r) => setTimeout(r, 500));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    const env = envelopeOf((await write) as Record<string, unknown>);
    expect(env.status).toBe('unknown');
    expect(env.side_effect.idempotency_key).toEqual(expect.any(String));
    expect(await exited).toBe(0);
  }, 60_000);

  it('are answered to a 2026-07-28 client, a write with its key, before the gateway exits', async () => {
    const argv = gatewayArgv([process.execPath, FAULTY], ['--config', writes, '--http', '0', '--store', join(dir, 'http-2026.sqlite')]);
    const proc = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    open.push({ close: async () => void proc.kill('SIGKILL') });
    let stderr = '';
    proc.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    await eventually(() => /listening on (http:\S+)/.test(stderr), 30_000);
    const url = (/listening on (http:\S+)/.exec(stderr) as RegExpExecArray)[1] as string;
    const client = new ClientV2({ name: 'shutdown-2026', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new HttpV2(new URL(url)));
    // The stateless principal's session and its upstream start with its first request.
    await client.listTools();
    const write = client.callTool({ name: 'slow', arguments: { ms: 30_000 } }, { timeout: 60_000 });
    await new Promise((r) => setTimeout(r, 500));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    const env = envelopeOf((await write) as Record<string, unknown>);
    expect(env.status).toBe('unknown');
    expect(env.side_effect.idempotency_key).toEqual(expect.any(String));
    expect(await exited).toBe(0);
  }, 60_000);
});

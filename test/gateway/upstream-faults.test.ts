/**
 * Upstream faults the gateway must not misread: an upstream that answers JSON-RPC −32000 or
 * −32001 (codes the SDK also uses on its own side, for a closed connection and a timeout), and
 * a crashed upstream that many waiting calls need at once (one restart, not one each).
 * Real processes and the official SDK client.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';
import { alive, connectStdio, eventually, gatewayArgv, tempDir, type TestClient } from './helpers.js';

const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-server.mjs', import.meta.url));
const FAULTY = fileURLToPath(new URL('./fixtures/faulty-server.mjs', import.meta.url));
const dir = tempDir('trc-upstream-faults-');
const config = join(dir, 'read.yaml');
writeFileSync(config, 'defaults:\n  effect: read\n');
const open: TestClient[] = [];
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
});

async function start(server: string, env: Record<string, string> = {}): Promise<TestClient> {
  const c = await connectStdio('v1', gatewayArgv([process.execPath, server], ['--config', config, '--store', join(dir, `${open.length}.sqlite`)]), { env });
  open.push(c);
  return c;
}

describe('an upstream that answers -32000 or -32001 itself', () => {
  it.each([-32000, -32001])('relays %i as the upstream answer, not as a dropped connection or a timeout', async (code) => {
    const c = await start(HOSTILE);
    let relayed: McpError | undefined;
    try {
      await c.request('tools/call', { name: 'rpc_error_code', arguments: { code } }, { timeout: 20_000 });
    } catch (error) {
      relayed = error as McpError;
    }
    expect(relayed).toBeInstanceOf(McpError);
    expect(relayed?.code).toBe(code);
    const env = (relayed?.data as Record<string, unknown>)[ENVELOPE_META_KEY] as Envelope;
    expect(env.error).toMatchObject({ code: 'JSONRPC_SERVER_ERROR', jsonrpc_code: code, retryable: false });
  }, 60_000);
});

describe('a crashed upstream that many calls wait for', () => {
  it('is restarted once for all of them, and no extra process is left behind', async () => {
    const pids = join(dir, 'pids');
    writeFileSync(pids, '');
    const c = await start(FAULTY, { PID_FILE: pids });
    await c.callTool('crash', {}).catch(() => undefined);
    const answers = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => c.callTool('echo', { message: `e${i}` })));
    expect(answers.every((a) => a.status === 'fulfilled')).toBe(true);
    const started = readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
    // The first process and one restart.
    expect(started).toHaveLength(2);
    await c.close();
    await eventually(() => started.every((pid) => !alive(pid)));
  }, 60_000);
});

describe('a crashed upstream and the listings', () => {
  it('is restarted by a listing too, not only by a tool call', async () => {
    const c = await start(FAULTY);
    await c.callTool('crash', {}).catch(() => undefined);
    const listed = (await c.listTools())['tools'] as { name: string }[];
    expect(listed.map((t) => t.name)).toContain('echo');
  }, 60_000);
});

describe('an upstream behind a launcher that outlives it', () => {
  it('is ended with its launcher when the client leaves, and the gateway exits', async () => {
    const pids = join(dir, 'stubborn-pids');
    writeFileSync(pids, '');
    const stubborn = fileURLToPath(new URL('./fixtures/stubborn-server.mjs', import.meta.url));
    const c = await connectStdio('v1', gatewayArgv(['sh', '-c', `"${process.execPath}" "${stubborn}"; true`], ['--config', config, '--store', join(dir, 'stubborn.sqlite')]), { env: { PID_FILE: pids } });
    expect((await c.callTool('echo', { message: 'hi' }))['isError']).not.toBe(true);
    const gatewayPid = c.pid() as number;
    const server = Number(readFileSync(pids, 'utf8').trim());
    await c.close();
    await eventually(() => !alive(gatewayPid), 20_000);
    await eventually(() => !alive(server), 10_000);
  }, 60_000);
});

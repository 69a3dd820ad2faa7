/**
 * Failures around the gateway: an upstream that crashes, hangs past the deadline or writes
 * garbage to stdout, and a client that disconnects mid-call. Each yields a clear result (or a
 * clear audit record) and leaves no process behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { alive, connectStdio, eventually, gatewayArgv, SERVERS, tempDir, type TestClient } from './helpers.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const config = join(repo, 'test/gateway/fixtures/faulty.yaml');
const dir = tempDir();
const open: TestClient[] = [];
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
});

interface Env {
  status: string;
  error?: { code: string; category: string; retryable: boolean; action: string; message: string };
  reconciliation?: { required: boolean; idempotency_key?: string; query_tool?: string; query_args?: Record<string, unknown> };
  side_effect: { occurred: boolean; possibly_occurred?: boolean };
  warnings: { code: string }[];
}
function envelope(result: Record<string, unknown>): Env {
  const env = (result['_meta'] as Record<string, unknown>)[ENVELOPE_META_KEY];
  expect(validate(env).findings.filter((f) => f.severity === 'error')).toEqual([]);
  return env as Env;
}

async function gateway(name: string, flags: string[] = ['--config', config]) {
  const pidFile = join(dir, `${name}.pids`);
  const store = join(dir, `${name}.sqlite`);
  const c = await connectStdio('v1', gatewayArgv([], ['--store', store, ...flags]).slice(0, -1), { env: { PID_FILE: pidFile } });
  open.push(c);
  const upstreamPids = () => readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
  return { c, store, upstreamPids };
}

describe('an upstream that crashes mid-call', () => {
  it('gives a read a retryable CONNECTION_RESET failure (no stderr in it) and restarts the upstream for the next call', async () => {
    const { c, upstreamPids } = await gateway('crash-read');
    const result = await c.request('tools/call', { name: 'crash', arguments: {} });
    expect(result['isError']).toBe(true);
    const env = envelope(result);
    expect(env.status).toBe('failed');
    // The same code an in-process tool gets when its downstream connection drops.
    expect(env.error).toMatchObject({ code: 'CONNECTION_RESET', category: 'network', retryable: true, action: 'retry' });
    expect(env.error?.message).not.toContain('stderr');
    const [first] = upstreamPids();
    await eventually(() => !alive(first as number));
    const again = envelope(await c.request('tools/call', { name: 'echo', arguments: { message: 'back' } }));
    expect(again.error).toBeUndefined();
    expect(again.status).toBe('succeeded');
    expect(upstreamPids()).toHaveLength(2);
  });

  it('gives a write `unknown` with reconciliation by idempotency key, never a generic error', async () => {
    const { c, store } = await gateway('crash-write');
    const result = await c.request('tools/call', { name: 'charge', arguments: { amount: 5, crash_after_commit: true } });
    const env = envelope(result);
    expect(env.status).toBe('unknown');
    expect(env.error).toMatchObject({ code: 'COMMIT_STATUS_UNKNOWN', retryable: false, action: 'query_by_idempotency_key' });
    expect(env.side_effect).toMatchObject({ occurred: false, possibly_occurred: true });
    expect(env.reconciliation).toMatchObject({ required: true, query_tool: 'find_charge' });
    const key = env.reconciliation?.idempotency_key;
    expect(env.reconciliation?.query_args).toEqual({ idempotency_key: key });
    await c.close();
    const s = await openSqliteStore({ path: store });
    expect((await s.ledgerGet(key as string))?.state).toBe('unknown');
    await s.close();
  });
});

describe('an upstream that hangs past the deadline', () => {
  it('answers TIMEOUT after the configured deadline and the upstream stays usable', async () => {
    const { c } = await gateway('hang');
    // The answer is the deadline's own (a hang would end in the test's timeout instead).
    const env = envelope(await c.request('tools/call', { name: 'hang', arguments: {} }));
    expect(env.status).toBe('failed');
    expect(env.error).toMatchObject({ code: 'TIMEOUT', category: 'transport_timeout' });
    expect(envelope(await c.request('tools/call', { name: 'echo', arguments: { message: 'still here' } })).status).toBe('succeeded');
  });
});

describe('an upstream that writes garbage to stdout', () => {
  it('skips the garbage, returns the real answer and says so in a warning', async () => {
    const { c } = await gateway('garbage');
    const env = envelope(await c.request('tools/call', { name: 'garbage', arguments: {} }));
    expect(env.status).toBe('succeeded');
    expect(env.warnings.map((w) => w.code)).toContain('UPSTREAM_PROTOCOL_NOISE');
  });

  it('ends a call that gets only garbage at the deadline', async () => {
    const { c } = await gateway('only-garbage');
    const env = envelope(await c.request('tools/call', { name: 'only-garbage', arguments: {} }));
    expect(env.error?.code).toBe('TIMEOUT');
  });
});

describe('a client that disconnects mid-call', () => {
  it('records the call as cancelled by disconnection and leaves no gateway or upstream process', async () => {
    const { c, store, upstreamPids } = await gateway('disconnect');
    const gatewayPid = c.pid() as number;
    const pending = c.request('tools/call', { name: 'slow', arguments: { ms: 600_000 } }, { timeout: 120_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 500));
    await c.close();
    expect(await pending).toBeInstanceOf(Error);
    await eventually(() => !alive(gatewayPid), 15_000);
    for (const pid of upstreamPids()) await eventually(() => !alive(pid), 15_000);
    const s = await openSqliteStore({ path: store });
    const [record] = await s.listAudit({ tool: 'slow' });
    expect(record?.status).toBe('failed');
    const recorded = (record?.detail as { envelope: Env }).envelope;
    expect(recorded.error).toMatchObject({ code: 'CANCELLED', category: 'cancelled' });
    expect(recorded.error?.message).toContain('disconnected');
    await s.close();
  });
});

describe('an upstream that cannot start', () => {
  it('fails initialize with a message naming the upstream', async () => {
    await expect(connectStdio('v1', gatewayArgv([process.execPath, '-e', 'process.exit(7)'], ['--store', join(dir, 'nostart.sqlite')]))).rejects.toThrow(/upstream ".*" did not start/);
  });
});

void SERVERS;

/**
 * Side effects through the gateway (SPEC W1–W3, T4): configured writes use the idempotency
 * ledger — a repeated key replays the recorded result instead of writing twice, a key reused
 * with other arguments is refused — and tools that need confirmation are held.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import { CONFIRM_META_KEY, ENVELOPE_META_KEY, IDEMPOTENCY_META_KEY } from '../../src/gateway/index.js';
import { connectStdio, gatewayArgv, tempDir, type TestClient } from './helpers.js';

const config = fileURLToPath(new URL('./fixtures/writes.yaml', import.meta.url));
const dir = tempDir();
const countFile = join(dir, 'charges.txt');
let c: TestClient;
afterAll(async () => c?.close());

function envelope(result: Record<string, unknown>) {
  const env = (result['_meta'] as Record<string, unknown>)[ENVELOPE_META_KEY] as { status: string; side_effect: Record<string, unknown>; error?: { code: string }; call: { idempotency_key?: string } };
  expect(validate(env).findings.filter((f) => f.severity === 'error')).toEqual([]);
  return env;
}
const charges = () => readFileSync(countFile, 'utf8').trim().split('\n').filter(Boolean).length;

describe('writes through the gateway', () => {
  it('records a configured write as occurred, with its external id and idempotency key', async () => {
    c = await connectStdio('v1', gatewayArgv([], ['--store', join(dir, 'w.sqlite'), '--config', config]).slice(0, -1), { env: { COUNT_FILE: countFile } });
    const env = envelope(await c.request('tools/call', { name: 'charge', arguments: { amount: 10 }, _meta: { [IDEMPOTENCY_META_KEY]: 'order-1-payment' } }));
    expect(env.status).toBe('succeeded');
    expect(env.side_effect).toMatchObject({ occurred: true, idempotency_key: 'order-1-payment' });
    expect(String(env.side_effect['external_id'])).toMatch(/^ch_/);
    expect(charges()).toBe(1);
  });

  it('replays the recorded result for a repeated idempotency key without charging again, marked as a replay', async () => {
    const env = envelope(await c.request('tools/call', { name: 'charge', arguments: { amount: 10 }, _meta: { [IDEMPOTENCY_META_KEY]: 'order-1-payment' } }));
    expect(env.status).toBe('succeeded');
    expect((env as unknown as { warnings: { code: string }[] }).warnings.map((w) => w.code)).toContain('IDEMPOTENT_REPLAY');
    expect(env.call.idempotency_key).toBe('order-1-payment');
    expect(charges()).toBe(1);
  });

  it('refuses an idempotency key reused with other arguments with a failed envelope (as the executor does)', async () => {
    const env = envelope(await c.request('tools/call', { name: 'charge', arguments: { amount: 99 }, _meta: { [IDEMPOTENCY_META_KEY]: 'order-1-payment' } }));
    expect(env.status).toBe('failed');
    expect(env.error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(charges()).toBe(1);
  });

  it('holds a tool that requires confirmation, and runs it once confirmed', async () => {
    const held = await c.request('tools/call', { name: 'echo', arguments: { message: 'hi' } });
    const env = envelope(held);
    expect(env.status).toBe('needs_input');
    expect(env.error?.code).toBe('CONFIRMATION_REQUIRED');
    const ok = envelope(await c.request('tools/call', { name: 'echo', arguments: { message: 'hi' }, _meta: { [CONFIRM_META_KEY]: true } }));
    expect(ok.status).toBe('succeeded');
  });
});

/**
 * The store sweeper a running gateway uses to drop expired handles and stored results.
 */
import { describe, expect, it } from 'vitest';
import { startSweeper } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { eventually } from './helpers.js';

describe('the store sweeper of a running gateway', () => {
  it('sweeps at once and then on its interval, until stopped; failures are reported, not thrown', async () => {
    const store = createMemoryStore();
    const handle = (id: string, expiresAt: string) => ({ id, kind: 'cursor' as const, principal: 'p', tool: 't', target: { resourceId: 'r' }, createdAt: '2020-01-01T00:00:00Z', expiresAt });
    await store.putHandle(handle('h_old', '2020-01-01T00:00:00Z'));
    const stop = startSweeper(store, () => undefined, 20);
    await eventually(async () => (await store.getHandle('h_old')) === null, 5_000);
    await store.putHandle(handle('h_soon', new Date(Date.now() + 30).toISOString()));
    await eventually(async () => (await store.getHandle('h_soon')) === null, 5_000);
    stop();
    await store.putHandle(handle('h_after_stop', '2020-01-01T00:00:00Z'));
    await new Promise((r) => setTimeout(r, 100));
    expect((await store.getHandle('h_after_stop'))?.id).toBe('h_after_stop');

    const errors: string[] = [];
    const broken = Object.assign(Object.create(store) as typeof store, { sweepExpired: () => Promise.reject(new Error('disk gone')) });
    startSweeper(broken, (e) => errors.push(e.message), 60_000)();
    await eventually(() => errors.length === 1, 5_000);
    expect(errors).toEqual(['disk gone']);
  });
});

import { describe, expect, it } from 'vitest';
import { isTrcError, validate } from '../../src/contract/index.js';
import { assertCallIds, checkCallIds, createExecutor, defineTool } from '../../src/executor/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { never, readTool, writeTool } from './helpers/tools.js';

const user = { id: 'user_1' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('P1: call ids are correlated as sets', () => {
  it('accepts the same ids in another order', () => {
    expect(checkCallIds(['a', 'b', 'c'], ['c', 'a', 'b']).ok).toBe(true);
  });

  it('reports missing, unexpected and duplicated ids', () => {
    expect(checkCallIds(['a', 'b'], ['a'])).toMatchObject({ ok: false, missing: ['b'] });
    expect(checkCallIds(['a'], ['a', 'z'])).toMatchObject({ ok: false, unexpected: ['z'] });
    expect(checkCallIds(['a', 'b'], ['a', 'a', 'b'])).toMatchObject({ ok: false, duplicated: ['a'] });
  });

  it('throws CALL_ID_MISMATCH naming the differences, never reorders silently', () => {
    let error: unknown;
    try {
      assertCallIds(['a', 'b'], ['b', 'x']);
    } catch (e) {
      error = e;
    }
    expect(isTrcError(error, 'CALL_ID_MISMATCH')).toBe(true);
    expect((error as { data: unknown }).data).toEqual({ missing: ['a'], unexpected: ['x'], duplicated: [] });
  });

  it('refuses a batch that requests the same call id twice', async () => {
    const executor = createExecutor({ tools: [readTool(() => ({ data: { ok: 1 } }))], store: createMemoryStore() });
    await expect(executor.callAll([{ call_id: 'a', tool_name: 'order_get', args: { id: '1' } }, { call_id: 'a', tool_name: 'order_get', args: { id: '2' } }], user)).rejects.toMatchObject({ code: 'DUPLICATE_CALL_ID' });
  });
});

describe('P2: scheduling of callAll', () => {
  it('runs independent reads concurrently and returns every id with one failing', async () => {
    let active = 0;
    let peak = 0;
    const tool = readTool(async ({ id }) => {
      active++;
      peak = Math.max(peak, active);
      await sleep(15);
      active--;
      if (id === 'bad') throw new Error('boom');
      return { data: { id } };
    });
    const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
    const calls = ['a', 'b', 'bad', 'd'].map((id) => ({ call_id: `c_${id}`, tool_name: 'order_get', args: { id } }));
    const r = await executor.callAll(calls, user);
    expect(peak).toBe(4);
    expect(r.envelopes.map((e) => e.call.call_id)).toEqual(calls.map((c) => c.call_id));
    expect(r.byId.get('c_bad')?.status).toBe('failed');
    expect(r.envelopes.every((e) => validate(e).valid)).toBe(true);
  });

  it('serializes writes to the same resource and lets other resources run alongside', async () => {
    const log: string[] = [];
    const tool = writeTool(async ({ id }) => {
      log.push(`start ${id}`);
      await sleep(10);
      log.push(`end ${id}`);
      return { data: { id }, external_id: `x_${id}` };
    }, { resource: ({ id }) => `account:${id.split('-')[0]}`, timeoutMs: 1000 });
    const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
    const calls = ['A-1', 'A-2', 'B-1'].map((id) => ({ call_id: `w_${id}`, tool_name: tool.name, args: { id } }));
    await executor.callAll(calls, user);
    // A-2 starts only after A-1 ended; B-1 overlaps with A-1.
    expect(log.indexOf('start A-2')).toBeGreaterThan(log.indexOf('end A-1'));
    expect(log.indexOf('start B-1')).toBeLessThan(log.indexOf('end A-1'));
  });

  it("orders a call after the call whose result its args reference, substituting the value", async () => {
    const seen: string[] = [];
    const find = readTool(async () => {
      await sleep(10);
      return { data: { id: 'ord_42' } };
    }, { name: 'order_find' });
    const get = readTool(({ id }) => {
      seen.push(id);
      return { data: { id, status: 'shipped' } };
    });
    const executor = createExecutor({ tools: [find, get], store: createMemoryStore() });
    const r = await executor.callAll(
      [
        { call_id: 'c2', tool_name: 'order_get', args: { id: { $ref: 'c1', pointer: '/data/id' } } },
        { call_id: 'c1', tool_name: 'order_find', args: { id: 'latest' } },
      ],
      user,
    );
    expect(seen).toEqual(['ord_42']);
    expect(r.byId.get('c2')?.data).toEqual({ id: 'ord_42', status: 'shipped' });
  });

  it('gives every call an envelope when a dependency failed, a reference is unknown, or calls form a cycle', async () => {
    const failing = readTool(() => { throw new Error('down'); }, { name: 'order_find' });
    const get = readTool(({ id }) => ({ data: { id } }));
    const executor = createExecutor({ tools: [failing, get], store: createMemoryStore() });
    const r = await executor.callAll(
      [
        { call_id: 'f', tool_name: 'order_find', args: { id: 'x' } },
        { call_id: 'dep', tool_name: 'order_get', args: { id: { $ref: 'f', pointer: '/data/id' } } },
        { call_id: 'ghost', tool_name: 'order_get', args: { id: { $ref: 'nope' } } },
        { call_id: 'loop1', tool_name: 'order_get', args: { id: { $ref: 'loop2' } } },
        { call_id: 'loop2', tool_name: 'order_get', args: { id: { $ref: 'loop1' } } },
      ],
      user,
    );
    expect(r.byId.get('dep')?.error?.code).toBe('DEPENDENCY_UNAVAILABLE');
    expect(r.byId.get('ghost')?.error?.code).toBe('UNKNOWN_CALL_REFERENCE');
    expect(r.byId.get('loop1')?.error?.code).toBe('DEPENDENCY_CYCLE');
    expect(r.byId.get('loop2')?.error?.code).toBe('DEPENDENCY_CYCLE');
    expect(r.envelopes).toHaveLength(5);
    expect(r.envelopes.every((e) => validate(e).valid)).toBe(true);
  });

  it('gives cancelled and denied calls an envelope too', async () => {
    const slow = readTool((_a, ctx) => never(ctx), { name: 'slow', timeoutMs: 5000 });
    const secret = defineTool({ ...readTool(() => ({ data: { ok: 1 } }), { name: 'secret_get' }) });
    const executor = createExecutor({
      tools: [slow, secret],
      store: createMemoryStore(),
      policy: ({ tool }) => (tool.name === 'secret_get' ? { effect: 'deny', code: 'FORBIDDEN_TOOL', reason: 'not for this user' } : { effect: 'allow' }),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const r = await executor.callAll(
      [
        { call_id: 's1', tool_name: 'slow', args: { id: '1' } },
        { call_id: 'x1', tool_name: 'secret_get', args: { id: '1' } },
        { call_id: 's2', tool_name: 'slow', args: { id: '2' } },
        { call_id: 's3', tool_name: 'slow', args: { id: '3' } },
      ],
      user,
      { signal: controller.signal, concurrency: 2 },
    );
    expect(r.byId.get('s1')?.error?.category).toBe('cancelled');
    expect(r.byId.get('x1')?.error?.code).toBe('FORBIDDEN_TOOL');
    expect(r.byId.get('s2')?.error?.category).toBe('cancelled');
    // s3 never started: it waited for a slot until the batch was cancelled.
    expect(r.byId.get('s3')?.error?.message).toMatch(/before this call started/);
    expect(r.envelopes.map((e) => e.call.call_id).sort()).toEqual(['s1', 's2', 's3', 'x1']);
  });
});

import { describe, expect, it } from 'vitest';
import { validate, type Envelope } from '../../src/contract/index.js';
import { createExecutor, diagnose, toModelContext, writeBackOf, type CallAuditDetail, type EnvelopeStage } from '../../src/executor/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { never, netError, readTool, writeTool } from './helpers/tools.js';

const user = { id: 'user_1' };

describe('idempotent writes through the ledger', () => {
  it('replays the recorded envelope for a completed key without running the tool again', async () => {
    let runs = 0;
    const tool = writeTool(() => ({ data: { refund_id: `re_${++runs}` }, external_id: `re_${runs}` }));
    const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
    const first = await executor.call({ call_id: 'c1', tool_name: tool.name, args: { id: 'o1' }, scope: 'conv_1' }, user);
    const second = await executor.call({ call_id: 'c2', tool_name: tool.name, args: { id: 'o1' }, scope: 'conv_1' }, user);
    expect(runs).toBe(1);
    expect(second.call.call_id).toBe('c2');
    expect(second.side_effect.external_id).toBe(first.side_effect.external_id);
    expect(second.warnings).toContainEqual(expect.objectContaining({ code: 'IDEMPOTENT_REPLAY' }));
    expect(validate(second).valid).toBe(true);
  });

  it('refuses the same key with different arguments with IDEMPOTENCY_KEY_REUSED', async () => {
    const tool = writeTool(() => ({ data: { ok: 1 }, external_id: 're_1' }));
    const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
    await executor.call({ call_id: 'c1', tool_name: tool.name, args: { id: 'o1' }, idempotency_key: 'refund_o1' }, user);
    const env = await executor.call({ call_id: 'c2', tool_name: tool.name, args: { id: 'o2' }, idempotency_key: 'refund_o1' }, user);
    expect(env.status).toBe('failed');
    expect(env.error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(env.side_effect.occurred).toBe(false);
  });

  it("refuses another principal's key instead of replaying their result", async () => {
    const tool = writeTool(() => ({ data: { secret: 'x' }, external_id: 're_1' }));
    const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
    await executor.call({ call_id: 'c1', tool_name: tool.name, args: { id: 'o1' }, idempotency_key: 'k1' }, user);
    const env = await executor.call({ call_id: 'c2', tool_name: tool.name, args: { id: 'o1' }, idempotency_key: 'k1' }, { id: 'mallory' });
    expect(env.error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(env.data).toBeNull();
  });

  it('refuses a concurrent call on a key that is in flight', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tool = writeTool(async () => {
      await gate;
      return { data: { ok: 1 }, external_id: 're_1' };
    }, { timeoutMs: 1000 });
    const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
    const first = executor.call({ call_id: 'c1', tool_name: tool.name, args: { id: 'o1' }, idempotency_key: 'k1' }, user);
    const second = await executor.call({ call_id: 'c2', tool_name: tool.name, args: { id: 'o1' }, idempotency_key: 'k1' }, user);
    release();
    expect(second.error?.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
    // The write it asks for may still commit: unknown, to be looked up by the key, never "failed".
    expect(second).toMatchObject({ status: 'unknown', side_effect: { possibly_occurred: true, idempotency_key: 'k1' }, reconciliation: { state: 'pending', idempotency_key: 'k1' } });
    expect(validate(second).valid).toBe(true);
    expect((await first).status).toBe('succeeded');
  });

  it('runs again under the same key after a failure that never reached the downstream', async () => {
    let calls = 0;
    const keys: (string | null)[] = [];
    const tool = writeTool((_a, ctx) => {
      keys.push(ctx.idempotencyKey);
      if (++calls === 1) throw netError('ECONNREFUSED');
      return { data: { ok: 1 }, external_id: 're_1' };
    });
    const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
    const first = await executor.call({ call_id: 'c1', tool_name: tool.name, args: { id: 'o1' }, scope: 's' }, user);
    const second = await executor.call({ call_id: 'c2', tool_name: tool.name, args: { id: 'o1' }, scope: 's' }, user);
    expect(first.status).toBe('failed');
    expect(first.error?.retryable).toBe(true);
    expect(second.status).toBe('succeeded');
    expect(second.call.attempt).toBe(2);
    expect(new Set(keys).size).toBe(1);
  });

  it('retries a confirmed-absent write only on a key-honouring downstream, with the same key', async () => {
    const keys: (string | null)[] = [];
    let committed = false;
    const tool = writeTool(
      (_a, ctx) => {
        keys.push(ctx.idempotencyKey);
        if (keys.length === 1) return never(ctx);
        committed = true;
        return { data: { ok: 1 }, external_id: 're_2' };
      },
      { timeoutMs: 10, honoursKey: true, reconcile: async () => (committed ? { state: 'found', external_id: 're_2' } : { state: 'absent' }) },
    );
    const store = createMemoryStore();
    const executor = createExecutor({ tools: [tool], store });
    const env = await executor.call({ call_id: 'c1', tool_name: tool.name, args: { id: 'o1' } }, user);
    expect(env.status).toBe('succeeded');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect((await store.ledgerGet(keys[0] as string))?.state).toBe('succeeded');
  });

  it('reconciles a key left unknown before running it again', async () => {
    let mode: 'hang' | 'ok' = 'hang';
    let committed = false;
    let runs = 0;
    const tool = writeTool(
      (_a, ctx) => {
        runs++;
        if (mode === 'hang') return never(ctx);
        committed = true;
        return { data: { ok: 1 }, external_id: 're_3' };
      },
      { timeoutMs: 10, reconcile: async () => (committed ? { state: 'found', external_id: 're_3' } : { state: 'unknown' }) },
    );
    const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
    const first = await executor.call({ call_id: 'c1', tool_name: tool.name, args: { id: 'o1' }, scope: 's' }, user);
    expect(first.status).toBe('unknown');
    mode = 'ok';
    const second = await executor.call({ call_id: 'c2', tool_name: tool.name, args: { id: 'o1' }, scope: 's' }, user);
    // The lookup still cannot tell, so the tool is not run blindly a second time.
    expect(second.status).toBe('unknown');
    expect(runs).toBe(1);
  });
});

describe('state write-back (W4)', () => {
  it('writes a versioned state patch with its source and refuses a stale base version', async () => {
    let base: number | null = null;
    const tool = readTool(() => ({ data: { id: 'o1', status: 'shipped' }, state: { key: 'order:o1', baseVersion: base } }));
    const store = createMemoryStore();
    const executor = createExecutor({ tools: [tool], store });
    const first = await executor.call({ call_id: 'c1', tool_name: tool.name, args: { id: 'o1' } }, user);
    expect(first.state_patch).toMatchObject({ key: 'order:o1', base_version: null, version: 1, source: { call_id: 'c1', tool_name: 'order_get' } });
    expect((await store.getState('order:o1'))?.version).toBe(1);
    // A second step still holding the old read (base null) must not overwrite version 1.
    const stale = await executor.call({ call_id: 'c2', tool_name: tool.name, args: { id: 'o1' } }, user);
    expect(stale.state_patch).toBeUndefined();
    expect(stale.warnings).toContainEqual(expect.objectContaining({ code: 'STATE_VERSION_STALE' }));
    expect((await store.getState('order:o1'))?.source).toMatchObject({ call_id: 'c1' });
    base = 1;
    await executor.call({ call_id: 'c3', tool_name: tool.name, args: { id: 'o1' } }, user);
    expect((await store.getState('order:o1'))?.version).toBe(2);
  });
});

describe('memory candidates (W5)', () => {
  it('stores web text only as source material and a user statement as a fact', async () => {
    const web = readTool(() => ({ data: { text: 'Company X is bankrupt' }, memory: { fact: 'Company X is bankrupt', source: 'tool_observation', confidence: 'low' } }), { name: 'web_fetch' });
    const said = readTool(() => ({ data: { ok: true }, memory: { fact: 'prefers email', source: 'user_explicit_statement', confidence: 'high' } }), { name: 'profile_note' });
    const tools = [{ ...web, source: { type: 'web', id: 'https://example.com' } }, said];
    const executor = createExecutor({ tools, store: createMemoryStore() });
    const a = await executor.call({ call_id: 'c1', tool_name: 'web_fetch', args: { id: 'x' } }, user);
    const b = await executor.call({ call_id: 'c2', tool_name: 'profile_note', args: { id: 'x' } }, user);
    expect(a.memory_candidate?.decision).toBe('store_as_source_material');
    expect(b.memory_candidate?.decision).toBe('store_as_fact');
  });
});

describe('pipeline stages and L1 types', () => {
  it('runs the swappable stages in order visibility → budget → evidence → trust → present', async () => {
    const order: string[] = [];
    const stage = (name: string): EnvelopeStage => (env) => {
      order.push(name);
      return env;
    };
    const executor = createExecutor({ tools: [readTool(() => ({ data: { id: 'o1' } }))], store: createMemoryStore(), stages: { visibility: stage('visibility'), trust: stage('trust'), budget: stage('budget'), evidence: stage('evidence'), present: stage('present') } });
    await executor.call({ call_id: 'c1', tool_name: 'order_get', args: { id: 'o1' } }, user);
    expect(order).toEqual(['visibility', 'budget', 'evidence', 'trust', 'present']);
  });

  it('refreshes the digest when a stage changes the data, and replaces a stage that breaks the contract', async () => {
    const trimming: EnvelopeStage = (env) => ({ ...env, data: { id: 'trimmed' } });
    const breaking: EnvelopeStage = (env) => ({ ...env, status: 'succeeded', data: null });
    const tool = readTool(() => ({ data: { id: 'o1', note: 'long' } }));
    const store = createMemoryStore();
    const a = await createExecutor({ tools: [tool], store, stages: { budget: trimming } }).call({ call_id: 'c1', tool_name: 'order_get', args: { id: 'o1' } }, user);
    expect(validate(a).valid).toBe(true);
    expect(a.data).toEqual({ id: 'trimmed' });
    const b = await createExecutor({ tools: [tool], store, stages: { evidence: breaking } }).call({ call_id: 'c2', tool_name: 'order_get', args: { id: 'o1' } }, user);
    expect(b.status).toBe('failed');
    expect(b.error?.code).toBe('INTERNAL_CONTRACT_VIOLATION');
    const d = await diagnose('c2', store);
    expect(d?.failed_layer).toBe('contract');
  });

  it('keeps the return value, envelope, model context and write-back distinct', async () => {
    const output = { data: { id: 'o1', status: 'shipped' }, state: { key: 'order:o1', baseVersion: null } };
    const executor = createExecutor({ tools: [readTool(() => output)], store: createMemoryStore() });
    const env: Envelope = await executor.call({ call_id: 'c1', tool_name: 'order_get', args: { id: 'o1' } }, user);
    const model = toModelContext(env);
    const back = writeBackOf(env);
    expect(model).toMatchObject({ call_id: 'c1', tool_name: 'order_get', is_error: false });
    expect(model.content).toContain('shipped');
    expect(back.state_patch?.value).toEqual(output.data);
    // L2: the model-facing text is never what is written back.
    expect(JSON.stringify(back)).not.toContain(model.content);
    expect(env).not.toBe(output);
    expect('data' in model).toBe(false);
  });
});

describe('audit records (D1)', () => {
  it('records args digest, principal, timings, attempts, classification, ledger state and envelope digest', async () => {
    const store = createMemoryStore();
    const tool = writeTool(() => { throw netError('ECONNRESET'); }, { reconcile: async () => ({ state: 'found', external_id: 're_7' }) });
    const executor = createExecutor({ tools: [tool], store });
    const env = await executor.call({ call_id: 'c1', tool_name: tool.name, args: { id: 'o1' } }, user);
    const record = await store.getAudit('c1');
    expect(record).not.toBeNull();
    expect(record?.principal).toBe('user_1');
    expect(record?.argsDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(record?.envelopeDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const detail = record?.detail as CallAuditDetail;
    expect(detail.execution.attempts).toBe(1);
    expect(detail.execution.timings_ms).toHaveLength(1);
    expect(detail.execution.classification).toMatchObject({ code: 'COMMIT_STATUS_UNKNOWN' });
    expect(detail.execution.ledger_state).toBe('succeeded');
    expect(detail.execution.effect_position).toBe('executed_response_lost');
    expect(env.status).toBe('succeeded');
  });
});

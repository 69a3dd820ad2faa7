/**
 * A result nested deeper than the JavaScript stack: JSON parsing is iterative, so an upstream
 * (or a tool) can hand the executor a value that recursive walks overflow on. The call must
 * still end in one valid, audited envelope that says so — never a rejected promise, which the
 * gateway answered as `-32603 Maximum call stack size exceeded` with no audit record.
 */
import { describe, expect, it } from 'vitest';
import { validate, type Envelope } from '../../src/contract/index.js';
import { createExecutor, toolRules, type Invoker } from '../../src/executor/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { readTool } from './helpers/tools.js';

const DEPTH = 20_000;
const deep = (): unknown => JSON.parse(`${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`);

function expectWithheld(env: Envelope, status: string): void {
  expect(validate(env).findings.filter((f) => f.severity === 'error')).toEqual([]);
  expect(env.status).toBe(status);
  expect(env.error?.code).toBe('RESULT_NESTED_TOO_DEEPLY');
}

describe(`a result nested ${DEPTH} levels deep`, () => {
  it('from an in-process tool is answered with a failed, audited envelope, not a rejected call', async () => {
    const store = createMemoryStore();
    const value = deep();
    const executor = createExecutor({ tools: [readTool(() => ({ data: value as Record<string, unknown> }), { timeoutMs: 10_000 })], store });
    const env = await executor.call({ call_id: 'c_deep', tool_name: 'order_get', args: { id: 'o1' } }, { id: 'u1' });
    expectWithheld(env, 'failed');
    expect((await store.listAudit({})).map((r) => r.callId)).toEqual(['c_deep']);
  });

  it('from an MCP server is failed for a read and unknown for a write, each audited', async () => {
    const store = createMemoryStore();
    const executor = createExecutor({ store });
    const invoker: Invoker = { attempt: async () => ({ kind: 'mcp', result: { content: [{ type: 'text', text: 'deep' }], structuredContent: deep() }, server: { name: 'up', trusted: false }, sent: true }) };
    const source = { type: 'mcp' as const, id: 'up' };
    const read = await executor.run(toolRules({ name: 'deep_read', source, sourceUntrusted: true }), invoker, { call_id: 'c_read', tool_name: 'deep_read', args: {} }, { id: 'u1' });
    expectWithheld(read, 'failed');
    const write = await executor.run(toolRules({ name: 'deep_write', source, effect: 'write', sourceUntrusted: true }), invoker, { call_id: 'c_write', tool_name: 'deep_write', args: {} }, { id: 'u1' });
    expect(write.status).toBe('unknown');
    expect(write.error?.code).toBe('RESULT_NESTED_TOO_DEEPLY');
    expect(write.side_effect.possibly_occurred).toBe(true);
    expect((await store.listAudit({})).map((r) => r.callId).sort()).toEqual(['c_read', 'c_write']);
  });
});

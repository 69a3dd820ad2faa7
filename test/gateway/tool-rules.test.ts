/**
 * The gateway's per-tool configuration compiled into the executor's rules, and upstream answers
 * run through the executor's pipeline with those rules (in process, memory store, a scripted
 * upstream answer): each becomes a valid envelope and a spec-shaped MCP result.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import { toMcpResult } from '../../src/adapters/mcp/index.js';
import { createExecutor, type Outcome } from '../../src/executor/index.js';
import { toolRulesFor, type ToolPolicy } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';

const listing = { name: 'lookup', outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } };
const server = { name: 'up', trusted: false };

async function run(outcome: Outcome, policy: ToolPolicy = { effect: 'read' }, key?: string) {
  const rules = toolRulesFor({}, { name: 'up', command: 'x', tools: { lookup: policy } }, 'lookup', 'lookup', listing, 'k');
  const executor = createExecutor({ store: createMemoryStore(), clock: () => Date.parse('2026-05-01T10:00:00Z') });
  const envelope = await executor.run(rules, { attempt: async () => outcome }, { call_id: 'call_1', tool_name: 'lookup', args: {}, ...(key === undefined ? {} : { idempotency_key: key }) }, { id: 'session:a' });
  expect(validate(envelope).findings.filter((f) => f.severity === 'error')).toEqual([]);
  return envelope;
}

describe('gateway tool rules by default', () => {
  it('end a call before the 60 s an SDK client waits, so the timeout envelope reaches it', () => {
    const rules = toolRulesFor({}, { name: 'up', command: 'x' }, 'lookup', 'lookup', listing, 'k');
    expect(rules.timeoutMs).toBeLessThanOrEqual(55_000);
  });
});

describe('gateway tool rules through the pipeline', () => {
  it('wraps a structured result and renders it back with the envelope under _meta', async () => {
    const envelope = await run({ kind: 'mcp', result: { content: [{ type: 'text', text: '{"n":3}' }], structuredContent: { n: 3 } }, listing, server });
    expect(envelope).toMatchObject({ status: 'succeeded', data: { n: 3 }, side_effect: { occurred: false } });
    const result = toMcpResult(envelope, { structured: 'always' });
    expect(result.structuredContent).toEqual({ n: 3 });
    expect(result._meta?.['dev.tool-result-contract/envelope']).toEqual(envelope);
  });

  it('fails a result whose structured content breaks the output schema, with the same code as an in-process tool', async () => {
    const envelope = await run({ kind: 'mcp', result: { content: [], structuredContent: { n: 'three' } }, listing, server });
    expect(envelope.status).toBe('failed');
    expect(envelope.error?.code).toBe('OUTPUT_SCHEMA_MISMATCH');
    expect(toMcpResult(envelope).isError).toBe(true);
  });

  it('marks text that contradicts the structured content as not citable (E7)', async () => {
    const envelope = await run({ kind: 'mcp', result: { content: [{ type: 'text', text: '{"n":4}' }], structuredContent: { n: 3 } }, listing, server });
    expect(envelope.citable).toBe(false);
  });

  it('turns a timeout of a configured write into unknown with reconciliation naming the configured lookup', async () => {
    const envelope = await run({ kind: 'timeout', afterMs: 100, sent: true }, { effect: 'write', reconcile: { tool: 'find', args: { key: '$key' } } }, 'k1');
    expect(envelope).toMatchObject({ status: 'unknown', reconciliation: { required: true, idempotency_key: 'k1', query_tool: 'find', query_args: { key: 'k1' } } });
  });

  it('reports a result the upstream sent in the wrong shape as a protocol failure', async () => {
    const envelope = await run({ kind: 'mcp', result: { content: 'not a list' }, listing, server, issues: [{ pointer: '/content', message: 'Expected array' }] });
    expect(envelope.status).toBe('failed');
    expect(envelope.error?.category).toBe('protocol');
  });
});

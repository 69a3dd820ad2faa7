/**
 * The gateway's result pipeline in-process (memory store): upstream results and the outcomes
 * without a result each become a valid envelope and a spec-shaped MCP result.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import { runResultPipeline, resolveToolPolicy, type PipelineContext, type ToolPolicy } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';

function ctx(overrides: Partial<PipelineContext> = {}, policy: ToolPolicy = {}): PipelineContext {
  return {
    call: { tool_name: 'lookup', call_id: 'call_1', attempt: 1 },
    upstream: 'up',
    trusted: false,
    upstreamTool: 'lookup',
    tool: { name: 'lookup', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
    policy: resolveToolPolicy({}, { name: 'up', command: 'x', tools: { lookup: { effect: 'read', ...policy } } }, 'lookup', undefined),
    principal: 'session:a',
    idempotencyKey: null,
    store: createMemoryStore(),
    handleTtlSeconds: 60,
    now: () => new Date('2026-05-01T10:00:00Z'),
    noise: 0,
    ...overrides,
  };
}

describe('runResultPipeline', () => {
  it('wraps a structured result and renders it back with the envelope under _meta', async () => {
    const { envelope, result } = await runResultPipeline({ kind: 'result', result: { content: [{ type: 'text', text: '{"n":3}' }], structuredContent: { n: 3 } } }, ctx());
    expect(validate(envelope).valid).toBe(true);
    expect(envelope).toMatchObject({ status: 'succeeded', data: { n: 3 }, side_effect: { occurred: false } });
    expect(result.structuredContent).toEqual({ n: 3 });
    expect(result._meta?.['dev.tool-result-contract/envelope']).toEqual(envelope);
  });

  it('fails a result whose structured content breaks the output schema', async () => {
    const { envelope, result } = await runResultPipeline({ kind: 'result', result: { content: [], structuredContent: { n: 'three' } } }, ctx());
    expect(envelope.status).toBe('failed');
    expect(envelope.error?.code).toBe('MCP_OUTPUT_SCHEMA_VIOLATION');
    expect(result.isError).toBe(true);
  });

  it('marks text that contradicts the structured content as not citable (E7)', async () => {
    const { envelope } = await runResultPipeline({ kind: 'result', result: { content: [{ type: 'text', text: '{"n":4}' }], structuredContent: { n: 3 } } }, ctx());
    expect(envelope.citable).toBe(false);
  });

  it('turns a timeout of a configured write into unknown with reconciliation', async () => {
    const c = ctx({ idempotencyKey: 'k1', policy: resolveToolPolicy({}, { name: 'up', command: 'x', tools: { lookup: { effect: 'write', reconcile: { tool: 'find', args: { key: '$key' } } } } }, 'lookup', undefined) });
    const { envelope } = await runResultPipeline({ kind: 'timeout', afterMs: 100 }, c);
    expect(validate(envelope).valid).toBe(true);
    expect(envelope).toMatchObject({ status: 'unknown', reconciliation: { required: true, idempotency_key: 'k1', query_tool: 'find', query_args: { key: 'k1' } } });
  });

  it('reports a result the upstream sent in the wrong shape as a protocol failure', async () => {
    const { envelope } = await runResultPipeline({ kind: 'result', result: { content: 'not a list' } }, ctx());
    expect(validate(envelope).valid).toBe(true);
    expect(envelope.status).toBe('failed');
    expect(envelope.error?.category).toBe('protocol');
  });
});

/**
 * OpenTelemetry: one span per call from the pipeline (GenAI semantic conventions for tool
 * execution), with the contract's verdict as attributes and retries and reconciliation as
 * events; the gateway links the client's trace context and passes its own upstream.
 */
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/executor/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { never, readTool, writeTool } from './helpers/tools.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const user = { id: 'user_1' };

beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  trace.disable();
  await provider.shutdown();
});
beforeEach(() => exporter.reset());

const only = (): ReadableSpan => {
  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
};

describe('call spans', () => {
  it('records a read as one execute_tool span with the contract’s verdict', async () => {
    const executor = createExecutor({ tools: [readTool(() => ({ data: { order_id: 'o1', status: 'shipped' } }))], store: createMemoryStore() });
    const env = await executor.call({ call_id: 'call_r1', tool_name: 'order_get', args: { id: 'o1' } }, user);
    expect(env.status).toBe('succeeded');
    const span = only();
    expect(span.name).toBe('execute_tool order_get');
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'order_get',
      'gen_ai.tool.call.id': 'call_r1',
      'trc.status': 'succeeded',
      'trc.completeness': 'complete',
      'trc.untrusted.count': 0,
      'trc.untrusted.instructional.count': 0,
      'trc.side_effect.occurred': false,
      'trc.side_effect.operation': 'read',
      'trc.attempts': 1,
    });
    expect(span.events).toEqual([]);
  });

  it('records a write that hung, was reconciled and resent as retry and reconciliation events', async () => {
    let runs = 0;
    let committed = false;
    const tool = writeTool(
      (_a, ctx) => {
        runs++;
        if (runs === 1) return never(ctx);
        committed = true;
        return { data: { ok: 1 }, external_id: 're_9' };
      },
      { timeoutMs: 10, honoursKey: true, reconcile: async () => (committed ? { state: 'found', external_id: 're_9' } : { state: 'absent' }) },
    );
    const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
    const env = await executor.call({ call_id: 'call_w1', tool_name: tool.name, args: { id: 'o1' } }, user);
    expect(env.status).toBe('succeeded');
    const span = only();
    expect(span.attributes).toMatchObject({ 'gen_ai.tool.call.id': 'call_w1', 'trc.status': 'succeeded', 'trc.side_effect.occurred': true, 'trc.attempts': 2 });
    expect(span.events.map((e) => e.name)).toContain('trc.retry');
    expect(span.events.find((e) => e.name === 'trc.retry')?.attributes).toEqual({ 'trc.attempt': 2 });
  });

  it('records a write left unknown with its reconciliation state, as an error span', async () => {
    const tool = writeTool((_a, ctx) => never(ctx), { timeoutMs: 10, reconcile: async () => ({ state: 'unknown' }) });
    const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
    const env = await executor.call({ call_id: 'call_w2', tool_name: tool.name, args: { id: 'o2' } }, user);
    expect(env.status).toBe('unknown');
    const span = only();
    const state = env.reconciliation?.state;
    expect(state).toBeDefined();
    expect(span.attributes['trc.reconciliation.state']).toBe(state);
    const event = span.events.find((e) => e.name === 'trc.reconciliation');
    expect(event?.attributes?.['trc.reconciliation.state']).toBe(state);
    expect(span.status.code).toBe(2);
    expect(span.attributes['error.type']).toBe(env.error?.code);
  });

  it('hands the span’s traceparent to the invoker, so the call downstream is its child', async () => {
    let seen: string | undefined;
    const executor = createExecutor({ tools: [readTool((_a, ctx) => { seen = ctx.traceparent; return { data: { ok: 1 } }; })], store: createMemoryStore() });
    await executor.call({ call_id: 'call_r2', tool_name: 'order_get', args: { id: 'o1' } }, user);
    const span = only();
    expect(seen).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });
});

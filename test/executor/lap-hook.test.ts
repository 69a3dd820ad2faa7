import { describe, expect, it } from 'vitest';
import { createExecutor, defineTool, type PipelineSegment } from '../../src/executor/index.js';
import { createMemoryStore } from '../../src/store/index.js';

const tool = defineTool({
  name: 'order_get',
  description: 'Look up an order',
  effect: 'read',
  risk: 'low',
  timeoutMs: 1000,
  source: { type: 'database', id: 'orders' },
  input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  run: async ({ id }: { id: string }) => ({ data: { id, status: 'shipped' } }),
});

describe('the lap hook', () => {
  it('names every segment of a read call once, in pipeline order', async () => {
    const laps: PipelineSegment[] = [];
    const executor = createExecutor({ tools: [tool], store: createMemoryStore(), lap: (s) => laps.push(s) });
    const env = await executor.call({ call_id: 'c1', tool_name: 'order_get', args: { id: 'o1' } }, { id: 'u1' });
    expect(env.status).toBe('succeeded');
    expect(laps).toEqual(['prepare', 'args', 'policy', 'invoke', 'classify', 'visibility', 'budget', 'evidence', 'trust', 'present', 'finalize', 'audit-record', 'audit-sink']);
  });

  it('still ends with the audit on a call refused at its arguments', async () => {
    const laps: PipelineSegment[] = [];
    const executor = createExecutor({ tools: [tool], store: createMemoryStore(), lap: (s) => laps.push(s) });
    const env = await executor.call({ call_id: 'c2', tool_name: 'order_get', args: { id: 7 } }, { id: 'u1' });
    expect(env.status).toBe('failed');
    expect(laps[0]).toBe('prepare');
    expect(laps).not.toContain('invoke');
    expect(laps.slice(-2)).toEqual(['audit-record', 'audit-sink']);
  });
});

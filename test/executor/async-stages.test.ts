import { describe, expect, it } from 'vitest';
import { createExecutor, type EnvelopeStage, type Policy } from '../../src/executor/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { readTool } from './helpers/tools.js';

const user = { id: 'user_1' };
const later = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 1));

describe('stages and policies that answer asynchronously', () => {
  it('awaits each asynchronous stage in order and uses what it resolves to', async () => {
    const order: string[] = [];
    const stage = (name: string): EnvelopeStage => async (env) => {
      order.push(`${name}:start`);
      const out = await later({ ...env, warnings: [...env.warnings, { code: `SEEN_BY_${name.toUpperCase()}`, message: name }] });
      order.push(`${name}:end`);
      return out;
    };
    const executor = createExecutor({ tools: [readTool(() => ({ data: { id: 'o1' } }))], store: createMemoryStore(), stages: { visibility: stage('visibility'), trust: stage('trust'), budget: stage('budget'), evidence: stage('evidence'), present: stage('present') } });
    const env = await executor.call({ call_id: 'c1', tool_name: 'order_get', args: { id: 'o1' } }, user);
    expect(order).toEqual(['visibility:start', 'visibility:end', 'budget:start', 'budget:end', 'evidence:start', 'evidence:end', 'trust:start', 'trust:end', 'present:start', 'present:end']);
    expect(env.warnings.map((w) => (typeof w === 'string' ? w : w.code))).toEqual(['SEEN_BY_VISIBILITY', 'SEEN_BY_BUDGET', 'SEEN_BY_EVIDENCE', 'SEEN_BY_TRUST', 'SEEN_BY_PRESENT']);
    expect(env.status).toBe('succeeded');
  });

  it('honours a deny from a policy that answers through a promise', async () => {
    let ran = false;
    const policy: Policy = () => later({ effect: 'deny', code: 'NOT_TODAY', reason: 'closed for the day' });
    const executor = createExecutor({ tools: [readTool(() => { ran = true; return { data: { id: 'o1' } }; })], store: createMemoryStore(), policy });
    const env = await executor.call({ call_id: 'c1', tool_name: 'order_get', args: { id: 'o1' } }, user);
    expect(ran).toBe(false);
    expect(env.status).toBe('failed');
    expect(env.error?.code).toBe('NOT_TODAY');
  });
});

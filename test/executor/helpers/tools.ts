/**
 * Small real tools for executor tests: their behaviour is a function the test passes in.
 */
import { defineTool, type ToolContext, type ToolOutput } from '../../../src/executor/index.js';

export type Behaviour = (args: { id: string }, ctx: ToolContext) => Promise<ToolOutput> | ToolOutput;

const input = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false } as const;

export function readTool(behaviour: Behaviour, extra: { name?: string; timeoutMs?: number; output?: Record<string, unknown>; risk?: 'low' | 'medium' | 'high' } = {}) {
  return defineTool({
    name: extra.name ?? 'order_get',
    description: 'Look up an order',
    effect: 'read',
    risk: extra.risk ?? 'low',
    timeoutMs: extra.timeoutMs ?? 50,
    source: { type: 'database', id: 'orders.primary' },
    input: { ...input },
    ...(extra.output === undefined ? {} : { output: extra.output }),
    run: behaviour,
  });
}

export function writeTool(
  behaviour: Behaviour,
  extra: { name?: string; timeoutMs?: number; reconcile?: (key: string) => Promise<{ state: 'found'; external_id: string } | { state: 'absent' } | { state: 'unknown' }>; honoursKey?: boolean; resource?: (a: { id: string }) => string } = {},
) {
  return defineTool({
    name: extra.name ?? 'refund_create',
    description: 'Create a refund',
    effect: 'write',
    operation: 'refund',
    risk: 'medium',
    timeoutMs: extra.timeoutMs ?? 50,
    honoursKey: extra.honoursKey ?? false,
    source: { type: 'api', id: 'refunds' },
    input: { ...input },
    ...(extra.reconcile === undefined ? {} : { reconcile: extra.reconcile }),
    ...(extra.resource === undefined ? {} : { resource: extra.resource }),
    run: behaviour,
  });
}

export const never = (ctx: ToolContext) => new Promise<never>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));

export const netError = (code: string) => Object.assign(new Error(`${code} (injected)`), { code });
export const httpError = (status: number, headers: Record<string, string> = {}) => Object.assign(new Error(`HTTP ${status}`), { status, headers });

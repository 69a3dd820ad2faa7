/**
 * Type tests (checked by `npm run typecheck` in CI; the runtime assertions are the same facts
 * seen from JavaScript): the wrappers keep the user's types.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { jsonSchema, tool, type Tool } from 'ai';
import type { CallToolResult as SdkV1CallToolResult, Tool as SdkV1Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult as SdkV2CallToolResult, Tool as SdkV2Tool } from '@modelcontextprotocol/client';
import type { Envelope } from '../../src/contract/index.js';
import { RunContext } from '@openai/agents';
import { z } from 'zod';
import { envelopeTools } from '../../src/adapters/ai-sdk/index.js';
import { envelopeTool as agentsEnvelopeTool } from '../../src/adapters/openai-agents/index.js';
import { fromMcpResult } from '../../src/adapters/mcp/index.js';

const orderInput = jsonSchema<{ order_id: string }>({ type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] });

describe('type-preserving wrappers', () => {
  it('envelopeTools keeps each tool’s input type and answers envelopes', () => {
    const order_get = tool({ inputSchema: orderInput, execute: async ({ order_id }) => ({ order_id, status: 'shipped' as const }) });
    const confirm = tool({ inputSchema: jsonSchema<{ ok: boolean }>({ type: 'object' }), outputSchema: jsonSchema<{ n: number }>({ type: 'object' }) });
    const wrapped = envelopeTools({ order_get, confirm });
    const typed: Tool<{ order_id: string }, Envelope> = wrapped.order_get;
    // @ts-expect-error: the input type is kept, so it is no tool of another input
    const other: Tool<{ sku: number }, Envelope> = wrapped.order_get;
    void [typed, other];
    expect(wrapped.confirm).toBe(confirm);
    // @ts-expect-error: no such tool in the set
    void wrapped.refund;
    type ExecuteInput = Parameters<NonNullable<typeof wrapped.order_get.execute>>[0];
    expectTypeOf<ExecuteInput>().toEqualTypeOf<{ order_id: string }>();
    expect(Object.keys(wrapped)).toEqual(['order_get', 'confirm']);
  });

  it('the Agents SDK wrapper takes the SDK’s approval function (typed by the parameters), isEnabled and guardrails', async () => {
    const pay = agentsEnvelopeTool({
      name: 'pay', description: 'Pay', parameters: z.object({ amount: z.number() }), operation: 'pay',
      needsApproval: async (_context, { amount }) => {
        expectTypeOf(amount).toEqualTypeOf<number>();
        return amount > 100;
      },
      isEnabled: ({ runContext }) => runContext !== undefined,
      inputGuardrails: [],
      outputGuardrails: [],
      execute: async ({ amount }) => ({ amount }),
    });
    expect(await pay.needsApproval(new RunContext({}), { amount: 500 }, 'call_1')).toBe(true);
    expect(await pay.needsApproval(new RunContext({}), { amount: 5 }, 'call_2')).toBe(false);
  });

  it('fromMcpResult takes a v1 or a v2 SDK CallToolResult and tool, without a cast', () => {
    const v2: SdkV2CallToolResult = { content: [{ type: 'text', text: 'ok' }] };
    const v2Tool: SdkV2Tool = { name: 'echo', inputSchema: { type: 'object' } };
    const v1: SdkV1CallToolResult = { content: [{ type: 'text', text: 'ok' }] };
    const v1Tool: SdkV1Tool = { name: 'echo', inputSchema: { type: 'object' } };
    const server = { name: 'echo-server' };
    const a = fromMcpResult(v2, v2Tool, { call_id: 'c2', server });
    const b = fromMcpResult(v1, v1Tool, { call_id: 'c1', server });
    expectTypeOf(a).toEqualTypeOf<Envelope>();
    expect([a.status, b.status]).toEqual(['succeeded', 'succeeded']);
  });
});

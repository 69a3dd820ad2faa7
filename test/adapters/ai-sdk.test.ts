import { describe, expect, it } from 'vitest';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { validate, type Envelope } from '../../src/contract/index.js';
import { envelopeTool, envelopeTools } from '../../src/adapters/ai-sdk/index.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls both tools in parallel, then answers; it records every prompt it got. */
function scriptedModel(prompts: LanguageModelV3CallOptions['prompt'][]) {
  return new MockLanguageModelV3({
    doGenerate: async (options): Promise<LanguageModelV3GenerateResult> => {
      prompts.push(options.prompt);
      if (prompts.length === 1) {
        return {
          content: [
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'order_get', input: JSON.stringify({ order_id: 'ord_1001' }) },
            { type: 'tool-call', toolCallId: 'call_2', toolName: 'refund_create', input: JSON.stringify({ order_id: 'ord_1001' }) },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
}

const input = jsonSchema<{ order_id: string }>({ type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'], additionalProperties: false });

describe('Vercel AI SDK wrapper', () => {
  it('turns an existing tool’s results and errors into envelopes the model reads through toModelOutput', async () => {
    const seen: Envelope[] = [];
    const orderGet = tool({ description: 'Get an order', inputSchema: input, execute: async ({ order_id }) => ({ order_id, status: 'shipped' }) });
    const refundCreate = tool({
      description: 'Refund an order',
      inputSchema: input,
      execute: async (): Promise<{ refund_id: string }> => {
        throw Object.assign(new Error('refund window closed'), { status: 409 });
      },
    });
    const prompts: LanguageModelV3CallOptions['prompt'][] = [];
    const result = await generateText({
      model: scriptedModel(prompts),
      tools: { order_get: envelopeTool('order_get', orderGet, { onEnvelope: (e) => seen.push(e) }), refund_create: envelopeTool('refund_create', refundCreate, { onEnvelope: (e) => seen.push(e) }) },
      prompt: 'Where is ord_1001? Refund it.',
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('done');
    const byId = new Map(seen.map((e) => [e.call.call_id, e]));
    expect(byId.get('call_1')).toMatchObject({ status: 'succeeded', data: { order_id: 'ord_1001', status: 'shipped' }, call: { tool_name: 'order_get' } });
    expect(byId.get('call_2')).toMatchObject({ status: 'failed', error: { category: 'conflict', http_status: 409 } });
    for (const e of seen) expect(validate(e).valid).toBe(true);

    const toolMessage = prompts[1]?.find((m) => m.role === 'tool');
    const parts = (toolMessage?.content ?? []) as unknown as Array<{ type: string; toolCallId: string; output: { type: string; value: { status: string } } }>;
    const outputs = Object.fromEntries(parts.map((p) => [p.toolCallId, p.output]));
    expect(outputs['call_1']).toMatchObject({ type: 'json', value: { status: 'succeeded', call_id: 'call_1' } });
    expect(outputs['call_2']).toMatchObject({ type: 'error-json', value: { status: 'failed', error: { code: 'HTTP_CONFLICT' } } });
  });

  it('wraps a whole tool set and keeps tools without execute as they are', () => {
    const withExecute = tool({ inputSchema: input, execute: async () => 1 });
    const clientSide = tool({ inputSchema: input, outputSchema: jsonSchema<{ n: number }>({ type: 'object' }) });
    const wrapped = envelopeTools({ a: withExecute, b: clientSide });
    expect(wrapped.b).toBe(clientSide);
    expect(wrapped.a).not.toBe(withExecute);
    expect(typeof wrapped.a?.toModelOutput).toBe('function');
  });
});

import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import OpenAI from 'openai';
import { zodFunction } from 'openai/helpers/zod';
import type { ChatCompletionMessageParam, ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { z } from 'zod';
import { isTrcError, validate } from '../../src/contract/index.js';
import { checkStrictSchema, STRICT_RULES, toChatToolMessage, toChatToolMessages, toFunctionCallOutput, toFunctionCallOutputs } from '../../src/adapters/openai/index.js';
import { startCaptureServer, type CaptureServer } from './helpers/capture-server.js';
import { cancelled, denied, refused, shipped } from './fixtures/envelopes.js';

let capture: CaptureServer;
let client: OpenAI;
beforeAll(async () => {
  capture = await startCaptureServer();
  client = new OpenAI({ apiKey: 'sk-test', baseURL: `${capture.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await capture.close();
});

const ids = ['call_a', 'call_b', 'call_c', 'call_d'];
const all = [denied, refused, shipped, cancelled]; // completion order, not request order

describe('OpenAI Chat Completions tool messages', () => {
  it('renders one tool message per call id in request order, including cancelled and denied calls', () => {
    const msgs = toChatToolMessages(ids, all);
    expect(msgs.map((m) => m.tool_call_id)).toEqual(ids);
    const statuses = msgs.map((m) => (JSON.parse(m.content as string) as { status: string }).status);
    expect(statuses).toEqual(['succeeded', 'failed', 'failed', 'failed']);
    const codes = msgs.map((m) => (JSON.parse(m.content as string) as { error?: { code: string } }).error?.code);
    expect(codes).toEqual([undefined, 'REFUND_WINDOW_CLOSED', 'CALL_CANCELLED', 'CALL_DENIED']);
    for (const e of all) expect(validate(e).valid).toBe(true);
  });

  it('refuses a batch whose envelopes do not answer exactly the requested ids', () => {
    for (const [reqIds, envs] of [
      [ids, [shipped, refused, cancelled]],
      [ids.slice(0, 2), [shipped, refused, cancelled]],
      [ids.slice(0, 2), [shipped, shipped, refused]],
    ] as const) {
      let thrown: unknown;
      try {
        toChatToolMessages(reqIds, envs);
      } catch (e) {
        thrown = e;
      }
      expect(isTrcError(thrown, 'BATCH_MISMATCH')).toBe(true);
    }
  });

  it('is accepted by the official SDK client in a chat.completions.create request', async () => {
    expectTypeOf(toChatToolMessage(shipped)).toEqualTypeOf<ChatCompletionToolMessageParam>();
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Where is order ord_1001, and refund it?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: ids.map((id) => ({ id, type: 'function' as const, function: { name: 'x', arguments: '{}' } })),
      },
      ...toChatToolMessages(ids, all),
    ];
    const res = await client.chat.completions.create({ model: 'gpt-test', messages });
    expect(res.choices[0]?.message.content).toBe('ok');
    const sent = capture.bodies.at(-1) as { messages: Array<{ role: string; tool_call_id?: string }> };
    expect(sent.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(ids);
  });
});

describe('OpenAI Responses function_call_output items', () => {
  it('carries status and error inside the output, one item per call id', () => {
    const items = toFunctionCallOutputs(ids, all);
    expect(items.map((i) => [i.type, i.call_id])).toEqual(ids.map((id) => ['function_call_output', id]));
    expect(JSON.parse(items[1]?.output as string)).toMatchObject({ status: 'failed', error: { code: 'REFUND_WINDOW_CLOSED', retryable: false } });
  });

  it('is accepted by the official SDK client in a responses.create request', async () => {
    expectTypeOf(toFunctionCallOutput(shipped)).toExtend<ResponseInputItem>();
    const input: ResponseInputItem[] = [
      ...ids.map((id) => ({ type: 'function_call' as const, call_id: id, name: 'x', arguments: '{}' })),
      ...toFunctionCallOutputs(ids, all),
    ];
    const res = await client.responses.create({ model: 'gpt-test', input });
    expect(res.id).toBe('resp_1');
    const sent = capture.bodies.at(-1) as { input: Array<{ type: string; call_id: string }> };
    expect(sent.input.filter((i) => i.type === 'function_call_output').map((i) => i.call_id)).toEqual(ids);
  });
});

describe('checkStrictSchema', () => {
  it('accepts the strict schema the official SDK helper generates', () => {
    const tool = zodFunction({ name: 'order_get', parameters: z.object({ order_id: z.string(), include_items: z.boolean().nullable(), tags: z.array(z.object({ k: z.string() })) }) });
    expect(tool.function.strict).toBe(true);
    expect(checkStrictSchema(tool.function.parameters)).toEqual([]);
  });

  it('reports every violation with the pointer of the schema node', () => {
    const findings = checkStrictSchema({
      type: 'object',
      properties: {
        order_id: { type: 'string', minLength: 3 },
        include_items: { type: 'boolean' },
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        choice: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['order_id', 'address', 'choice'],
    });
    expect(findings.map((f) => [f.rule, f.pointer])).toEqual(
      expect.arrayContaining([
        [STRICT_RULES.ADDITIONAL_PROPERTIES, ''],
        [STRICT_RULES.NOT_REQUIRED, '/properties/include_items'],
        [STRICT_RULES.UNSUPPORTED_KEYWORD, '/properties/order_id/minLength'],
        [STRICT_RULES.ADDITIONAL_PROPERTIES, '/properties/address'],
        [STRICT_RULES.UNSUPPORTED_KEYWORD, '/properties/choice/oneOf'],
      ]),
    );
    expect(findings).toHaveLength(5);
  });

  it('rejects a root that is not an object and looks into $defs and array items', () => {
    const findings = checkStrictSchema({
      anyOf: [{ type: 'object', properties: {}, additionalProperties: false, required: [] }],
      $defs: { item: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false } },
    });
    expect(findings.map((f) => f.pointer)).toEqual(expect.arrayContaining(['', '/$defs/item/properties/a']));
    expect(checkStrictSchema('nope')[0]?.rule).toBe(STRICT_RULES.NOT_A_SCHEMA);
  });
});

/**
 * OpenAI wire formats (SPEC I2): a Chat Completions `tool` message and a Responses
 * `function_call_output` item per call id. Neither has an error flag, so status, error,
 * completeness and evidence ids travel inside the output text (the contract's model view).
 */
import type { ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type { Envelope } from '../../contract/index.js';
import { assertRenderable, renderBatch, renderModelText } from '../shared/index.js';

/** A Responses API `function_call_output` input item. */
export type FunctionCallOutputItem = ResponseInputItem.FunctionCallOutput;

/**
 * The Chat Completions `tool` message answering `env.call.call_id`.
 * @example messages.push(toChatToolMessage(env)); // { role: 'tool', tool_call_id: 'call_1', content: '{...}' }
 */
export function toChatToolMessage(env: Envelope): ChatCompletionToolMessageParam {
  assertRenderable(env);
  return { role: 'tool', tool_call_id: env.call.call_id, content: renderModelText(env) };
}

/**
 * The Responses API `function_call_output` item answering `env.call.call_id`.
 * @example input.push(toFunctionCallOutput(env)); // { type: 'function_call_output', call_id: 'call_1', output: '{...}' }
 */
export function toFunctionCallOutput(env: Envelope): FunctionCallOutputItem {
  assertRenderable(env);
  return { type: 'function_call_output', call_id: env.call.call_id, output: renderModelText(env) };
}

/**
 * One `tool` message per requested call id, in request order (P1). Throws
 * `TrcError('BATCH_MISMATCH')` when the envelopes do not answer exactly the requested ids.
 * @example toChatToolMessages(assistant.tool_calls.map((c) => c.id), envelopes)
 */
export function toChatToolMessages(callIds: readonly string[], envelopes: readonly Envelope[]): ChatCompletionToolMessageParam[] {
  return renderBatch(callIds, envelopes, toChatToolMessage);
}

/**
 * One `function_call_output` item per requested call id, in request order (P1).
 * @example toFunctionCallOutputs(calls.map((c) => c.call_id), envelopes)
 */
export function toFunctionCallOutputs(callIds: readonly string[], envelopes: readonly Envelope[]): FunctionCallOutputItem[] {
  return renderBatch(callIds, envelopes, toFunctionCallOutput);
}

/**
 * LangChain.js 1 (SPEC I4): a `tool()` whose function is the user's own, declared with
 * `responseFormat: 'content_and_artifact'` — the model reads the contract's view as the
 * ToolMessage content; the whole envelope rides along as the message's artifact, which
 * LangChain keeps out of the model context. A failed call's ToolMessage has `status: 'error'`.
 */
import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { InferInteropZodInput, InferInteropZodOutput, InteropZodObject } from '@langchain/core/utils/types';
import { randomUUID } from 'node:crypto';
import type { Envelope } from '../../contract/index.js';
import { envelopeFromThrown, envelopeFromValue, isErrorStatus, renderModelText, type OutcomeOptions } from '../shared/index.js';

/** Fields of {@link envelopeTool}: the usual tool fields plus the envelope options. */
export interface EnvelopeToolFields<SchemaT extends InteropZodObject> extends OutcomeOptions {
  readonly name: string;
  readonly description?: string;
  readonly schema: SchemaT;
  /** Called with every envelope produced, e.g. to audit or store it. */
  readonly onEnvelope?: (env: Envelope) => void;
}

/**
 * Create a LangChain tool that emits envelopes as artifacts.
 * @example
 * const orderGet = envelopeTool(async ({ order_id }) => db.orders.get(order_id),
 *   { name: 'order_get', description: 'Get an order', schema: z.object({ order_id: z.string() }) });
 * const msg = await orderGet.invoke({ type: 'tool_call', id: 'call_1', name: 'order_get', args: { order_id: 'o1' } });
 * msg.artifact // the envelope
 */
export function envelopeTool<SchemaT extends InteropZodObject>(
  func: (input: InferInteropZodOutput<SchemaT>, config?: ToolRunnableConfig) => unknown,
  fields: EnvelopeToolFields<SchemaT>,
): DynamicStructuredTool<SchemaT, InferInteropZodOutput<SchemaT>, InferInteropZodInput<SchemaT>, [string | ToolMessage, Envelope]> {
  const { name, description, schema, onEnvelope, ...outcome } = fields;
  const run = async (input: InferInteropZodOutput<SchemaT>, config?: ToolRunnableConfig): Promise<[string | ToolMessage, Envelope]> => {
    const toolCallId = config?.toolCall?.id;
    const call = { tool_name: name, call_id: toolCallId ?? `local_${randomUUID()}` };
    let env: Envelope;
    try {
      env = envelopeFromValue(await func(input, config), call, outcome);
    } catch (err) {
      env = envelopeFromThrown(err, call, outcome);
    }
    onEnvelope?.(env);
    const text = renderModelText(env);
    // content_and_artifact always yields status "success"; a ready ToolMessage keeps the error flag.
    if (toolCallId !== undefined && isErrorStatus(env)) {
      return [new ToolMessage({ content: text, artifact: env, tool_call_id: toolCallId, name, status: 'error' }), env];
    }
    return [text, env];
  };
  return new DynamicStructuredTool<SchemaT, InferInteropZodOutput<SchemaT>, InferInteropZodInput<SchemaT>, [string | ToolMessage, Envelope]>({
    name,
    description: description ?? `${name} tool`,
    schema,
    responseFormat: 'content_and_artifact',
    func: (input, _runManager, config) => run(input, config),
  });
}

/**
 * LangChain.js 1 (SPEC I4): a `tool()` whose function is the user's own, run through the
 * executor's pipeline, declared with `responseFormat: 'content_and_artifact'` — the model reads
 * the pipeline's model text as the ToolMessage content; the whole envelope rides along as the
 * message's artifact, which LangChain keeps out of the model context. A failed call's
 * ToolMessage has `status: 'error'`.
 */
import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type BaseDynamicToolInput, type ToolRunnableConfig } from '@langchain/core/tools';
import type { InferInteropZodInput, InferInteropZodOutput, InteropZodObject } from '@langchain/core/utils/types';
import { randomUUID } from 'node:crypto';
import type { Envelope } from '../../contract/index.js';
import { FOLLOW_TOOL_NAME, type Invoker, type ToolRules } from '../../executor/index.js';
import { followParts, frameworkInvoker, frameworkRules, isErrorStatus, renderModelText, runFrameworkCall, splitWrapperOptions, withInputSchema, type WrapperOptions } from '../shared/index.js';

/** LangChain's own tool fields, passed to the tool unchanged. */
type LangChainFields = Pick<BaseDynamicToolInput, 'returnDirect' | 'verboseParsingErrors' | 'tags' | 'metadata' | 'callbacks' | 'verbose'>;

/** Fields of {@link envelopeTool}: the usual tool fields plus the pipeline's rules (see `WrapperOptions`). */
export interface EnvelopeToolFields<SchemaT extends InteropZodObject> extends WrapperOptions, LangChainFields {
  readonly name: string;
  readonly description?: string;
  readonly schema: SchemaT;
}

type Output = [string | ToolMessage, Envelope];

function runner(name: string, rules: ToolRules | (() => Promise<ToolRules>), invokerFor: (config?: ToolRunnableConfig) => Invoker, options: WrapperOptions) {
  return async (input: unknown, config?: ToolRunnableConfig): Promise<Output> => {
    const toolCallId = config?.toolCall?.id;
    const env = await runFrameworkCall(name, typeof rules === 'function' ? await rules() : rules, invokerFor(config), input, toolCallId ?? `local_${randomUUID()}`, options, 'langchain', config?.signal);
    const text = renderModelText(env);
    // content_and_artifact always yields status "success"; a ready ToolMessage keeps the error flag.
    if (toolCallId !== undefined && isErrorStatus(env)) {
      return [new ToolMessage({ content: text, artifact: env, tool_call_id: toolCallId, name, status: 'error' }), env];
    }
    return [text, env];
  };
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
): DynamicStructuredTool<SchemaT, InferInteropZodOutput<SchemaT>, InferInteropZodInput<SchemaT>, Output> {
  const { name, description, schema, ...others } = fields;
  // Wrapper options go to the pipeline; LangChain's own fields (returnDirect, tags, …) to the tool.
  const { wrapper: options, rest } = splitWrapperOptions(others);
  // The schema as JSON Schema (LangChain's own converter), read at the first call.
  const rulesOf = withInputSchema(frameworkRules(name, options), options, async () => (await import('@langchain/core/utils/json_schema')).toJsonSchema(schema));
  // The function gets the pipeline's signal in its config: it fires at the deadline as well as
  // when the caller aborts, so a timed-out call stops instead of finishing unseen.
  const run = runner(name, rulesOf, (config) => frameworkInvoker(async (args, signal) => func(args as InferInteropZodOutput<SchemaT>, { ...config, signal }), options), options);
  return new DynamicStructuredTool<SchemaT, InferInteropZodOutput<SchemaT>, InferInteropZodInput<SchemaT>, Output>({
    ...(rest as LangChainFields),
    name,
    description: description ?? `${name} tool`,
    schema,
    responseFormat: 'content_and_artifact',
    func: (input, _runManager, config) => run(input, config),
  });
}

/** Input of the follow tool, as JSON Schema (LangChain validates it like a Zod schema). */
const FOLLOW_SCHEMA = {
  type: 'object',
  properties: { ref: { type: 'string' }, offset: { type: ['integer', 'null'] } },
  required: ['ref', 'offset'],
  additionalProperties: false,
} as const;
type FollowInput = { ref: string; offset: number | null };

/**
 * The tool a model uses to follow a `trc://resource/…` link or a `completeness.next` cursor of
 * an enveloped tool's result. Use the same `store`/`executor` and `principal` options as the
 * tools it follows. Its answers go through the pipeline too.
 * @example const tools = [orderSearch, followTool({ store })];
 */
export function followTool(options: WrapperOptions = {}): DynamicStructuredTool<typeof FOLLOW_SCHEMA, FollowInput, FollowInput, Output> {
  const { rules, invoker, description } = followParts(options);
  const run = runner(FOLLOW_TOOL_NAME, rules, () => invoker, options);
  return new DynamicStructuredTool<typeof FOLLOW_SCHEMA, FollowInput, FollowInput, Output>({
    name: FOLLOW_TOOL_NAME,
    description,
    schema: FOLLOW_SCHEMA,
    responseFormat: 'content_and_artifact',
    func: (input, _runManager, config) => run(input, config),
  });
}

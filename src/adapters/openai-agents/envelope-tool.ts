/**
 * OpenAI Agents SDK 0.14 (SPEC I4): a drop-in for `tool()` whose `execute` is the user's own,
 * unchanged, run through the executor's pipeline. The wrapper catches what it throws (before the
 * SDK turns errors into plain strings, which would hide a failure as a result — X4), builds the
 * envelope for the model's call id, and returns the pipeline's model text as the tool output.
 */
import { randomUUID } from 'node:crypto';
import { tool, type FunctionTool, type RunContext, type ToolExecuteArgument, type ToolOptions as SdkToolOptions } from '@openai/agents';
import { FOLLOW_TOOL_NAME, type Invoker, type ToolRules } from '../../executor/index.js';
import { followParts, frameworkInvoker, frameworkRules, renderModelText, runFrameworkCall, splitWrapperOptions, withInputSchema, type WrapperOptions } from '../shared/index.js';

type ToolOptions = Parameters<typeof tool>[0];
/** Parameter schemas the SDK accepts: a Zod object or a JSON schema object. */
export type ToolParameters = NonNullable<ToolOptions['parameters']>;
type ToolCallDetails = { toolCall?: { callId?: string }; signal?: AbortSignal };
/** A field of the SDK's own `tool()` options for parameters `P`, passed to the SDK unchanged. */
type SdkField<P extends ToolParameters, K extends 'isEnabled' | 'inputGuardrails' | 'outputGuardrails'> = SdkToolOptions<P>[K];

/** Options of {@link envelopeTool}: the common `tool()` options plus the pipeline's rules (see `WrapperOptions`). */
export interface EnvelopeToolOptions<P extends ToolParameters, R> extends WrapperOptions {
  readonly name: string;
  readonly description: string;
  readonly parameters: P;
  /** Strict schema mode (default true, as in the SDK). */
  readonly strict?: boolean;
  /** Whether a call waits for a human's approval: a boolean, or the SDK's function of the call's input. */
  readonly needsApproval?: boolean | ((runContext: RunContext, input: ToolExecuteArgument<P>, callId?: string) => Promise<boolean>);
  /** Whether the tool is offered to the model in a run: a boolean, or the SDK's function of the run. */
  readonly isEnabled?: SdkField<P, 'isEnabled'>;
  /** The SDK's guardrails that check a call before it runs. */
  readonly inputGuardrails?: SdkField<P, 'inputGuardrails'>;
  /** The SDK's guardrails that check the output (the model text of the envelope) after it runs. */
  readonly outputGuardrails?: SdkField<P, 'outputGuardrails'>;
  /** The tool's own function, unchanged. */
  readonly execute: (input: ToolExecuteArgument<P>, context?: RunContext<unknown>, details?: ToolCallDetails) => R | Promise<R>;
}

function runner(name: string, rules: ToolRules | (() => Promise<ToolRules>), invokerFor: (context?: RunContext<unknown>, details?: ToolCallDetails) => Invoker, options: WrapperOptions) {
  return async (input: unknown, context?: RunContext<unknown>, details?: ToolCallDetails): Promise<string> => {
    const env = await runFrameworkCall(name, typeof rules === 'function' ? await rules() : rules, invokerFor(context, details), input, details?.toolCall?.callId ?? `local_${randomUUID()}`, options, 'openai-agents', details?.signal);
    return renderModelText(env);
  };
}

/**
 * Create an Agents SDK function tool that emits envelopes.
 * @example
 * const orderGet = envelopeTool({
 *   name: 'order_get', description: 'Get an order', parameters: z.object({ order_id: z.string() }),
 *   execute: async ({ order_id }) => db.orders.get(order_id),
 * });
 * const agent = new Agent({ name: 'support', tools: [orderGet, followTool()] });
 */
export function envelopeTool<P extends ToolParameters, R>(options: EnvelopeToolOptions<P, R>): FunctionTool<unknown, P, string> {
  const { execute, ...others } = options;
  const { wrapper, rest } = splitWrapperOptions(others);
  const name = options.name;
  // The SDK turns the parameters (Zod or JSON Schema) into the tool's JSON Schema: read it at the first call.
  const rulesOf = withInputSchema(frameworkRules(name, wrapper), wrapper, () => created.parameters);
  // The tool gets the pipeline's signal in `details`: it fires at the deadline as well as when
  // the run is cancelled, so a timed-out call stops instead of finishing unseen.
  const run = runner(name, rulesOf, (context, details) => frameworkInvoker(async (args, signal) => execute(args as ToolExecuteArgument<P>, context, { ...details, signal }), wrapper), wrapper);
  // The SDK's option type is a strict/non-strict union keyed on the schema kind; the fields
  // passed here are common to both.
  const created = tool({ ...rest, execute: run } as unknown as ToolOptions) as unknown as FunctionTool<unknown, P, string>;
  return created;
}

/**
 * The tool a model uses to follow a `trc://resource/…` link or a `completeness.next` cursor of
 * an enveloped tool's result. Use the same `store`/`executor` and `principal` options as the
 * tools it follows. Its answers go through the pipeline too.
 * @example new Agent({ name: 'support', tools: [search, followTool({ store })] })
 */
export function followTool(options: WrapperOptions = {}): FunctionTool<unknown, ToolParameters, string> {
  const { rules, invoker, description } = followParts(options);
  const run = runner(FOLLOW_TOOL_NAME, rules, () => invoker, options);
  const parameters = {
    type: 'object',
    properties: { ref: { type: 'string' }, offset: { type: ['integer', 'null'] } },
    required: ['ref', 'offset'],
    additionalProperties: false,
  };
  return tool({ name: FOLLOW_TOOL_NAME, description, parameters, strict: true, execute: run } as unknown as ToolOptions) as unknown as FunctionTool<unknown, ToolParameters, string>;
}

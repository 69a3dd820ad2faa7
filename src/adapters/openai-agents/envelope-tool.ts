/**
 * OpenAI Agents SDK 0.14 (SPEC I4): a drop-in for `tool()` whose `execute` is the user's own,
 * unchanged. The wrapper catches what it throws (before the SDK turns errors into plain
 * strings, which would hide a failure as a result — X4), builds the envelope for the model's
 * call id, and returns the contract's model view as the tool output.
 */
import { randomUUID } from 'node:crypto';
import { tool, type FunctionTool, type RunContext, type ToolExecuteArgument } from '@openai/agents';
import type { Envelope } from '../../contract/index.js';
import { envelopeFromThrown, envelopeFromValue, renderModelText, type OutcomeOptions } from '../shared/index.js';

type ToolOptions = Parameters<typeof tool>[0];
/** Parameter schemas the SDK accepts: a Zod object or a JSON schema object. */
export type ToolParameters = NonNullable<ToolOptions['parameters']>;
type ToolCallDetails = { toolCall?: { callId?: string } };

/** Options of {@link envelopeTool}: the common `tool()` options plus the envelope options. */
export interface EnvelopeToolOptions<P extends ToolParameters, R> extends OutcomeOptions {
  readonly name: string;
  readonly description: string;
  readonly parameters: P;
  /** Strict schema mode (default true, as in the SDK). */
  readonly strict?: boolean;
  readonly needsApproval?: boolean;
  /** The tool's own function, unchanged. */
  readonly execute: (input: ToolExecuteArgument<P>, context?: RunContext<unknown>, details?: ToolCallDetails) => R | Promise<R>;
  /** Called with every envelope produced, e.g. to audit or store it. */
  readonly onEnvelope?: (env: Envelope) => void;
}

/**
 * Create an Agents SDK function tool that emits envelopes.
 * @example
 * const orderGet = envelopeTool({
 *   name: 'order_get', description: 'Get an order', parameters: z.object({ order_id: z.string() }),
 *   execute: async ({ order_id }) => db.orders.get(order_id),
 * });
 * const agent = new Agent({ name: 'support', tools: [orderGet] });
 */
export function envelopeTool<P extends ToolParameters, R>(options: EnvelopeToolOptions<P, R>): FunctionTool<unknown, P, string> {
  const { execute, onEnvelope, source_type, source_id, operation, now, ...rest } = options;
  const outcome: OutcomeOptions = {
    ...(source_type === undefined ? {} : { source_type }),
    ...(source_id === undefined ? {} : { source_id }),
    ...(operation === undefined ? {} : { operation }),
    ...(now === undefined ? {} : { now }),
  };
  const wrapped = async (input: ToolExecuteArgument<P>, context?: RunContext<unknown>, details?: ToolCallDetails): Promise<string> => {
    const call = { tool_name: rest.name, call_id: details?.toolCall?.callId ?? `local_${randomUUID()}` };
    let env: Envelope;
    try {
      env = envelopeFromValue(await execute(input, context, details), call, outcome);
    } catch (err) {
      env = envelopeFromThrown(err, call, outcome);
    }
    onEnvelope?.(env);
    return renderModelText(env);
  };
  // The SDK's option type is a strict/non-strict union keyed on the schema kind; the fields
  // passed here are common to both.
  return tool({ ...rest, execute: wrapped } as unknown as ToolOptions) as unknown as FunctionTool<unknown, P, string>;
}

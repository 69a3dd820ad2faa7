/**
 * Vercel AI SDK 6 (SPEC I4): wrap an existing `tool()` so its `execute` yields an envelope and
 * `toModelOutput` hands the model the contract's view of it — `json` for results, `error-json`
 * for failures, so providers flag the error (e.g. Anthropic `is_error`). The tool's input
 * schema, description and approval settings are untouched.
 */
import type { Tool, ToolExecutionOptions } from 'ai';
import type { Envelope } from '../../contract/index.js';
import { envelopeFromThrown, envelopeFromValue, isErrorStatus, modelView, type OutcomeOptions } from '../shared/index.js';

/** What `toModelOutput` returns (the `ai` package does not re-export the type by name). */
export type ModelOutput = Awaited<ReturnType<NonNullable<Tool<unknown, Envelope>['toModelOutput']>>>;

/** Options of {@link envelopeTool}. */
export interface EnvelopeToolOptions extends OutcomeOptions {
  /** Called with every envelope produced, e.g. to audit or store it. */
  readonly onEnvelope?: (env: Envelope) => void;
}

/**
 * The model output of an envelope, for a `toModelOutput` of your own.
 * @example toModelOutput: ({ output }) => envelopeModelOutput(output)
 */
export function envelopeModelOutput(env: Envelope): ModelOutput {
  return isErrorStatus(env) ? { type: 'error-json', value: modelView(env) } : { type: 'json', value: modelView(env) };
}

/**
 * Wrap an AI SDK tool: its output becomes an envelope answering the tool call id.
 * @example
 * const tools = { order_get: envelopeTool('order_get', tool({ description, inputSchema, execute })) };
 * await generateText({ model, tools, prompt });
 */
export function envelopeTool<INPUT, OUTPUT>(name: string, original: Tool<INPUT, OUTPUT>, options: EnvelopeToolOptions = {}): Tool<INPUT, Envelope> {
  const execute = original.execute;
  if (execute === undefined) {
    throw new TypeError(`tool "${name}" has no execute function to wrap`);
  }
  const { outputSchema: _output, toModelOutput: _model, ...rest } = original as Tool<INPUT, OUTPUT> & { outputSchema?: unknown };
  const wrapped: Tool<INPUT, Envelope> = {
    ...(rest as Omit<Tool<INPUT, Envelope>, 'execute' | 'toModelOutput'>),
    execute: async (input: INPUT, opts: ToolExecutionOptions): Promise<Envelope> => {
      const call = { tool_name: name, call_id: opts.toolCallId };
      let env: Envelope;
      try {
        env = envelopeFromValue(await lastValue(execute(input, opts)), call, options);
      } catch (err) {
        env = envelopeFromThrown(err, call, options);
      }
      options.onEnvelope?.(env);
      return env;
    },
    toModelOutput: ({ output }: { output: Envelope }) => envelopeModelOutput(output),
  } as Tool<INPUT, Envelope>;
  return wrapped;
}

/**
 * Wrap every tool of a tool set (tools without `execute` are left as they are).
 * @example await generateText({ model, tools: envelopeTools({ order_get, refund_create }), prompt })
 */
export function envelopeTools<K extends string>(tools: Record<K, Tool>, options: EnvelopeToolOptions = {}): Record<K, Tool> {
  const out = {} as Record<K, Tool>;
  for (const name of Object.keys(tools) as K[]) {
    const t = tools[name];
    out[name] = t.execute === undefined ? t : envelopeTool(name, t, options);
  }
  return out;
}

/** A streaming execute yields preliminary results; the last one is the result. */
async function lastValue<T>(produced: AsyncIterable<T> | PromiseLike<T> | T): Promise<T | undefined> {
  if (produced !== null && typeof produced === 'object' && Symbol.asyncIterator in produced) {
    let last: T | undefined;
    for await (const v of produced as AsyncIterable<T>) last = v;
    return last;
  }
  return await produced;
}

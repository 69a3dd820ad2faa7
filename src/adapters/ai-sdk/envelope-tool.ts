/**
 * Vercel AI SDK 6 (SPEC I4): wrap an existing `tool()` so each call runs through the executor's
 * pipeline (budget, isolation, visibility, masking, classification, write path, audit) and
 * `toModelOutput` hands the model the pipeline's model text — `json` for results, `error-json`
 * for failures, so providers flag the error (e.g. Anthropic `is_error`). The tool's input
 * schema, description and approval settings are untouched.
 */
import { asSchema, jsonSchema, type Tool, type ToolExecutionOptions } from 'ai';
import { TrcError, type Envelope } from '../../contract/index.js';
import { FOLLOW_TOOL_NAME } from '../../executor/index.js';
import { assertRenderable, followParts, frameworkInvoker, frameworkRules, isErrorStatus, modelView, runFrameworkCall, withInputSchema, type WrapperOptions } from '../shared/index.js';

/** What `toModelOutput` returns (the `ai` package does not re-export the type by name). */
export type ModelOutput = Awaited<ReturnType<NonNullable<Tool<unknown, Envelope>['toModelOutput']>>>;

/** Options of {@link envelopeTool}: rules for the pipeline (see `WrapperOptions`). */
export type EnvelopeToolOptions = WrapperOptions;

/**
 * The model output of an envelope, for a `toModelOutput` of your own.
 * @example toModelOutput: ({ output }) => envelopeModelOutput(output)
 */
export function envelopeModelOutput(env: Envelope): ModelOutput {
  assertRenderable(env);
  return isErrorStatus(env) ? { type: 'error-json', value: modelView(env) } : { type: 'json', value: modelView(env) };
}

/**
 * Wrap an AI SDK tool: its output becomes an envelope answering the tool call id.
 * @example
 * const tools = { order_get: envelopeTool('order_get', tool({ description, inputSchema, execute })), trc_follow: followTool() };
 * await generateText({ model, tools, prompt });
 */
export function envelopeTool<INPUT, OUTPUT>(name: string, original: Tool<INPUT, OUTPUT>, options: EnvelopeToolOptions = {}): Tool<INPUT, Envelope> {
  const execute = original.execute;
  if (execute === undefined) {
    throw new TypeError(`tool "${name}" has no execute function to wrap`);
  }
  // The input schema as JSON Schema (a Zod schema converted by the SDK), read at the first call.
  const rulesOf = withInputSchema(frameworkRules(name, options), options, () => asSchema(original.inputSchema).jsonSchema);
  const { outputSchema: _output, toModelOutput: _model, ...rest } = original as Tool<INPUT, OUTPUT> & { outputSchema?: unknown };
  const wrapped: Tool<INPUT, Envelope> = {
    ...(rest as Omit<Tool<INPUT, Envelope>, 'execute' | 'toModelOutput'>),
    execute: async (input: INPUT, opts: ToolExecutionOptions): Promise<Envelope> => {
      const invoker = frameworkInvoker((args, signal) => lastValue(execute(args as INPUT, { ...opts, abortSignal: signal })), options);
      return runFrameworkCall(name, await rulesOf(), invoker, input, opts.toolCallId, options, 'ai-sdk', opts.abortSignal);
    },
    toModelOutput: ({ output }: { output: Envelope }) => envelopeModelOutput(output),
  } as Tool<INPUT, Envelope>;
  return wrapped;
}

/**
 * The tool set {@link envelopeTools} returns: each tool keeps its input type and answers an
 * {@link Envelope}. (A tool without `execute`, answered by the client, is returned unchanged at
 * run time; the AI SDK's `Tool` type cannot tell such a tool apart, so it is typed alike.)
 */
export type EnvelopeToolSet<T extends Record<string, Tool>> = {
  [K in keyof T]: T[K] extends Tool<infer INPUT, infer _OUTPUT> ? Tool<INPUT, Envelope> : never;
};

/**
 * Wrap every tool of a tool set (tools without `execute` are left as they are). `options` apply
 * to every tool; `perTool` adds or overrides options for some of them by name — a write, a
 * high-risk tool, its own budget. A framework tool is a low-risk read unless told otherwise, so
 * a tool that changes the world needs its `operation` here.
 * @example envelopeTools({ read_mail, send_money }, { executor, run }, { send_money: { operation: 'transfer', risk: 'high' } })
 */
export function envelopeTools<T extends Record<string, Tool>>(tools: T, options: EnvelopeToolOptions = {}, perTool: { readonly [K in keyof T]?: EnvelopeToolOptions } = {}): EnvelopeToolSet<T> {
  // A misspelt name would silently leave a write undeclared.
  const unknownNames = Object.keys(perTool).filter((name) => !Object.hasOwn(tools, name));
  if (unknownNames.length > 0) {
    throw new TrcError('TOOL_DEFINITION_INVALID', `envelopeTools: perTool names no tool of the set: ${unknownNames.join(', ')}`, { data: { pointer: `/${unknownNames[0] as string}`, unknown: unknownNames } });
  }
  const out: Record<string, Tool> = {};
  for (const name of Object.keys(tools)) {
    const t = tools[name] as Tool;
    const own = perTool[name as keyof T];
    out[name] = t.execute === undefined ? t : envelopeTool(name, t, own === undefined ? options : { ...options, ...own });
  }
  return out as EnvelopeToolSet<T>;
}

/**
 * The tool a model uses to follow a `trc://resource/…` link or a `completeness.next` cursor of
 * a wrapped tool's result (register it as `trc_follow`). Use the same `store`/`executor` and
 * `principal` options as the wrapped tools. Its answers go through the pipeline too.
 * @example const tools = { ...envelopeTools(mine, options), [FOLLOW_TOOL_NAME]: followTool(options) };
 */
export function followTool(options: EnvelopeToolOptions = {}): Tool<{ ref: string; offset: number | null }, Envelope> {
  const { rules, invoker, description } = followParts(options);
  return {
    description,
    inputSchema: jsonSchema<{ ref: string; offset: number | null }>({
      type: 'object',
      properties: { ref: { type: 'string' }, offset: { type: ['integer', 'null'] } },
      required: ['ref', 'offset'],
      additionalProperties: false,
    }),
    execute: (input: { ref: string; offset: number | null }, opts: ToolExecutionOptions) => runFrameworkCall(FOLLOW_TOOL_NAME, rules, invoker, input, opts.toolCallId, options, 'ai-sdk', opts.abortSignal),
    toModelOutput: ({ output }: { output: Envelope }) => envelopeModelOutput(output),
  } as Tool<{ ref: string; offset: number | null }, Envelope>;
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

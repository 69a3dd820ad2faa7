/**
 * What the framework wrappers (AI SDK, OpenAI Agents SDK, LangChain) share: their options
 * compiled into the tool's `ToolRules`, the framework's `execute` as an invoker, and a run
 * through the executor's one pipeline. A framework tool's text counts as external (untrusted
 * source) unless the options say otherwise; without a store the wrappers share one in-memory
 * store, so fitted results stay reachable through the follow tool.
 */
import type { Budget } from '../../executor/index.js';
import type { Envelope } from '../../contract/index.js';
import type { ReconcileLookup } from '../../executor/index.js';
import { createExecutor, followLinkTool, assertToolIgnoreList, inProcessInvoker, underData, type Executor, type Invoker, type Principal, type Risk, type TaskRun, type ToolRules } from '../../executor/index.js';
import { createMemoryStore, type Store } from '../../store/index.js';
import type { Visibility } from '../../executor/index.js';

/** Options every wrapper takes (the framework's own tool fields come on top). */
export interface WrapperOptions {
  /** Where fitted results, handles, the ledger and the audit go. Default: one shared in-memory store. */
  readonly store?: Store;
  /** Run through this executor (its store, policy, budget, audit); default: one per store. */
  readonly executor?: Executor;
  /** Who calls (handles and idempotency keys are bound to it). Default `{ id: 'framework' }`. */
  readonly principal?: Principal;
  /** Size budget of the model-visible result (default: the executor's). */
  readonly budget?: Budget;
  /** JSON Pointer globs into the returned value whose text is external (when the tool's own text is trusted). */
  readonly untrusted?: readonly string[];
  /** JSON Pointer globs into the value that stay facts although the tool's text is external. */
  readonly trusted?: readonly string[];
  /** JSON Pointer (globs) into the value → who may see the field (`internal` never leaves; `user` never reaches the model). */
  readonly visibility?: Readonly<Record<string, Visibility>>;
  /** The tool's text is its own, not web pages, mail, tickets or another service's (default false: it is isolated). */
  readonly trustedText?: boolean;
  /**
   * Instruction-detector rule ids, or prefixes ending in `.`, not applied to this tool's text (a
   * tool returning chat transcripts by design: `['role.turn', 'role.turns']`); it stays isolated.
   * A name no rule has throws `TOOL_DEFINITION_INVALID` when the tool is wrapped.
   */
  readonly ignoreDetectorRules?: readonly string[];
  /** Where results come from (S6); default `{ type: 'tool', id: <tool name> }`. */
  readonly source?: { readonly type: string; readonly id?: string };
  /** @deprecated use `source.type`. */
  readonly source_type?: string;
  /** @deprecated use `source.id`. */
  readonly source_id?: string;
  /** The side effect this tool performs (e.g. `refund`): it is then a write, run under an idempotency key. */
  readonly operation?: string;
  /** The idempotency key of a call from its input (pass the same key downstream); default: derived from tool, input and principal. */
  readonly idempotencyKey?: (input: never) => string;
  /** Look a key up downstream after a lost answer (W2). */
  readonly reconcile?: (key: string, ctx: { signal: AbortSignal }) => Promise<ReconcileLookup>;
  /** How a caller queries that lookup, named in the `reconciliation` block (default `<name>.reconcile`). */
  readonly reconcileTool?: string;
  /** Running twice has the effect of running once. */
  readonly idempotent?: boolean;
  /** The downstream deduplicates on the idempotency key. */
  readonly honoursKey?: boolean;
  readonly risk?: Risk;
  /** Deadline of one attempt (default 60 s). */
  readonly timeoutMs?: number;
  /** Clock for `retrieved_at` (ISO text), for deterministic tests. */
  readonly now?: () => string;
  /**
   * Called with every envelope produced, e.g. to audit or store it. A throw here is reported as
   * a process warning (`TRC_ON_ENVELOPE_THREW`); the call's result still reaches the model.
   */
  readonly onEnvelope?: (env: Envelope) => void;
  /**
   * The run (task) the agent's calls belong to, from `executor.startRun()` or `executor.openRun()`:
   * give every tool of one agent task the same run, and its scope, the untrusted content each
   * step returned and the user's confirmations hold across the steps (a write whose arguments
   * carry text a tool returned earlier answers `needs_input` until the user confirms it).
   */
  readonly run?: TaskRun;
  /**
   * The tool's input as JSON Schema, when the wrapper should not read it from the framework's
   * tool: a run's taint check reads from it which argument names are data (a map's keys).
   */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
}

const WRAPPER_KEYS = ['store', 'executor', 'principal', 'budget', 'untrusted', 'trusted', 'visibility', 'trustedText', 'ignoreDetectorRules', 'source', 'source_type', 'source_id', 'operation', 'idempotencyKey', 'reconcile', 'reconcileTool', 'idempotent', 'honoursKey', 'risk', 'timeoutMs', 'now', 'onEnvelope', 'run', 'inputSchema'] as const satisfies readonly (keyof WrapperOptions)[];
// Every wrapper option is in the list: an option added to WrapperOptions alone would reach the framework instead.
const everyWrapperKey: Exclude<keyof WrapperOptions, (typeof WRAPPER_KEYS)[number]> extends never ? true : never = true;
void everyWrapperKey;

/**
 * A wrapper's options apart from the framework's own tool fields, which go to the framework.
 * @example splitWrapperOptions({ name: 'x', returnDirect: true, store }) // { wrapper: { store }, rest: { name: 'x', returnDirect: true } }
 */
export function splitWrapperOptions(options: object): { wrapper: WrapperOptions; rest: Record<string, unknown> } {
  const wrapper: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) ((WRAPPER_KEYS as readonly string[]).includes(k) ? wrapper : rest)[k] = v;
  return { wrapper: wrapper as WrapperOptions, rest };
}

let sharedStore: Store | undefined;
const executors = new WeakMap<Store, Executor>();

/** The store of these options (the shared in-memory one by default). */
export function storeOf(options: WrapperOptions): Store {
  return options.store ?? options.executor?.store ?? (sharedStore ??= createMemoryStore());
}

/** The executor of these options: the one given, else one per store. */
export function executorOf(options: WrapperOptions): Executor {
  if (options.executor !== undefined) return options.executor;
  const store = storeOf(options);
  let ex = executors.get(store);
  if (ex === undefined) {
    const clock = options.now;
    ex = createExecutor({ store, ...(clock === undefined ? {} : { clock: () => Date.parse(clock()) }) });
    executors.set(store, ex);
  }
  return ex;
}

/**
 * The rules of a framework tool from its wrapper options.
 * @example frameworkRules('search', {}).sourceUntrusted // true
 */
export function frameworkRules(name: string, options: WrapperOptions): ToolRules {
  const write = options.operation !== undefined;
  if (options.ignoreDetectorRules !== undefined) assertToolIgnoreList(name, options.ignoreDetectorRules);
  return {
    name,
    effect: write ? 'write' : 'read',
    effectSource: 'declared',
    operation: options.operation ?? 'read',
    risk: options.risk ?? (write ? 'medium' : 'low'),
    confirmation: { required: false },
    idempotent: options.idempotent === true,
    honoursKey: options.honoursKey === true,
    reportsSend: false,
    reconcile: { available: options.reconcile !== undefined, queryTool: options.reconcileTool ?? `${name}.reconcile` },
    untrusted: (options.untrusted ?? []).map(underData),
    trusted: (options.trusted ?? []).map(underData),
    sourceUntrusted: options.trustedText !== true,
    ...(options.ignoreDetectorRules === undefined ? {} : { ignoreDetectorRules: [...options.ignoreDetectorRules] }),
    visibility: Object.fromEntries(Object.entries(options.visibility ?? {}).map(([p, v]) => [underData(p), v])),
    budget: options.budget ?? {},
    validateInput: null,
    inputSchema: options.inputSchema ?? null,
    validateOutput: null,
    source: { type: options.source?.type ?? options.source_type ?? 'tool', id: options.source?.id ?? options.source_id ?? name },
    timeoutMs: options.timeoutMs ?? 60_000,
  };
}

/**
 * The rules with the tool's input schema, read once, at the first call, from what the framework
 * knows (`read`: a JSON Schema or a promise of one) unless the options give it. A schema that
 * cannot be read leaves the rules as they are: argument names are then not checked for taint.
 * @example const rulesOf = withInputSchema(rules, options, () => created.parameters); await rulesOf();
 */
export function withInputSchema(rules: ToolRules, options: WrapperOptions, read: () => unknown): () => Promise<ToolRules> {
  let ready: Promise<ToolRules> | undefined;
  return () => (ready ??= (async () => {
    if (options.inputSchema !== undefined) return rules;
    let schema: unknown;
    try {
      schema = await read();
    } catch {
      return rules;
    }
    return schema !== null && typeof schema === 'object' && !Array.isArray(schema) ? { ...rules, inputSchema: schema } : rules;
  })());
}

/** The framework's execute function as an invoker: its return value is the outcome. */
export function frameworkInvoker(execute: (input: unknown, signal: AbortSignal) => Promise<unknown>, options: WrapperOptions): Invoker {
  const reconcile = options.reconcile;
  return {
    attempt: async (args, ctx) => ({ kind: 'value', value: await execute(args, ctx.signal) }),
    ...(reconcile === undefined ? {} : { lookup: (key: string, ctx: { signal: AbortSignal }) => reconcile(key, { signal: ctx.signal }) }),
  };
}

/**
 * Run one framework call through the executor's pipeline.
 * @example const env = await runFrameworkCall('order_get', rules, invoker, input, 'call_1', options, 'ai-sdk');
 */
export async function runFrameworkCall(name: string, rules: ToolRules, invoker: Invoker, input: unknown, callId: string, options: WrapperOptions, framework: string, signal?: AbortSignal): Promise<Envelope> {
  const key = options.idempotencyKey === undefined ? undefined : (options.idempotencyKey as (i: unknown) => string)(input);
  const env = await executorOf(options).run(rules, invoker, { call_id: callId, tool_name: name, args: input ?? {}, ...(key === undefined ? {} : { idempotency_key: key }) }, options.principal ?? { id: 'framework' }, { edge: { kind: 'framework', framework }, ...(signal === undefined ? {} : { signal }), ...(options.run === undefined ? {} : { run: options.run }) });
  reportEnvelope(options, env, name);
  return env;
}

/**
 * Hand the envelope to the caller's `onEnvelope`. The call has run (a write may have committed)
 * and is audited: a callback that throws must not turn its result into a framework error the
 * model reads as a failure, so the throw becomes a process warning and the result stands.
 */
function reportEnvelope(options: WrapperOptions, env: Envelope, tool: string): void {
  try {
    options.onEnvelope?.(env);
  } catch (error) {
    process.emitWarning(`tool-result-contract: onEnvelope threw for call ${env.call.call_id} of tool "${tool}" (${error instanceof Error ? error.message : String(error)}); the call's result is returned as it is`, { code: 'TRC_ON_ENVELOPE_THREW' });
  }
}

/** The follow tool's definition and invoker over the options' store. */
export function followParts(options: WrapperOptions): { rules: ToolRules; invoker: Invoker; description: string } {
  const tool = followLinkTool(storeOf(options));
  return { rules: tool.rules, invoker: inProcessInvoker(tool), description: tool.description };
}

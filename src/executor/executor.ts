/**
 * `createExecutor`: the registry of in-process tools around the one pipeline
 * ({@link runPipeline}). `call()` looks a registered tool up and runs it; `run()` runs any rules
 * and invoker — an upstream MCP server (the gateway), a framework tool (the wrappers) — through
 * the very same stages.
 */
import type { Envelope, ErrorInfo } from '../contract/index.js';
import type { MemoryPolicy } from '../effects/index.js';
import type { Budget } from '../budget/index.js';
import type { EvidencePolicy } from '../evidence/index.js';
import type { Store } from '../store/types.js';
import { storeAuditSink, type AuditSink } from './audit-sink.js';
import { callAll, type CallAllOptions, type CallAllResult } from './call-all.js';
import type { ToolDefinition } from './define-tool.js';
import type { Invoker } from './invoker.js';
import { runPipeline, type PipelineSegment, type RunOptions } from './pipeline.js';
import { leaseConfig, type LeaseOptions } from './write-lease.js';
import { reconcilePending, type ReconcileReport } from './recover.js';
import type { ToolRules } from './rules.js';
import { defaultStages, type Policy, type Stages } from './stages.js';
import type { Principal, ToolCall, ToolContext } from './types.js';
import { TrcError } from '../contract/index.js';
import { createRunAuthority, type RunAuthority, type RunAuthorityOptions } from '../trust/index.js';
import { openPersistedRun, type OpenRunOptions } from './persisted-run.js';

/** Any defined tool, whatever its argument and data types. */
export type AnyTool = ToolDefinition<never, unknown>;

/** Options of {@link createExecutor}. */
export interface ExecutorOptions {
  readonly tools?: readonly AnyTool[];
  readonly store: Store;
  /** Call policy (T4). Default: {@link permissivePolicy} (allow, but hold calls whose rules require confirmation). */
  readonly policy?: Policy;
  /** Milliseconds since the epoch; injectable for tests. */
  readonly clock?: () => number;
  /** Replace pipeline stages (visibility, budget, evidence, trust, presentation). */
  readonly stages?: Partial<Stages>;
  /** Attempts of one write under its key, counting retries after a confirmed absence (default 3). */
  readonly maxWriteAttempts?: number;
  readonly memoryPolicy?: MemoryPolicy;
  /** Size budget of the model-visible result (default: the budget module's defaults); tools may narrow it. */
  readonly budget?: Budget;
  /** Evidence lint policy (freshness, observed_at sources). */
  readonly evidencePolicy?: EvidencePolicy;
  /** Where audit records go (default: inserted into `store` before each call answers). */
  readonly audit?: AuditSink;
  /**
   * Leases on the ledger entries of writes, so executors (gateway instances) sharing one store
   * never run the same write twice and take over a dead one's entries once its lease expired
   * (default on: a fresh instance id; per write twice its deadline plus 1 s, within 3–10 s). `false`: entries carry no lease (one process only).
   * @example createExecutor({ tools, store, lease: { instanceId: 'gw-1', ttlMs: 5000 } })
   */
  readonly lease?: LeaseOptions | false;
  /**
   * Benchmark hook: called at the end of each segment of every call (`prepare`, `args`, `policy`,
   * `invoke`, `classify`, each content stage, `finalize`, `audit-record`, `audit-sink`), so a
   * profiler can time the segments with its own clock. Leave unset in production.
   * @example createExecutor({ tools, store, lap: (segment) => record(segment, performance.now()) })
   */
  readonly lap?: (segment: PipelineSegment) => void;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call; a write already sent then ends `unknown`, never `failed`. */
  readonly signal?: AbortSignal;
  /** The run (task) the call belongs to: scope, taint and confirmations ({@link Executor.startRun}). */
  readonly run?: TaskRun;
  /** A confirmation token the user gave for this exact call (`run.tokenFor(request_id)`). */
  readonly confirmation?: string;
}

/** The executor. */
export interface Executor {
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** Where resources, handles, the ledger (and by default the audit) go. */
  readonly store: Store;
  /** Run one call of a registered tool through the whole pipeline; always resolves to a valid envelope. */
  call(call: ToolCall, principal: Principal, options?: CallOptions): Promise<Envelope>;
  /**
   * Run one call of any tool, described by its rules and reached through its invoker, through
   * the same pipeline (the gateway and the framework wrappers call this).
   */
  run(rules: ToolRules, invoker: Invoker, call: ToolCall, principal: Principal, options?: RunOptions): Promise<Envelope>;
  /** Run many calls: reads concurrently, writes per resource in order, dependencies first (P1, P2). */
  callAll(calls: readonly ToolCall[], principal: Principal, options?: CallAllOptions): Promise<CallAllResult>;
  /** Reconcile ledger entries left `in_flight` by a crash (call on start-up). */
  recoverInFlight(): Promise<ReconcileReport[]>;
  /** Reconcile every pending entry (`in_flight` and `unknown`). */
  reconcilePending(): Promise<ReconcileReport[]>;
  /** Wait until every audit record was stored (a write-behind sink queues some). */
  flushAudit(): Promise<void>;
  /**
   * Start a run (one task): pass it with each call (`{ run }`). The run holds calls outside its
   * declared scope, and writes or high-risk calls whose arguments carry untrusted content seen
   * earlier in the run, until the user confirms that exact call (`run.confirm(request_id)`).
   * @example
   * const run = executor.startRun({ scope: { tools: ['read_file', 'send_money'] }, trustedText: [userPrompt] });
   * const env = await executor.call(call, principal, { run });
   * if (env.status === 'needs_input') run.pending(); // what to ask the user, with the source of each tainted argument
   */
  startRun(options?: RunAuthorityOptions): TaskRun;
  /**
   * Open the run `options.id` kept in the executor's store, creating it if new: its scope, the
   * untrusted content its calls returned and its confirmations survive a restart and are shared
   * with every process on the same store (each call reads what the others recorded first).
   * @example const run = await executor.openRun({ id: `task-${taskId}`, scope: { tools: ['read_file', 'send_money'] } });
   */
  openRun(options: OpenRunOptions): Promise<TaskRun>;
}

/** One run (task, agent session) of an executor: see {@link Executor.startRun}. */
export type TaskRun = RunAuthority;

/**
 * The invoker of an in-process tool: `run(args, ctx)` is the attempt, `reconcile(key)` the lookup.
 * @example const invoker = inProcessInvoker(getOrder);
 */
export function inProcessInvoker(tool: AnyTool): Invoker {
  const run = tool.run as (args: unknown, ctx: ToolContext) => unknown;
  const reconcile = tool.reconcile;
  return {
    attempt: async (args, ctx) => ({ kind: 'output', output: await run(args, ctx) }),
    ...(reconcile === undefined ? {} : { lookup: (key: string, ctx: { signal: AbortSignal }) => reconcile(key, { signal: ctx.signal }) }),
  };
}

/**
 * Create an executor over registered tools and a store.
 * @example
 * const executor = createExecutor({ tools: [getOrder, charge], store: createMemoryStore() });
 * await executor.recoverInFlight();
 * const env = await executor.call({ call_id: 'call_1', tool_name: 'order_get', args: { id: 'o1' } }, { id: 'user_1' });
 */
export function createExecutor(options: ExecutorOptions): Executor {
  // Checked here: a JavaScript caller that leaves it out would otherwise meet a TypeError deep inside.
  if (typeof options?.store?.appendAudit !== 'function') {
    throw new TrcError('EXECUTOR_OPTIONS_INVALID', 'createExecutor needs a store: createMemoryStore() keeps records in memory, openSqliteStore(path) on disk', { data: { pointer: '/store' } });
  }
  const tools = new Map<string, AnyTool>();
  const invokers = new Map<string, Invoker>();
  for (const t of options.tools ?? []) {
    if (tools.has(t.name)) throw new TrcError('TOOL_DUPLICATE', `tool "${t.name}" is registered twice`);
    tools.set(t.name, t);
    invokers.set(t.name, inProcessInvoker(t));
  }
  const now = options.clock ?? Date.now;
  const stages: Stages = { ...defaultStages({ ...(options.budget === undefined ? {} : { budget: options.budget }), ...(options.evidencePolicy === undefined ? {} : { evidence: options.evidencePolicy }) }), ...(options.policy === undefined ? {} : { policy: options.policy }), ...options.stages };
  const s = options.stages;
  const customDataStages = s?.visibility !== undefined || s?.trust !== undefined || s?.budget !== undefined || s?.evidence !== undefined || s?.present !== undefined;
  const audit = options.audit ?? storeAuditSink(options.store);
  const lease = options.lease === false ? undefined : leaseConfig(options.lease);
  const deps = { store: options.store, now, stages, customDataStages, maxAttempts: options.maxWriteAttempts ?? 3, memoryPolicy: options.memoryPolicy, audit, lap: options.lap, lease };

  const callOne = (c: ToolCall, principal: Principal, callOptions: CallOptions = {}, refused?: ErrorInfo): Promise<Envelope> => {
    // `c?.`: a JavaScript caller may pass anything; the pipeline refuses a malformed call.
    const name = (c as Partial<ToolCall> | null | undefined)?.tool_name;
    const tool = typeof name === 'string' ? tools.get(name) : undefined;
    const runOptions: RunOptions = {
      ...(callOptions.signal === undefined ? {} : { signal: callOptions.signal }),
      ...(callOptions.run === undefined ? {} : { run: callOptions.run }),
      ...(callOptions.confirmation === undefined ? {} : { confirmation: callOptions.confirmation }),
      ...(refused === undefined ? {} : { refused }),
    };
    return runPipeline(deps, tool?.rules ?? null, tool === undefined ? null : (invokers.get(tool.name) as Invoker), c, principal, runOptions);
  };

  return {
    tools,
    store: options.store,
    call: (c, principal, callOptions) => callOne(c, principal, callOptions),
    run: (rules, invoker, c, principal, runOptions) => runPipeline(deps, rules, invoker, c, principal, runOptions),
    callAll: (calls, principal, o = {}) =>
      callAll({ tools: new Map([...tools].map(([k, t]) => [k, t.rules])), call: (c, p, co) => callOne(c, p, { ...co, ...(o.run === undefined ? {} : { run: o.run }) }), refuse: (c, p, error) => callOne(c, p, o.run === undefined ? {} : { run: o.run }, error) }, calls, principal, o),
    recoverInFlight: () => reconcilePending({ store: options.store, tools, invokers, now, states: ['in_flight'], lease }),
    reconcilePending: () => reconcilePending({ store: options.store, tools, invokers, now, states: ['in_flight', 'unknown'], lease }),
    flushAudit: () => audit.flush(),
    startRun: (runOptions) => createRunAuthority(runOptions),
    openRun: (runOptions) => openPersistedRun(options.store, runOptions, () => new Date(now()).toISOString()),
  };
}

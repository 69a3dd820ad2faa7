/**
 * The `io.modelcontextprotocol/tasks` extension (SEP-2663) served to 2026-07-28 clients, over
 * the 2025-11-25 tasks of the upstreams. A client that declares the extension on a `tools/call`
 * of a tool its upstream runs as a task (`execution.taskSupport` `required` or `optional`) gets
 * a task handle (`resultType: "task"`); the gateway session behind the endpoint creates the
 * upstream task exactly as for a 2025 client (tasks.ts: reads only, no confirmation), and at
 * once asks for its result with `tasks/result` — which runs the executor's pipeline, so the
 * `result` a client reads from `tasks/get` is an envelope like any call's. What the upstream
 * asks meanwhile (elicitation, sampling) is shown by `tasks/get` as `input_required` with
 * `inputRequests`, and answered with `tasks/update`. `tasks/cancel` cancels the upstream task.
 *
 * Task ids are the upstream's, bound to the principal that created them. Every change of a
 * task (an input request, its answer, the result, a cancellation, the upstream's own status
 * notification) is told to the watchers: listen streams push it (task-listen.ts).
 */
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, RELATED_TASK_META_KEY, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { Ask, InputRounds, Started } from './input-rounds.js';

/** The extension's identifier. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** TTL asked of the upstream for a task, when it does not choose one. */
const TASK_TTL_MS = 60 * 60 * 1000;
/** Tasks kept at once; the oldest finished ones go first. */
const MAX_TASKS = 1024;
const INVALID_PARAMS = -32602;

type Send = (method: string, params: Record<string, unknown>, signal: AbortSignal) => Started;
type Settled = { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly error: unknown };

interface Entry {
  readonly taskId: string;
  readonly principal: string;
  readonly seed: Record<string, unknown>;
  settled: Settled | null;
  readonly asks: Map<string, Ask>;
  nextKey: number;
  readonly abort: AbortController;
  /** Set once the upstream acknowledged `tasks/cancel`: the task is cancelled for good. */
  cancelled: boolean;
}

/** The task side of one 2026 endpoint. */
export interface ModernTasks {
  /** A task handle for this `tools/call`, or undefined when it runs as an ordinary call. */
  create(ctx: ServerContext, principal: string, params: Record<string, unknown>, taskSupport: string | undefined): Promise<Record<string, unknown> | undefined>;
  get(principal: string, taskId: string): Promise<Record<string, unknown>>;
  update(principal: string, taskId: string, responses: unknown): Record<string, unknown>;
  cancel(principal: string, taskId: string): Promise<Record<string, unknown>>;
  /** Tasks whose result has not come yet and that were not cancelled. */
  running(): number;
  /** True when `taskId` is a task of `principal`. */
  owns(principal: string, taskId: string): boolean;
  /** Be told the id of each task that changes, and when the tasks close; returns the unsubscribe. */
  watch(changed: (taskId: string) => void, closed?: () => void): () => void;
  /** Tell the watchers that `taskId` changed (the upstream said so); unknown ids are ignored. */
  changed(taskId: string): void;
  close(): void;
}

/**
 * The tasks extension over `send` (requests to the gateway session behind the endpoint).
 * @example const tasks = modernTasks(rounds, send); const handle = await tasks.create(ctx, principal, params, 'required');
 */
export function modernTasks(rounds: InputRounds, send: Send): ModernTasks {
  const entries = new Map<string, Entry>();
  const watchers = new Set<{ readonly changed: (taskId: string) => void; readonly closed: (() => void) | undefined }>();
  const changed = (taskId: string): void => {
    for (const w of watchers) w.changed(taskId);
  };
  const own = (principal: string, taskId: string): Entry => {
    const entry = entries.get(taskId);
    // Unknown and foreign task ids get one answer: nothing about other principals' tasks leaks.
    if (entry === undefined || entry.principal !== principal) throw new ProtocolError(INVALID_PARAMS, `Unknown task: ${taskId}`);
    return entry;
  };
  const forget = (): void => {
    for (const [id, e] of entries) {
      if (entries.size <= MAX_TASKS) break;
      if (e.settled !== null) entries.delete(id);
    }
  };

  return {
    async create(ctx, principal, params, taskSupport) {
      if (!declaresTasks(ctx) || (taskSupport !== 'required' && taskSupport !== 'optional')) return undefined;
      let created: Record<string, unknown>;
      try {
        created = await send('tools/call', { ...params, task: { ttl: TASK_TTL_MS } }, ctx.mcpReq.signal).result;
      } catch (error) {
        // The gateway runs only reads without confirmation as tasks (tasks.ts): a tool that may
        // also run without one then runs as an ordinary call (a write keeps its write path).
        if (taskSupport === 'optional' && (error as { code?: unknown }).code === INVALID_PARAMS) return undefined;
        throw error;
      }
      const task = created['task'] as Record<string, unknown> | undefined;
      if (typeof task?.['taskId'] !== 'string') throw new ProtocolError(-32603, 'the upstream did not create a task');
      const entry: Entry = { taskId: task['taskId'], principal, seed: task, settled: null, asks: new Map(), nextKey: 0, abort: new AbortController(), cancelled: false };
      entries.set(entry.taskId, entry);
      forget();
      // The result is asked for at once: what the upstream needs meanwhile arrives during this
      // request (2025 tasks deliver their input requests on `tasks/result`).
      const fetch = send('tasks/result', { taskId: entry.taskId }, entry.abort.signal);
      const release = fetch.id === undefined ? () => undefined : rounds.claim(fetch.id, (ask) => {
        entry.asks.set(`${entry.taskId}:${++entry.nextKey}`, ask);
        changed(entry.taskId);
      });
      void fetch.result.then(
        (value) => (entry.settled = { ok: true, value }),
        (error: unknown) => (entry.settled = { ok: false, error }),
      ).finally(() => {
        release();
        changed(entry.taskId);
      });
      return { resultType: 'task', ...modernTask(task) };
    },
    async get(principal, taskId) {
      const entry = own(principal, taskId);
      const base = { resultType: 'complete', ...modernTask(entry.seed) };
      // Cancelled is terminal: whatever the abandoned `tasks/result` then settles with (an
      // error, on most servers) is not the task's outcome.
      if (entry.cancelled) return { ...base, status: 'cancelled' };
      if (entry.settled?.ok === true) return { ...base, status: 'completed', result: withoutRelated(entry.settled.value) };
      if (entry.settled?.ok === false) {
        const e = entry.settled.error as { code?: unknown; message?: unknown; data?: unknown };
        if (typeof e.code !== 'number') return { ...base, status: 'failed', error: { code: -32603, message: String(e.message ?? e) } };
        return { ...base, status: 'failed', error: { code: e.code, message: String(e.message ?? ''), ...(e.data === undefined ? {} : { data: e.data }) } };
      }
      if (entry.asks.size > 0) {
        return { ...base, status: 'input_required', inputRequests: Object.fromEntries([...entry.asks].map(([k, a]) => [k, { method: a.method, params: withoutRelated(a.params) }])) };
      }
      const current = await send('tasks/get', { taskId }, AbortSignal.timeout(30_000)).result;
      const status = current['status'];
      // "completed" upstream is still "working" here until the pipeline has the result.
      return { ...base, ...modernTask(current), status: status === 'cancelled' || status === 'failed' ? status : 'working' };
    },
    update(principal, taskId, responses) {
      const entry = own(principal, taskId);
      if (typeof responses !== 'object' || responses === null) throw new ProtocolError(INVALID_PARAMS, 'inputResponses must be an object');
      // Keys not outstanding (never issued, already answered) are ignored, as the extension says.
      let answered = false;
      for (const [key, response] of Object.entries(responses)) {
        const ask = entry.asks.get(key);
        if (ask === undefined || typeof response !== 'object' || response === null) continue;
        entry.asks.delete(key);
        ask.resolve(response as Record<string, unknown>);
        answered = true;
      }
      if (answered) changed(taskId);
      return { resultType: 'complete' };
    },
    async cancel(principal, taskId) {
      const entry = own(principal, taskId);
      // A task that already ended is the upstream's to refuse (an error, relayed as such).
      await send('tasks/cancel', { taskId }, AbortSignal.timeout(30_000)).result;
      entry.cancelled = true;
      // Nothing more is asked or awaited for it: open input requests are refused, the pending
      // `tasks/result` is abandoned (so the entry settles and can be forgotten).
      for (const ask of entry.asks.values()) ask.reject(new Error('the task was cancelled'));
      entry.asks.clear();
      entry.abort.abort(new Error('the task was cancelled'));
      changed(taskId);
      return { resultType: 'complete' };
    },
    running: () => [...entries.values()].filter((e) => e.settled === null && !e.cancelled).length,
    owns: (principal, taskId) => entries.get(taskId)?.principal === principal,
    watch(w, closed) {
      const watcher = { changed: w, closed };
      watchers.add(watcher);
      return () => void watchers.delete(watcher);
    },
    changed(taskId) {
      if (entries.has(taskId)) changed(taskId);
    },
    close() {
      for (const w of [...watchers]) w.closed?.();
      watchers.clear();
      for (const e of entries.values()) e.abort.abort(new Error('the gateway is shutting down'));
      entries.clear();
    },
  };
}

/** A 2025-11-25 task as the extension's `Task`. */
function modernTask(task: Record<string, unknown>): Record<string, unknown> {
  const ttl = task['ttl'];
  return {
    taskId: task['taskId'],
    status: task['status'],
    ...(typeof task['statusMessage'] === 'string' ? { statusMessage: task['statusMessage'] } : {}),
    createdAt: task['createdAt'],
    lastUpdatedAt: task['lastUpdatedAt'] ?? task['createdAt'],
    ttlMs: typeof ttl === 'number' ? ttl : null,
    ...(typeof task['pollInterval'] === 'number' ? { pollIntervalMs: task['pollInterval'] } : {}),
  };
}

/** The 2025 related-task marker belongs to that generation's wire, not to the extension's result. */
function withoutRelated(result: Record<string, unknown>): Record<string, unknown> {
  const meta = result['_meta'] as Record<string, unknown> | undefined;
  if (meta === undefined || !(RELATED_TASK_META_KEY in meta)) return result;
  const { [RELATED_TASK_META_KEY]: _gone, ...rest } = meta;
  return { ...result, _meta: rest };
}

function declaresTasks(ctx: ServerContext): boolean {
  return declaresTasksIn(ctx.mcpReq.envelope as Record<string, unknown> | undefined);
}

/** True when a request's per-request envelope (`_meta`) declares the tasks extension in its client capabilities. */
export function declaresTasksIn(meta: Record<string, unknown> | undefined): boolean {
  const caps = meta?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return caps?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** The params of `tasks/get`, `tasks/update`, `tasks/cancel`: a string `taskId` (a Standard Schema, for the v2 server's custom-method handlers). */
export const TASK_PARAMS: StandardSchemaV1<unknown, { taskId: string; inputResponses?: unknown }> = {
  '~standard': {
    version: 1,
    vendor: 'tool-result-contract',
    validate: (value) => {
      const v = value as { taskId?: unknown } | null;
      return typeof v === 'object' && v !== null && typeof v.taskId === 'string' ? { value: v as { taskId: string } } : { issues: [{ message: 'taskId must be a string', path: ['taskId'] }] };
    },
  },
};

/**
 * Task-augmented tool calls (MCP 2025-11-25 `tasks`) through the gateway. The call that creates
 * a task is forwarded to the upstream that serves the tool, and the upstream's task id is
 * remembered with the call; `tasks/get`, `tasks/list` and `tasks/cancel` go to the upstream
 * that owns the task, and `notifications/tasks/status` come back like any notification. The
 * task's outcome, `tasks/result`, runs the executor's pipeline like a direct call (the fetch of
 * the result is the attempt), so the client never gets an upstream result the contract has not
 * seen.
 *
 * Only tools whose rules make them reads (and need no confirmation) may run as tasks: the write
 * path (ledger, idempotency key, confirmation) needs the call's own answer, which a task defers.
 */
import { ErrorCode, McpError, type CallToolResult, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { forwardRequest, type ForwardExtra } from './forward.js';
import type { SessionState } from './session-state.js';
import { resolveTool } from './session-upstreams.js';
import { CONFIRM_META_KEY, callTool } from './tool-call.js';
import { toolRulesFor } from './tool-rules.js';
import type { UpstreamConnection } from './upstream.js';

/** What the gateway can relay of the `tasks` capability (advertised only when an upstream has it). */
export const TASKS_CAPABILITY: NonNullable<ServerCapabilities['tasks']> = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

interface TaskCall {
  readonly upstream: UpstreamConnection;
  readonly params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> };
}

const tasksOf = new WeakMap<SessionState, Map<string, TaskCall>>();
const tasks = (state: SessionState): Map<string, TaskCall> => {
  let map = tasksOf.get(state);
  if (map === undefined) tasksOf.set(state, (map = new Map()));
  return map;
};

type CallParams = { name: string; arguments?: Record<string, unknown> | undefined; _meta?: Record<string, unknown> | undefined; task?: Record<string, unknown> | undefined };

/**
 * Forward a task-augmented `tools/call`; answers the upstream's `CreateTaskResult`.
 * @example if (req.params.task !== undefined) return startTask(state, req.params, extra);
 */
export async function startTask(state: SessionState, params: CallParams, extra: ForwardExtra): Promise<Record<string, unknown>> {
  const route = await resolveTool(state, params.name);
  if (route === null) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
  const rules = toolRulesFor(state.options.config, route.upstream.config, params.name, route.name, route.tool as never, CONFIRM_META_KEY);
  if (rules.effect !== 'read' || rules.confirmation.required) {
    throw new McpError(ErrorCode.InvalidParams, `"${params.name}" cannot run as a task through the gateway: only read tools without confirmation can (declare effect: read for it, or call it without "task")`);
  }
  if (route.upstream.serverCapabilities.tasks?.requests?.tools?.call === undefined) throw new McpError(ErrorCode.InvalidParams, `the upstream of "${params.name}" does not run tool calls as tasks`);
  const { name: _n, ...rest } = params;
  const created = await forwardRequest(route.upstream, 'tools/call', { ...rest, name: route.name }, extra);
  const task = created['task'] as { taskId?: unknown } | undefined;
  // An upstream may ignore `task` and answer the call itself. The client asked for a task, so
  // only a task may answer (the SDK refuses anything else); say plainly what happened, and never
  // hand on the upstream's bare result. The call is a read: running it again without `task` is safe.
  if (typeof task?.taskId !== 'string') {
    throw new McpError(ErrorCode.InvalidParams, `the upstream of "${params.name}" answered without creating a task (it ran the call at once): call it without "task"`);
  }
  const call: TaskCall['params'] = { name: params.name };
  if (params.arguments !== undefined) call.arguments = params.arguments;
  if (params._meta !== undefined) call._meta = params._meta;
  tasks(state).set(task.taskId, { upstream: route.upstream, params: call });
  return created;
}

/** The session's task requests, by method (tasks/get, tasks/list, tasks/cancel, tasks/result). */
export function taskHandlers(state: SessionState): Record<'tasks/get' | 'tasks/list' | 'tasks/cancel' | 'tasks/result', (params: Record<string, unknown>, extra: ForwardExtra) => Promise<Record<string, unknown>>> {
  const owner = (params: Record<string, unknown>): TaskCall => {
    const known = tasks(state).get(String(params['taskId']));
    // Only tasks this session created can be looked at: no other client's task ids leak.
    if (known === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown task: ${String(params['taskId'])}`);
    return known;
  };
  return {
    'tasks/get': (params, extra) => forwardRequest(owner(params).upstream, 'tasks/get', params, extra),
    'tasks/cancel': (params, extra) => forwardRequest(owner(params).upstream, 'tasks/cancel', params, extra),
    'tasks/list': async (_params, extra) => {
      // Every upstream's own list, all of its pages, kept to the tasks of this session: one page
      // (the upstreams' cursors are not ours to hand on, and a page kept to this session's tasks
      // may be empty). Forwarding only the first page lost every task beyond it.
      const mine = tasks(state);
      const lists = await Promise.all([...new Set([...mine.values()].map((t) => t.upstream))].map((u) => everyTask(u, extra)));
      return { tasks: lists.flat().filter((t) => mine.has(t.taskId)) };
    },
    'tasks/result': async (params, extra): Promise<CallToolResult> => {
      const taskId = String(params['taskId']);
      const call = owner(params);
      const result = await callTool(state, call.params, extra, { taskId });
      // The result belongs to the task (as the upstream's own `tasks/result` says).
      return { ...result, _meta: { ...(result._meta ?? {}), 'io.modelcontextprotocol/related-task': { taskId } } };
    },
  };
}

/** Pages of an upstream's `tasks/list` followed at most (a cursor that never ends stops here). */
const MAX_TASK_PAGES = 100;

/** Every task `upstream` lists, page after page. */
async function everyTask(upstream: UpstreamConnection, extra: ForwardExtra): Promise<{ taskId: string }[]> {
  const out: { taskId: string }[] = [];
  let cursor: unknown;
  for (let page = 0; page < MAX_TASK_PAGES; page++) {
    const listed = await forwardRequest(upstream, 'tasks/list', cursor === undefined ? {} : { cursor }, extra);
    out.push(...((listed['tasks'] as { taskId: string }[] | undefined) ?? []));
    cursor = listed['nextCursor'];
    if (typeof cursor !== 'string') break;
  }
  return out;
}

/**
 * Task status pushes of the tasks extension (SEP-2663) on 2026-07-28 listen streams: a
 * `subscriptions/listen` whose filter names `taskIds` gets, on the stream the SDK opened for
 * it, a `notifications/tasks` event (the task as `tasks/get` shows it) each time one of those
 * tasks changes, and once right after the acknowledgement, so a client that subscribes late
 * still learns where the task stands. The SDK's listen filter has no `taskIds`, so this
 * module rewrites the stream: the acknowledgement names the ids agreed to (the principal's own
 * tasks; others are left out, as the extension allows), and the pushes are merged in between
 * the SDK's events. Nothing is pushed after a task reached a terminal status.
 */
import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { declaresTasksIn, TASKS_EXTENSION } from './modern-tasks.js';

/** JSON-RPC code of a request that needs a capability the client did not declare. */
const MISSING_CAPABILITY = -32021;
const INVALID_PARAMS = -32602;
/** Task ids one listen stream may follow. */
const MAX_TASK_IDS = 256;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const ACK_METHOD = 'notifications/subscriptions/acknowledged';

interface ListenBody {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: { readonly notifications?: { readonly taskIds?: unknown }; readonly _meta?: Record<string, unknown> };
}

/** The task ids a `subscriptions/listen` request asks to follow; null when it is not one or names none. */
export function listenedTaskIds(body: unknown): string[] | null {
  const b = body as ListenBody | null;
  if (b?.method !== 'subscriptions/listen') return null;
  const ids = b.params?.notifications?.taskIds;
  if (!Array.isArray(ids)) return null;
  return [...new Set(ids.filter((id): id is string => typeof id === 'string'))].slice(0, MAX_TASK_IDS);
}

/**
 * The answer to a `subscriptions/listen` whose `notifications.taskIds` is there but not a list of
 * task ids (strings): −32602 with the pointer of the member at fault; null otherwise. The v2
 * package does not know the member, and such a listen was acknowledged as following nothing.
 * @example taskIdsRefusal({ id: 1, method: 'subscriptions/listen', params: { notifications: { taskIds: 'x' } } }) // −32602 at /params/notifications/taskIds
 */
export function taskIdsRefusal(body: unknown): Response | null {
  const b = body as (ListenBody & { id?: unknown }) | null;
  if (b?.method !== 'subscriptions/listen') return null;
  const ids = b.params?.notifications?.taskIds;
  if (ids === undefined) return null;
  const at = Array.isArray(ids) ? ids.findIndex((id) => typeof id !== 'string') : -2;
  if (at === -1) return null;
  const pointer = `/params/notifications/taskIds${at >= 0 ? `/${at}` : ''}`;
  const error = { code: INVALID_PARAMS, message: `subscriptions/listen ${pointer}: ${at >= 0 ? 'a task id is a string' : 'taskIds is a list of task ids'}`, data: { pointer } };
  return Response.json({ jsonrpc: '2.0', id: b.id ?? null, error });
}

/**
 * The error the extension prescribes for a listen that asks for task status without declaring
 * the extension in its per-request capabilities; null when it declares it.
 */
export function missingTasksCapability(body: unknown): Response | null {
  const b = body as ListenBody;
  if (declaresTasksIn(b.params?._meta)) return null;
  const error = { code: MISSING_CAPABILITY, message: 'Missing required client capability', data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } };
  return Response.json({ jsonrpc: '2.0', id: b.id ?? null, error });
}

/** What a listen stream needs of the tasks. */
export interface TaskFeed {
  /** Ids (of those asked) the stream may follow: the principal's own tasks. */
  readonly agreed: readonly string[];
  /** The task as `tasks/get` answers it, or null when it is gone. */
  readonly state: (taskId: string) => Promise<Record<string, unknown> | null>;
  /** Call `changed` with a task id whenever a task changes, `closed` when no more will; returns the unsubscribe. */
  readonly watch: (changed: (taskId: string) => void, closed: () => void) => () => void;
}

/** One SSE event carrying a JSON-RPC message. */
const sse = (message: unknown): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

/** The acknowledgement event with the agreed task ids added; any other event unchanged. */
function withAgreedIds(event: string, agreed: readonly string[]): { text: string; ack: boolean } {
  const data = /^data: (.*)$/m.exec(event)?.[1];
  if (data === undefined || !data.includes(ACK_METHOD)) return { text: event, ack: false };
  try {
    const message = JSON.parse(data) as { method?: string; params?: { notifications?: Record<string, unknown> } };
    if (message.method !== ACK_METHOD) return { text: event, ack: false };
    const params = message.params ?? {};
    const notifications = { ...params.notifications, taskIds: [...agreed] };
    return { text: sse({ ...message, params: { ...params, notifications } }), ack: true };
  } catch {
    return { text: event, ack: false };
  }
}

/** True for the JSON-RPC response that ends a listen stream (the SDK sends it when it closes one). */
function isListenEnd(event: string): boolean {
  const data = /^data: (.*)$/m.exec(event)?.[1];
  if (data === undefined || data.includes('"method"')) return false;
  try {
    const message = JSON.parse(data) as Record<string, unknown>;
    return 'result' in message || 'error' in message;
  } catch {
    return false;
  }
}

/**
 * `response` (the SDK's listen stream for request `subscriptionId`) with task status pushes for
 * `feed.agreed` merged in after its acknowledgement. The SDK ends a stream whose filter names
 * nothing it knows at once; such a stream, or one the SDK ends while a followed task runs, is
 * held open (its closing response held back) until every followed task reached a terminal
 * status or is gone, the gateway closes, or the client leaves.
 * @example return withTaskStatus(await serve(), body.id, { agreed, state, watch });
 */
export function withTaskStatus(response: Response, subscriptionId: unknown, feed: TaskFeed): Response {
  const source = response.body;
  if (source === null || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
  const reader = source.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const following = new Set(feed.agreed);
  let acked = false;
  let pending = '';
  let held: string | null = null;
  let sourceDone = false;
  let closed = false;
  let pushes = Promise.resolve();
  let unwatch: () => void = () => undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const emit = (text: string): void => {
    if (!closed) controller.enqueue(encoder.encode(text));
  };
  const finish = (): void => {
    if (closed) return;
    emit(pending + (held ?? ''));
    closed = true;
    unwatch();
    controller.close();
    // Ended before the SDK's stream (the gateway closing): let go of it too.
    if (!sourceDone) void reader.cancel().catch(() => undefined);
  };
  // The SDK is done and nothing is followed any more: the stream ends as the SDK ended it.
  const maybeFinish = (): void => {
    if (sourceDone && following.size === 0) finish();
  };
  // One push at a time, in the order the changes happened.
  const push = (taskId: string): void => {
    pushes = pushes.then(async () => {
      if (closed || !following.has(taskId)) return;
      const task = await feed.state(taskId).catch(() => null);
      if (closed) return;
      if (task === null) {
        following.delete(taskId);
        return maybeFinish();
      }
      const { resultType: _r, ...shown } = task;
      if (TERMINAL.has(String(shown['status']))) following.delete(taskId);
      const meta = { ...(shown['_meta'] as Record<string, unknown> | undefined), [SUBSCRIPTION_ID_META_KEY]: subscriptionId };
      emit(sse({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...shown, _meta: meta } }));
      maybeFinish();
    });
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (following.size > 0) {
        unwatch = feed.watch(
          (taskId) => {
            if (acked) push(taskId);
          },
          () => finish(),
        );
      }
    },
    async pull(c) {
      // Whole events only (what is left of one waits for the rest): a push never lands inside one.
      while (!sourceDone) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          closed = true;
          unwatch();
          c.error(error);
          return;
        }
        if (chunk.done) {
          sourceDone = true;
          await pushes;
          return maybeFinish();
        }
        pending += decoder.decode(chunk.value, { stream: true });
        let cut = pending.indexOf('\n\n');
        if (cut === -1) continue;
        while (cut !== -1) {
          const event = pending.slice(0, cut + 2);
          pending = pending.slice(cut + 2);
          const { text, ack } = withAgreedIds(event, feed.agreed);
          if (following.size > 0 && isListenEnd(text)) held = text;
          else emit(text);
          if (ack && !acked) {
            acked = true;
            for (const id of feed.agreed) push(id);
          }
          cut = pending.indexOf('\n\n');
        }
        return;
      }
    },
    cancel(reason) {
      closed = true;
      unwatch();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * The listen-stream rewriter of task status pushes, over streams shaped as the v2 SDK writes
 * them (the end-to-end behaviour is in tasks-extension.test.ts, with the real SDK and upstream).
 */
import { describe, expect, it } from 'vitest';
import { listenedTaskIds, missingTasksCapability, withTaskStatus, type TaskFeed } from '../../src/gateway/task-listen.js';

const encoder = new TextEncoder();
const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const ACK = event({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: {}, _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } } });
const END = event({ jsonrpc: '2.0', id: 7, result: { resultType: 'complete' } });

/** An SDK-like SSE response whose chunks the test writes. */
function sdkStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c), cancel: () => void (cancelled = true) });
  const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  return { response, write: (text: string) => controller.enqueue(encoder.encode(text)), end: () => controller.close(), cancelled: () => cancelled };
}

/** Tasks whose status the test sets; `change` tells the watcher. */
function feed(agreed: string[]) {
  const status = new Map<string, string>(agreed.map((id) => [id, 'working']));
  let changed: ((id: string) => void) | null = null;
  let closed: (() => void) | null = null;
  let watching = 0;
  const f: TaskFeed = {
    agreed,
    state: async (id) => (status.has(id) ? { resultType: 'complete', taskId: id, status: status.get(id) } : null),
    watch: (c, cl) => {
      changed = c;
      closed = cl;
      watching++;
      return () => void watching--;
    },
  };
  return { f, set: (id: string, s: string) => (status.set(id, s), changed?.(id)), close: () => closed?.(), watching: () => watching };
}

async function readAll(response: Response, until: (text: string) => boolean = () => false): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    if (until(text)) {
      await reader.cancel();
      return text;
    }
  }
}

const flush = () => new Promise((r) => setTimeout(r, 5));

describe('task status on a listen stream', () => {
  it('reads the task ids a listen asks for, and only from a listen', () => {
    expect(listenedTaskIds({ method: 'subscriptions/listen', params: { notifications: { taskIds: ['a', 'a', 3, 'b'] } } })).toEqual(['a', 'b']);
    expect(listenedTaskIds({ method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } })).toBeNull();
    expect(listenedTaskIds({ method: 'tools/list', params: { notifications: { taskIds: ['a'] } } })).toBeNull();
    expect(listenedTaskIds(null)).toBeNull();
  });

  it('asks for the extension in the per-request capabilities, with the code and data the extension names', async () => {
    const body = (caps: unknown) => ({ id: 4, method: 'subscriptions/listen', params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': caps } } });
    expect(missingTasksCapability(body({ extensions: { 'io.modelcontextprotocol/tasks': {} } }))).toBeNull();
    const refused = (await missingTasksCapability(body({}))!.json()) as { id: number; error: { code: number } };
    expect(refused).toMatchObject({ id: 4, error: { code: -32021 } });
  });

  it('names the agreed ids in the acknowledgement, pushes after it, and keeps the SDK events whole', async () => {
    const sdk = sdkStream();
    const tasks = feed(['t1']);
    const out = withTaskStatus(sdk.response, 7, tasks.f);
    const reading = readAll(out);
    // An SDK event split across chunks; a change meanwhile is pushed between events, never inside.
    sdk.write(ACK);
    sdk.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_cha');
    await flush();
    tasks.set('t1', 'input_required');
    await flush();
    sdk.write('nged","params":{}}\n\n');
    tasks.set('t1', 'completed');
    await flush();
    sdk.write(END);
    sdk.end();
    const events = (await reading).split('\n\n').filter((e) => e !== '').map((e) => JSON.parse(/^data: (.*)$/m.exec(e)![1]!) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: ['t1'] } } });
    const methods = events.map((e) => e['method'] ?? `response ${String(e['id'])}`);
    expect(methods).toContain('notifications/tools/list_changed');
    expect(methods.at(-1)).toBe('response 7');
    const statuses = events.filter((e) => e['method'] === 'notifications/tasks').map((e) => (e['params'] as { status: string }).status);
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
    expect(events.find((e) => e['method'] === 'notifications/tasks')?.['params']).toMatchObject({ taskId: 't1', _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } });
    expect(events.find((e) => e['method'] === 'notifications/tasks')?.['params']).not.toHaveProperty('resultType');
    expect(tasks.watching()).toBe(0);
  });

  it('holds a stream the SDK ended at once open until the followed task ends, then ends it as the SDK did', async () => {
    const sdk = sdkStream();
    const tasks = feed(['t2']);
    const out = withTaskStatus(sdk.response, 7, tasks.f);
    const reading = readAll(out);
    sdk.write(ACK + END);
    sdk.end();
    await flush();
    tasks.set('t2', 'working');
    await flush();
    tasks.set('t2', 'failed');
    const text = await reading;
    expect(text.indexOf('"failed"')).toBeGreaterThan(-1);
    expect(text.indexOf('"id":7')).toBeGreaterThan(text.indexOf('"failed"'));
    // A change after the end is not pushed.
    tasks.set('t2', 'working');
    expect(tasks.watching()).toBe(0);
  });

  it('stops watching when the client leaves, and ends the stream when the gateway closes', async () => {
    const left = feed(['a']);
    const first = sdkStream();
    first.write(ACK);
    await readAll(withTaskStatus(first.response, 7, left.f), (t) => t.includes('notifications/tasks'));
    expect(left.watching()).toBe(0);
    expect(first.cancelled()).toBe(true);

    const closing = feed(['b']);
    const second = sdkStream();
    const reading = readAll(withTaskStatus(second.response, 7, closing.f));
    second.write(ACK);
    await flush();
    closing.close();
    expect(await reading).toContain('notifications/tasks');
    // The SDK's stream behind it is let go too.
    await flush();
    expect(second.cancelled()).toBe(true);
  });

  it('passes a stream that follows no task through unchanged', async () => {
    const sdk = sdkStream();
    const out = withTaskStatus(sdk.response, 7, feed([]).f);
    sdk.write(ACK + END);
    sdk.end();
    expect(await readAll(out)).toBe(ACK.replace('"notifications":{}', '"notifications":{"taskIds":[]}') + END);
  });
});

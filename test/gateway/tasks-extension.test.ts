/**
 * The `io.modelcontextprotocol/tasks` extension (SEP-2663) served to 2026-07-28 clients, in
 * front of server-everything's 2025-11-25 task tool (`simulate-research-query`, which asks for
 * a clarification by elicitation when the query is ambiguous). The v2 SDK client (2.4) has no
 * tasks-extension surface (a `resultType: "task"` answer is an UNSUPPORTED_RESULT_TYPE error
 * there, and the official ext-tasks package needs the host's raw dispatch), so this test speaks
 * the extension's JSON-RPC over real HTTP itself, as the extension's specification writes it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ENVELOPE_META_KEY, serveHttp } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { eventually, SERVERS } from './helpers.js';

const EXT = 'io.modelcontextprotocol/tasks';
const open: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
});

/** One stateless JSON-RPC exchange with the 2026-07-28 per-request envelope and routing headers. */
function rawClient(url: string, capabilities: Record<string, unknown>) {
  let id = 0;
  return async (method: string, params: Record<string, unknown>, name?: string): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> => {
    const body = {
      jsonrpc: '2.0',
      id: ++id,
      method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities, 'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1' } } },
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) };
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    // JSON or one SSE event carrying the answer.
    const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
    return JSON.parse(json) as never;
  };
}

/** A `subscriptions/listen` stream, its events collected as they arrive. */
async function listen(url: string, capabilities: Record<string, unknown>, notifications: Record<string, unknown>) {
  const body = {
    jsonrpc: '2.0',
    id: 'listen-1',
    method: 'subscriptions/listen',
    params: { notifications, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities, 'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1' } } },
  };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' };
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const events: { method?: string; params?: Record<string, unknown>; error?: { code: number; data?: unknown } }[] = [];
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    events.push((await res.json()) as never);
    return { events, close: async () => undefined };
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += decoder.decode(value, { stream: true });
      let cut = text.indexOf('\n\n');
      while (cut !== -1) {
        const data = /^data: (.*)$/m.exec(text.slice(0, cut))?.[1];
        if (data !== undefined) events.push(JSON.parse(data) as never);
        text = text.slice(cut + 2);
        cut = text.indexOf('\n\n');
      }
    }
  })();
  return { events, close: async () => { await reader.cancel().catch(() => undefined); await reading; } };
}

async function gateway() {
  const gw = await serveHttp({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, upstreams: [{ name: 'everything', command: SERVERS.everything[0], args: SERVERS.everything.slice(1) }] } }, { port: 0 });
  open.push(gw);
  return gw;
}

describe('the tasks extension for 2026-07-28 clients', () => {
  it('advertises the extension, answers a task handle, shows the upstream input request, takes the answer and returns the result through the pipeline', async () => {
    const gw = await gateway();
    const rpc = rawClient(gw.url, { extensions: { [EXT]: {} }, elicitation: {} });
    const discover = await rpc('server/discover', {});
    expect((discover.result?.['capabilities'] as { extensions?: Record<string, unknown> }).extensions?.[EXT]).toEqual({});

    const created = await rpc('tools/call', { name: 'simulate-research-query', arguments: { topic: 'otters', ambiguous: true } }, 'simulate-research-query');
    expect(created.result?.['resultType']).toBe('task');
    const taskId = created.result?.['taskId'] as string;
    expect(typeof taskId).toBe('string');
    expect(created.result?.['status']).toBe('working');
    expect(created.result).toHaveProperty('ttlMs');

    let asked: Record<string, { method: string; params: Record<string, unknown> }> = {};
    await eventually(async () => {
      const got = await rpc('tasks/get', { taskId }, taskId);
      if (got.result?.['status'] !== 'input_required') return false;
      asked = got.result['inputRequests'] as typeof asked;
      return true;
    }, 30_000);
    const [key, ask] = Object.entries(asked)[0] ?? [];
    expect(ask?.method).toBe('elicitation/create');
    expect(JSON.stringify(ask?.params)).toContain('otters');
    // The 2025 related-task marker is not part of the extension's wire.
    expect(JSON.stringify(ask?.params)).not.toContain('related-task');

    const ack = await rpc('tasks/update', { taskId, inputResponses: { [key as string]: { action: 'accept', content: { interpretation: 'sea otters only' } } } }, taskId);
    expect(ack.error).toBeUndefined();

    let done: Record<string, unknown> = {};
    await eventually(async () => {
      done = (await rpc('tasks/get', { taskId }, taskId)).result ?? {};
      return done['status'] === 'completed';
    }, 60_000);
    const result = done['result'] as { content: unknown[]; _meta?: Record<string, { status: string; call: { tool_name: string } }> };
    // The result went through the executor's pipeline: an envelope, like any call's.
    expect(result._meta?.[ENVELOPE_META_KEY]?.status).toBe('succeeded');
    expect(result._meta?.[ENVELOPE_META_KEY]?.call.tool_name).toBe('simulate-research-query');
    // The answer reached the upstream task.
    expect(JSON.stringify(result.content)).toContain('sea otters only');
  }, 120_000);

  it('refuses task ids it did not create, and acknowledges a cancellation', async () => {
    const gw = await gateway();
    const rpc = rawClient(gw.url, { extensions: { [EXT]: {} } });
    const unknown = await rpc('tasks/get', { taskId: 'not-a-task' }, 'not-a-task');
    expect(unknown.error?.code).toBe(-32602);
    const created = await rpc('tools/call', { name: 'simulate-research-query', arguments: { topic: 'beavers' } }, 'simulate-research-query');
    const taskId = created.result?.['taskId'] as string;
    const cancelled = await rpc('tasks/cancel', { taskId }, taskId);
    expect(cancelled.error).toBeUndefined();
    // Cancelled is terminal, before and after the upstream's own loop has noticed it (one
    // 1 s stage) and the abandoned result request has settled.
    expect((await rpc('tasks/get', { taskId }, taskId)).result?.['status']).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 2500));
    expect((await rpc('tasks/get', { taskId }, taskId)).result?.['status']).toBe('cancelled');
    // Cancelling it again is the upstream's to refuse: an error, never a crash.
    const again = await rpc('tasks/cancel', { taskId }, taskId);
    expect(again.error?.code).toBeTypeOf('number');
  }, 90_000);

  it("pushes a task's status on a listen stream that follows it: now, on its input request, and when it completes", async () => {
    const gw = await gateway();
    const caps = { extensions: { [EXT]: {} }, elicitation: {} };
    const rpc = rawClient(gw.url, caps);
    const created = await rpc('tools/call', { name: 'simulate-research-query', arguments: { topic: 'otters', ambiguous: true } }, 'simulate-research-query');
    const taskId = created.result?.['taskId'] as string;
    const stream = await listen(gw.url, caps, { taskIds: [taskId, 'someone-elses-task'] });
    open.push(stream);
    const pushes = () => stream.events.filter((e) => e.method === 'notifications/tasks').map((e) => e.params ?? {});
    // The acknowledgement names the task it agreed to follow (not an id it never created), first.
    await eventually(async () => stream.events.length > 0, 10_000);
    const ack = stream.events[0];
    expect(ack?.method).toBe('notifications/subscriptions/acknowledged');
    expect((ack?.params?.['notifications'] as { taskIds?: string[] }).taskIds).toEqual([taskId]);
    // Its status right away, then the input request, pushed with the keys tasks/get shows.
    await eventually(async () => pushes().some((p) => p['status'] === 'input_required'), 30_000);
    const asking = pushes().find((p) => p['status'] === 'input_required')!;
    expect(asking['taskId']).toBe(taskId);
    expect(asking).not.toHaveProperty('resultType');
    expect((asking['_meta'] as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId']).toBe('listen-1');
    const [key] = Object.keys(asking['inputRequests'] as Record<string, unknown>);
    await rpc('tasks/update', { taskId, inputResponses: { [key as string]: { action: 'accept', content: { interpretation: 'sea otters only' } } } }, taskId);
    // The end is pushed too, with the result the pipeline made: the client need not poll.
    await eventually(async () => pushes().some((p) => p['status'] === 'completed'), 60_000);
    const done = pushes().find((p) => p['status'] === 'completed')!;
    expect((done['result'] as { _meta?: Record<string, { status: string }> })._meta?.[ENVELOPE_META_KEY]?.status).toBe('succeeded');
    expect(pushes().filter((p) => p['status'] === 'completed')).toHaveLength(1);
    // Nothing left to follow: the stream ends with the listen's own response, after the last push.
    await eventually(async () => stream.events.some((e) => (e as { id?: unknown }).id === 'listen-1'), 10_000);
    expect((stream.events.at(-1) as { id?: unknown }).id).toBe('listen-1');
    await stream.close();
  }, 120_000);

  it('refuses a listen for task status from a client that did not declare the extension (-32021)', async () => {
    const gw = await gateway();
    const stream = await listen(gw.url, {}, { taskIds: ['any'] });
    expect(stream.events[0]?.error?.code).toBe(-32021);
    expect(stream.events[0]?.error?.data).toEqual({ requiredCapabilities: { extensions: { [EXT]: {} } } });
  }, 60_000);

  it('refuses a listen whose taskIds is not a list of task ids, at its pointer (-32602), instead of following nothing', async () => {
    const gw = await gateway();
    const caps = { extensions: { [EXT]: {} } };
    for (const [taskIds, pointer] of [['x', '/params/notifications/taskIds'], [['ok', 5], '/params/notifications/taskIds/1']] as const) {
      const stream = await listen(gw.url, caps, { taskIds });
      expect(stream.events[0]?.error).toMatchObject({ code: -32602, data: { pointer } });
      await stream.close();
    }
  }, 60_000);

  it('answers an ordinary result for a tool its upstream does not run as a task', async () => {
    const gw = await gateway();
    const rpc = rawClient(gw.url, {});
    const echo = await rpc('tools/call', { name: 'echo', arguments: { message: 'no task' } }, 'echo');
    expect(echo.result?.['resultType']).toBe('complete');
    expect(JSON.stringify(echo.result?.['content'])).toContain('no task');
  }, 60_000);
});

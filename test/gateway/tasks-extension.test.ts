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

  it('answers an ordinary result for a tool its upstream does not run as a task', async () => {
    const gw = await gateway();
    const rpc = rawClient(gw.url, {});
    const echo = await rpc('tools/call', { name: 'echo', arguments: { message: 'no task' } }, 'echo');
    expect(echo.result?.['resultType']).toBe('complete');
    expect(JSON.stringify(echo.result?.['content'])).toContain('no task');
  }, 60_000);
});

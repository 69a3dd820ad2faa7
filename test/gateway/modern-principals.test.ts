/**
 * The inner sessions of the 2026-07-28 endpoint, one per principal, capped at `maxPrincipals`:
 * beyond the cap the least recently used *idle* one closes (with its upstream processes). A
 * principal whose call waits for its next input round, or who has a listen stream open, is not
 * idle, nor is one whose task still runs: closing its session ended the parked call
 * ("Connection closed" on the retry) and forgot the task. Real v2 server package
 * (`modernEndpoint`), real upstream processes (the conformance fixture, server-everything), each
 * request a real `Request` as the HTTP door hands it over with its authenticated principal.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { modernEndpoint, type ModernEndpoint } from '../../src/gateway/modern-endpoint.js';
import { TASKS_EXTENSION } from '../../src/gateway/modern-tasks.js';
import { SERVERS } from './helpers.js';
import { createMemoryStore } from '../../src/store/index.js';

const fixture = fileURLToPath(new URL('../conformance/fixtures/conformance-server.mjs', import.meta.url));
const endpoints: ModernEndpoint[] = [];
afterEach(async () => {
  for (const e of endpoints.splice(0)) await e.close();
});

function endpoint(maxPrincipals: number, argv: readonly string[] = [process.execPath, fixture]): ModernEndpoint {
  const [command, ...args] = argv as [string, ...string[]];
  const modern = modernEndpoint({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, upstreams: [{ name: 'up', command, args }] } }, { maxPrincipals });
  endpoints.push(modern);
  return modern;
}

let ids = 0;
function request(method: string, params: Record<string, unknown>): { request: Request; body: Record<string, unknown> } {
  const named = params['name'] ?? params['taskId'];
  const name = typeof named === 'string' ? named : undefined;
  const body = {
    jsonrpc: '2.0',
    id: ++ids,
    method,
    params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } }, 'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1' } } },
  };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) };
  return { request: new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }), body };
}

/** One request for `principal`, its JSON-RPC answer (JSON, or the last message of an SSE stream). */
async function rpc(modern: ModernEndpoint, principal: string, method: string, params: Record<string, unknown>): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const { request: req, body } = request(method, params);
  const text = await (await modern.fetch(req, body, principal)).text();
  const json = text.startsWith('{') ? text : [...text.matchAll(/^data: (.*)$/gm)].map((m) => m[1]).at(-1);
  return JSON.parse(json ?? '{}') as never;
}

describe('the inner sessions of stateless principals, beyond the cap', () => {
  it("keeps a principal's session while its call waits for the next input round", async () => {
    const modern = endpoint(1);
    const call = { name: 'test_elicitation', arguments: { message: 'Who are you?' } };
    const first = await rpc(modern, 'alice', 'tools/call', call);
    expect(first.result?.['resultType']).toBe('input_required');
    // Another principal arrives: alice's session is not idle, so it stays (the cap is exceeded).
    expect((await rpc(modern, 'bob', 'tools/list', {})).result?.['tools']).toBeDefined();
    const [key] = Object.keys(first.result?.['inputRequests'] as Record<string, unknown>);
    const done = await rpc(modern, 'alice', 'tools/call', { ...call, requestState: first.result?.['requestState'], inputResponses: { [key as string]: { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } } } });
    expect(done.error).toBeUndefined();
    expect(JSON.stringify(done.result?.['content'])).toContain('ada@example.com');
  }, 60_000);

  it('still closes the least recently used idle one', async () => {
    const modern = endpoint(1);
    await rpc(modern, 'alice', 'tools/list', {});
    const alice = await modern.session('alice');
    await rpc(modern, 'bob', 'tools/list', {});
    await alice.done;
    // Reopened on alice's next request: another session.
    expect(await modern.session('alice')).not.toBe(alice);
  }, 60_000);

  it('keeps the session of a principal whose listen stream is open', async () => {
    const modern = endpoint(1);
    const { request: req, body } = request('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const stream = await modern.fetch(req, body, 'alice');
    const alice = await modern.session('alice');
    await rpc(modern, 'bob', 'tools/list', {});
    expect(await modern.session('alice')).toBe(alice);
    await stream.body?.cancel();
  }, 60_000);

  it('keeps the session of a principal whose task is still running', async () => {
    const modern = endpoint(1, SERVERS.everything);
    const created = await rpc(modern, 'alice', 'tools/call', { name: 'simulate-research-query', arguments: { topic: 'otters', ambiguous: true } });
    expect(created.result?.['resultType']).toBe('task');
    const taskId = created.result?.['taskId'] as string;
    await rpc(modern, 'bob', 'tools/list', {});
    // The task is still alice's to follow: not "Unknown task".
    const got = await rpc(modern, 'alice', 'tasks/get', { taskId });
    expect(got.error).toBeUndefined();
    expect(['working', 'input_required']).toContain(got.result?.['status']);
    await rpc(modern, 'alice', 'tasks/cancel', { taskId });
  }, 60_000);
});

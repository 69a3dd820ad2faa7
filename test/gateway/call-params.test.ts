/**
 * A request whose params break the schema (a `tools/call`, a `resources/read`, a `prompts/get`…)
 * is the client's mistake: it gets −32602 with the JSON Pointer of the member at fault, over
 * stdio and over HTTP, from the v1 and the v2 client, 2025 and 2026-07-28 — not −32603 with a
 * Zod dump. Nothing reaches the upstream.
 */
import fc from 'fast-check';
import { CallToolRequestSchema, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { callParamsProblem, requestParamsProblem } from '../../src/gateway/call-params-check.js';
import { serveHttp } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { closedAfterAll, connectHttpV1, connectStdio, gatewayArgv, SERVERS, tempDir, type SdkGeneration, type TestClient } from './helpers.js';

const open = closedAfterAll();

const BAD: readonly [string, Record<string, unknown>, string][] = [
  ['arguments as a string', { name: 'echo', arguments: 'str' }, '/params/arguments'],
  ['arguments as an array', { name: 'echo', arguments: [1, 2] }, '/params/arguments'],
  ['no name', { arguments: { message: 'x' } }, '/params/name'],
  ['a numeric name', { name: 7 }, '/params/name'],
];

/** Other requests the gateway serves, with params their schema refuses, and the pointer. */
const BAD_REQUESTS: readonly [string, Record<string, unknown>, string][] = [
  ['resources/read', { uri: 5 }, '/params/uri'],
  ['resources/read', {}, '/params/uri'],
  ['prompts/get', { name: 'args-prompt', arguments: 'x' }, '/params/arguments'],
  ['prompts/get', {}, '/params/name'],
  ['completion/complete', { ref: { type: 'ref/prompt' }, argument: {} }, '/params/ref'],
  ['tools/list', { cursor: 5 }, '/params/cursor'],
];

/** The JSON-RPC error a request ended with. */
async function rpcError(client: TestClient, params: Record<string, unknown>, method = 'tools/call'): Promise<{ code: number; message: string; data?: { pointer?: string } }> {
  try {
    await client.request(method, params, { timeout: 20_000 });
  } catch (error) {
    return error as { code: number; message: string; data?: { pointer?: string } };
  }
  throw new Error('the call was answered with a result');
}

describe('callParamsProblem', () => {
  it.each(BAD)('names the member at fault: %s', (_label, params, pointer) => {
    expect(callParamsProblem({ method: 'tools/call', params })?.pointer).toBe(pointer);
  });

  it('accepts exactly what the SDK schema accepts', () => {
    const leaf = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean());
    const value = fc.oneof(leaf, fc.array(leaf, { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 4 }), leaf, { maxKeys: 2 }));
    const params = fc.record({ name: value, arguments: value, task: value, _meta: value }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(params, value), (p) => {
        const message = { method: 'tools/call', params: p };
        expect(callParamsProblem(message) === null).toBe(CallToolRequestSchema.safeParse(message).success);
      }),
      { numRuns: 2_000 },
    );
  });

  it('accepts exactly what the SDK schema accepts for a resources/read, 2026-07-28 members included', () => {
    const leaf = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean());
    const value = fc.oneof(leaf, fc.dictionary(fc.string({ maxLength: 4 }), leaf, { maxKeys: 2 }));
    const params = fc.record({ uri: value, _meta: value, requestState: value, inputResponses: value }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(params, value), (p) => {
        const message = { method: 'resources/read', params: p };
        expect(requestParamsProblem(message) === null).toBe(ReadResourceRequestSchema.safeParse(message).success);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('a tools/call with bad params, through the gateway', () => {
  const db = tempDir('trc-call-params-');
  for (const generation of ['v1', 'v2'] as SdkGeneration[]) {
    it(`answers −32602 with the pointer over stdio (${generation} client)`, async () => {
      const client = await connectStdio(generation, gatewayArgv(SERVERS.faulty, ['--store', `${db}/${generation}.sqlite`]));
      open.push(client);
      for (const [, params, pointer] of BAD) {
        const error = await rpcError(client, params);
        expect(error.code).toBe(-32602);
        expect(error.data?.pointer).toBe(pointer);
        expect(error.message).not.toMatch(/"expected"|\[\s*\{/);
      }
      // The session goes on serving good calls.
      const ok = await client.callTool('echo', { message: 'still here' });
      expect(JSON.stringify(ok)).toContain('still here');
    }, 60_000);
  }

  it('answers −32602 with the pointer over Streamable HTTP', async () => {
    const [command, ...args] = SERVERS.faulty as unknown as [string, ...string[]];
    const gw = await serveHttp({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, upstreams: [{ name: 'faulty', command, args }] } }, { port: 0 });
    open.push(gw);
    const client = await connectHttpV1(gw.url);
    open.push(client);
    const error = await rpcError(client, { name: 'echo', arguments: 'str' });
    expect(error.code).toBe(-32602);
    expect(error.data?.pointer).toBe('/params/arguments');
  }, 60_000);

  it('answers −32602 with the pointer for the other requests it serves, over Streamable HTTP (2025 client)', async () => {
    const [command, ...args] = SERVERS.everything as unknown as [string, ...string[]];
    const gw = await serveHttp({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, upstreams: [{ name: 'everything', command, args }] } }, { port: 0 });
    open.push(gw);
    const client = await connectHttpV1(gw.url);
    open.push(client);
    for (const [method, params, pointer] of BAD_REQUESTS) {
      const error = await rpcError(client, params, method);
      expect([method, error.code, error.data?.pointer]).toEqual([method, -32602, pointer]);
      expect(error.message).not.toMatch(/"expected"|\[\s*\{/);
    }
  }, 60_000);

  it('answers −32602 with the pointer to a 2026-07-28 client, tools/call included', async () => {
    const [command, ...args] = SERVERS.everything as unknown as [string, ...string[]];
    const gw = await serveHttp({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, upstreams: [{ name: 'everything', command, args }] } }, { port: 0 });
    open.push(gw);
    const client = new ClientV2({ name: 'v2-pinned', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new HttpV2(new URL(gw.url)));
    open.push(client);
    for (const [method, params, pointer] of [...BAD_REQUESTS, ...BAD.map(([, p, at]) => ['tools/call', p, at] as const)]) {
      const error = (await client.request({ method, params } as never).then(
        () => ({ code: 0, message: 'answered with a result' }),
        (e: unknown) => e,
      )) as { code: number; message: string; data?: { pointer?: string } };
      expect([method, error.code, error.data?.pointer]).toEqual([method, -32602, pointer]);
      expect(error.message).not.toMatch(/"expected"|\[\s*\{/);
    }
    // The endpoint goes on serving good requests.
    expect(JSON.stringify(await client.callTool({ name: 'echo', arguments: { message: 'still here' } }))).toContain('still here');
  }, 60_000);
});

/**
 * A `tools/call` whose params break the schema is the client's mistake: it gets −32602 with the
 * JSON Pointer of the member at fault, over stdio and over HTTP, from the v1 and the v2 client —
 * not −32603 with a Zod dump. Nothing reaches the upstream.
 */
import fc from 'fast-check';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { callParamsProblem } from '../../src/gateway/call-params-check.js';
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

/** The JSON-RPC error a request ended with. */
async function rpcError(client: TestClient, params: Record<string, unknown>): Promise<{ code: number; message: string; data?: { pointer?: string } }> {
  try {
    await client.request('tools/call', params, { timeout: 20_000 });
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
});

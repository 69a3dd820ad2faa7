/**
 * Real MCP servers from npm behind the gateway, driven by the official SDK clients of both
 * generations (v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/client`).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';
import { connectStdio, gatewayArgv, pages, SERVERS, tempDir, type SdkGeneration, type TestClient } from './helpers.js';

const dir = tempDir();
const store = join(dir, 'trc.sqlite');
const open: TestClient[] = [];
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
});

async function client(gen: SdkGeneration, argv: readonly string[], capabilities = {}, env: Record<string, string> = {}): Promise<TestClient> {
  const c = await connectStdio(gen, argv, { capabilities, env });
  open.push(c);
  return c;
}


function envelopeOf(result: Record<string, unknown>) {
  const env = (result['_meta'] as Record<string, unknown> | undefined)?.[ENVELOPE_META_KEY];
  expect(env, 'result carries the envelope under _meta').toBeDefined();
  const verdict = validate(env);
  expect(verdict.findings.filter((f) => f.severity === 'error')).toEqual([]);
  return env as { status: string; data: unknown; completeness?: { state: string }; resources?: { uri: string; bytes: number; sha256: string }[]; warnings: unknown[] };
}

describe.each(['v1', 'v2'] as const)('server-everything behind the gateway, SDK client %s', (gen) => {
  const caps = { sampling: {}, elicitation: {} };

  it('negotiates protocol 2025-11-25 and reports the upstream server identity', async () => {
    const c = await client(gen, gatewayArgv(SERVERS.everything, ['--store', store]), caps);
    expect(c.protocolVersion()).toBe('2025-11-25');
    expect(c.serverName()).toBe('mcp-servers/everything');
  });

  it('lists tools, resources (every page), templates and prompts exactly as a direct connection does', async () => {
    const direct = await client(gen, SERVERS.everything, caps);
    const via = await client(gen, gatewayArgv(SERVERS.everything, ['--store', store]), caps);
    // Conditional tools are registered after `initialized`; let both servers settle.
    await new Promise((r) => setTimeout(r, 500));
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
      const [a, b] = await Promise.all([pages(direct, method), pages(via, method)]);
      expect(b, method).toEqual(a);
    }
  });

  it('returns a valid envelope for every tool it calls, through the SDK callTool', async () => {
    const c = await client(gen, gatewayArgv(SERVERS.everything, ['--store', store]), caps);
    await c.listTools();
    const calls: [string, Record<string, unknown>][] = [
      ['echo', { message: 'hello' }],
      ['get-sum', { a: 2, b: 40 }],
      ['get-structured-content', { location: 'New York' }],
      ['get-tiny-image', {}],
      ['get-annotated-message', { messageType: 'error', includeImage: true }],
      ['get-resource-links', { count: 3 }],
      ['get-resource-reference', { resourceType: 'Text', resourceId: 1 }],
      ['get-env', {}],
    ];
    for (const [name, args] of calls) {
      const result = await c.callTool(name, args);
      const env = envelopeOf(result);
      expect(env.status, name).toMatch(/^(succeeded|partial)$/);
    }
    const structured = await c.callTool('get-structured-content', { location: 'Chicago' });
    expect(structured['structuredContent']).toEqual(envelopeOf(structured).data);
    const sum = await c.callTool('get-sum', { a: 2, b: 40 });
    expect(JSON.stringify(sum['content'])).toContain('42');
  });

  it('relays progress notifications under the client token and the final result', async () => {
    const c = await client(gen, gatewayArgv(SERVERS.everything, ['--store', store]), caps);
    const seen: unknown[] = [];
    const result = await c.request('tools/call', { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 3 } }, { onprogress: (p) => seen.push(p) });
    expect(seen.length).toBe(3);
    expect(envelopeOf(result).status).toBe('succeeded');
  });
});

describe.each(['v1', 'v2'] as const)('server-memory behind the gateway, SDK client %s', (gen) => {
  it('creates entities, reads the graph and searches it with valid envelopes', async () => {
    const memFile = join(tempDir(), `memory-${gen}.jsonl`);
    const c = await client(gen, gatewayArgv(SERVERS.memory, ['--store', store]), {}, { MEMORY_FILE_PATH: memFile });
    await c.listTools();
    const created = await c.callTool('create_entities', { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] });
    expect(envelopeOf(created).status).toBe('succeeded');
    const graph = envelopeOf(await c.callTool('read_graph', {}));
    expect(graph.data).toMatchObject({ entities: [{ name: 'Ada', entityType: 'person' }] });
    const found = envelopeOf(await c.callTool('search_nodes', { query: 'Ada' }));
    expect(JSON.stringify(found.data)).toContain('first program');
  });

  it('lists tools exactly as a direct connection does', async () => {
    const memFile = join(tempDir(), `memory-list-${gen}.jsonl`);
    const direct = await client(gen, SERVERS.memory, {}, { MEMORY_FILE_PATH: memFile });
    const via = await client(gen, gatewayArgv(SERVERS.memory, ['--store', store]), {}, { MEMORY_FILE_PATH: memFile });
    expect(await pages(via, 'tools/list')).toEqual(await pages(direct, 'tools/list'));
  });
});

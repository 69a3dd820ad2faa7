/**
 * Real MCP servers from npm behind the gateway, driven by the official SDK clients of both
 * generations (v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/client`).
 */
import { writeFileSync } from 'node:fs';
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

/** What a client gets for a listing: every page, or the JSON-RPC error code when there is none. */
async function listing(c: TestClient, method: string): Promise<unknown> {
  try {
    return await pages(c, method);
  } catch (error) {
    return { error: (error as { code?: number }).code };
  }
}

const LISTINGS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'];
const files = tempDir('trc-real-files-');
writeFileSync(join(files, 'fox.txt'), 'The quick brown fox jumps over the lazy dog 42.');
const REAL = {
  everything: { argv: SERVERS.everything, env: {} },
  filesystem: { argv: SERVERS.filesystem(files), env: {} },
  memory: { argv: SERVERS.memory, env: { MEMORY_FILE_PATH: join(files, 'memory.jsonl') } },
  sequential: { argv: SERVERS.sequential, env: { DISABLE_THOUGHT_LOGGING: 'true' } },
} as const;

describe.each(['v1', 'v2'] as const)('four real servers behind the gateway, SDK client %s', (gen) => {
  it.each(Object.keys(REAL) as (keyof typeof REAL)[])('%s: every listing is what a direct connection gets (pages, or the same -32601)', async (name) => {
    const { argv, env } = REAL[name];
    const direct = await client(gen, argv, {}, env);
    const gw = await client(gen, gatewayArgv(argv, ['--store', store]), {}, env);
    await new Promise((r) => setTimeout(r, 300));
    for (const method of LISTINGS) expect(await listing(gw, method), `${name} ${method}`).toEqual(await listing(direct, method));
  });

  it('returns every error result as a result, as directly, never thrown by callTool (filesystem, memory, sequential-thinking)', async () => {
    const cases: [keyof typeof REAL, string, Record<string, unknown>][] = [
      ['filesystem', 'read_text_file', { path: '/etc/passwd' }],
      ['filesystem', 'read_text_file', { path: join(files, 'missing.txt') }],
      ['memory', 'add_observations', { observations: [{ entityName: 'Nobody', contents: ['x'] }] }],
      ['sequential', 'sequentialthinking', { thought: 'x' }],
    ];
    for (const [name, tool, args] of cases) {
      const { argv, env } = REAL[name];
      const direct = await client(gen, argv, {}, env);
      const gw = await client(gen, gatewayArgv(argv, ['--store', store]), {}, env);
      await Promise.all([direct.listTools(), gw.listTools()]);
      const d = await direct.callTool(tool, args);
      const g = await gw.callTool(tool, args);
      expect(d['isError'], `${name} ${tool} direct`).toBe(true);
      expect(g['isError'], `${name} ${tool}`).toBe(true);
      expect(g['structuredContent'], `${name} ${tool}`).toBeUndefined();
      expect(envelopeOf(g).status).toBe('failed');
    }
  }, 120_000);

  // server-everything stamps a dynamic resource with the time it was made ("created at 11:21:24
  // AM"): two reads a second apart differ there and only there.
  const unclocked = (block: unknown): unknown => JSON.parse(JSON.stringify(block).replace(/created at \d{1,2}:\d{2}:\d{2}(?: [AP]M)?/g, 'created at <time>'));

  it('server-everything: images, resource links, embedded resources and annotations come back as the same blocks, bytes identical', async () => {
    const direct = await client(gen, SERVERS.everything);
    const gw = await client(gen, gatewayArgv(SERVERS.everything, ['--store', store]));
    await Promise.all([direct.listTools(), gw.listTools()]);
    for (const [tool, args] of [['get-tiny-image', {}], ['get-resource-links', { count: 3 }], ['get-resource-reference', { resourceType: 'Text', resourceId: 1 }], ['get-annotated-message', { messageType: 'error', includeImage: true }]] as const) {
      const want = (await direct.callTool(tool, args))['content'] as Record<string, unknown>[];
      const got = (await gw.callTool(tool, args))['content'] as Record<string, unknown>[];
      expect(got.map((b) => b['type']), tool).toEqual([...want.map((b) => b['type']), 'text']);
      want.forEach((b, i) => {
        if (b['type'] === 'text') expect(String(got[i]?.['text']), tool).toContain(String(b['text']));
        else expect(unclocked(got[i]), `${tool} block ${i}`).toEqual(unclocked(b));
      });
    }
  }, 60_000);

  it('server-filesystem: a 47-character file renders small, is a read, and its text copy is no E7 mismatch', async () => {
    const gw = await client(gen, gatewayArgv(REAL.filesystem.argv, ['--store', store]));
    await gw.listTools();
    const r = await gw.callTool('read_text_file', { path: join(files, 'fox.txt') });
    const env = envelopeOf(r) as unknown as { side_effect: Record<string, unknown>; warnings: { code: string }[]; citable?: boolean };
    const modelText = (r['content'] as { type: string; text?: string }[]).filter((b) => b.type === 'text').map((b) => b.text ?? '').join('');
    // Measured: 47 characters of file become 655 characters in all (boundary and label 247, contract view 408).
    expect(modelText.length).toBeLessThan(47 + 700);
    expect(modelText.split('The quick brown fox').length - 1).toBe(1);
    expect(env.side_effect).toEqual({ occurred: false, operation: 'read' });
    expect(env.warnings).toEqual([]);
    expect(env.citable).not.toBe(false);
  });
});

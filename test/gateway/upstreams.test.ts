/**
 * Listing pass-through and several upstreams: with one upstream, paginated listings come back
 * page by page exactly as from a direct connection; with several, listings are merged and
 * colliding names are namespaced `<upstream>__<name>`, and calls are routed accordingly.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ENVELOPE_META_KEY } from '../../src/gateway/index.js';
import { connectStdio, gatewayArgv, pages, SERVERS, tempDir, type SdkGeneration, type TestClient } from './helpers.js';

const paged = [process.execPath, fileURLToPath(new URL('./fixtures/paged-server.mjs', import.meta.url))];
const multi = fileURLToPath(new URL('./fixtures/multi.yaml', import.meta.url));
const dir = tempDir();
const open: TestClient[] = [];
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
});


describe.each(['v1', 'v2'] as const)('paginated listings, SDK client %s', (gen: SdkGeneration) => {
  it('passes every page and cursor of tools, resources and prompts through unchanged', async () => {
    const direct = await connectStdio(gen, paged);
    const via = await connectStdio(gen, gatewayArgv(paged, ['--store', join(dir, `p-${gen}.sqlite`)]));
    open.push(direct, via);
    for (const method of ['tools/list', 'resources/list', 'prompts/list']) {
      const [a, b] = await Promise.all([pages(direct, method), pages(via, method)]);
      expect(a.length).toBe(3);
      expect(b, method).toEqual(a);
    }
    expect(await via.request('resources/read', { uri: 'paged://r/3' })).toEqual(await direct.request('resources/read', { uri: 'paged://r/3' }));
  });
});

describe('several upstreams under one gateway', () => {
  it('merges listings, namespaces colliding names and routes calls to the right upstream', async () => {
    const c = await connectStdio('v1', gatewayArgv([], ['--store', join(dir, 'multi.sqlite'), '--config', multi]).slice(0, -1));
    open.push(c);
    const tools = ((await c.request('tools/list', {}))['tools'] as { name: string }[]).map((t) => t.name);
    expect(tools).toContain('a__tool_0');
    expect(tools).toContain('b__tool_4');
    expect(tools).toContain('echo');
    expect(tools).not.toContain('tool_0');
    const result = await c.request('tools/call', { name: 'b__tool_2', arguments: {} });
    const env = (result['_meta'] as Record<string, unknown>)[ENVELOPE_META_KEY] as { status: string; call: { tool_name: string }; provenance: { source_id: string } };
    expect(env.status).toBe('succeeded');
    expect(env.call.tool_name).toBe('b__tool_2');
    expect(env.provenance.source_id).toBe('b/tool_2');
    expect(JSON.stringify(result['content'])).toContain('called tool_2');
    const echo = await c.request('tools/call', { name: 'echo', arguments: { message: 'routed' } });
    expect(JSON.stringify(echo['content'])).toContain('routed');
    const prompts = ((await c.request('prompts/list', {}))['prompts'] as { name: string }[]).map((p) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(['a__prompt_0', 'b__prompt_0']));
    const resources = (await c.request('resources/list', {}))['resources'] as unknown[];
    expect(resources).toHaveLength(10);
    await expect(c.request('tools/call', { name: 'tool_0', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});



describe('a Streamable HTTP upstream', () => {
  it('is reached by URL from the config; the envelope a trusted upstream sent (a gateway behind a gateway) is adopted, an untrusted one is not', async () => {
    const { serveHttp } = await import('../../src/gateway/index.js');
    const { createMemoryStore } = await import('../../src/store/index.js');
    const { writeFileSync } = await import('node:fs');
    const [command, ...args] = SERVERS.faulty as unknown as [string, ...string[]];
    const inner = await serveHttp({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, upstreams: [{ name: 'faulty', command, args }] } }, { port: 0 });
    try {
      const config = join(dir, 'http-upstream.json');
      for (const trusted of [true, false]) {
        writeFileSync(config, JSON.stringify({ defaults: { effect: 'read' }, upstreams: [{ name: 'remote', url: inner.url, trusted }] }));
        const c = await connectStdio('v2', gatewayArgv([], ['--store', join(dir, `http-up-${trusted}.sqlite`), '--config', config]).slice(0, -1));
        open.push(c);
        const result = await c.request('tools/call', { name: 'echo', arguments: { message: 'over http' } });
        const env = (result['_meta'] as Record<string, unknown>)[ENVELOPE_META_KEY] as { status: string; provenance: { source_id: string } };
        expect(env.status).toBe('succeeded');
        // A trusted inner gateway's envelope names the real source and is kept; an untrusted one is only checked.
        expect(env.provenance.source_id).toBe(trusted ? 'faulty/echo' : 'remote/echo');
        await c.close();
      }
    } finally {
      await inner.close();
    }
  });
});

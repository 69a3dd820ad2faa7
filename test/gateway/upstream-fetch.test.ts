import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { getEventListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownSignalFetch } from '../../src/gateway/index.js';

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"ok":true}'); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
});
afterAll(() => { server.closeAllConnections(); server.close(); });

describe('gateway — the fetch of HTTP upstreams', () => {
  it('leaves one listener on the transport signal however many requests it makes', async () => {
    const outer = new AbortController();
    const seen = new Set<AbortSignal>();
    const f = ownSignalFetch(async (u, init) => { if (init?.signal) seen.add(init.signal); return fetch(u, init); });
    for (let i = 0; i < 300; i++) expect(await (await f(url, { signal: outer.signal })).json()).toEqual({ ok: true });
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(1);
    // Node's fetch got a signal of each request's own, never the transport's.
    expect(seen.size).toBe(300);
    expect(seen.has(outer.signal)).toBe(false);
  });

  it('passes a request with no signal, or an aborted one, through unchanged', async () => {
    const got: (AbortSignal | null | undefined)[] = [];
    const f = ownSignalFetch(async (u, init) => { got.push(init?.signal); return fetch(u, init); });
    await (await f(url)).text();
    const aborted = AbortSignal.abort();
    await expect(f(url, { signal: aborted })).rejects.toThrow();
    expect(got).toEqual([undefined, aborted]);
  });

  it('aborts every request still alive when the transport signal aborts', async () => {
    const outer = new AbortController();
    const slow = createServer((_req, res) => { res.writeHead(200); res.write('a'); });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const slowUrl = `http://127.0.0.1:${(slow.address() as { port: number }).port}/`;
    try {
      const f = ownSignalFetch();
      const readers = await Promise.all([1, 2, 3].map(async () => (await f(slowUrl, { signal: outer.signal })).body!.getReader()));
      for (const r of readers) await r.read();
      const reads = readers.map((r) => r.read().then(() => 'resolved', (e: Error) => e.name));
      outer.abort();
      expect(await Promise.all(reads)).toEqual(['AbortError', 'AbortError', 'AbortError']);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it('still aborts a streaming request after garbage collections (the listener holds it weakly)', () => {
    const script = fileURLToPath(new URL('./fixtures/own-signal-abort.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).not.toMatch(/Error/);
    expect(JSON.parse(run.stdout.trim())).toEqual({ outcome: 'AbortError' });
  });

  it('keeps the SDK client transport to one listener against a real server', async () => {
    const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
    const port = await freePort();
    const server = spawn(process.execPath, [everything, 'streamableHttp'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: String(port) } });
    try {
      await new Promise<void>((resolve, reject) => {
        let seen = '';
        const on = (c: Buffer): void => { seen += c.toString(); if (/listening on port/i.test(seen)) resolve(); };
        server.stdout.on('data', on);
        server.stderr.on('data', on);
        server.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${seen}`)));
      });
      const signals = new Set<AbortSignal>();
      const own = ownSignalFetch();
      const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        fetch: (u, init) => { if (init?.signal) signals.add(init.signal); return own(u, init); },
      });
      const client = new Client({ name: 'listener-count', version: '1' }, { capabilities: {} });
      await client.connect(transport);
      for (let i = 0; i < 200; i++) expect((await client.callTool({ name: 'echo', arguments: { message: `m${i}` } })).isError).toBeFalsy();
      // The transport hands every request its one signal; that signal carries only our listener.
      expect(signals.size).toBe(1);
      for (const s of signals) expect(getEventListeners(s, 'abort')).toHaveLength(1);
      await client.close();
    } finally {
      server.kill();
    }
  }, 60_000);
});

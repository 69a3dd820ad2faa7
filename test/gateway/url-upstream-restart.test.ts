/**
 * A URL upstream that restarts forgets its sessions and answers 404 for the old one; the spec
 * tells a client to start a new session then. The gateway does, on the next call (a write too:
 * a 404 means the request was not processed), instead of failing every call for good. While the
 * upstream is down, a call is refused as not sent. Real HTTP, the official SDK on both sides.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closedAfterAll, connectStdio, gatewayArgv, envelopeOf, tempDir, type TestClient } from './helpers.js';

/** A stateful Streamable HTTP MCP server with an `echo` tool, on `port` (0: any). */
async function upstream(port: number): Promise<{ port: number; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer((req, res) => {
    void (async () => {
      const sid = req.headers['mcp-session-id'];
      let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (typeof sid === 'string' && transport === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
        return;
      }
      if (transport === undefined) {
        const fresh = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void transports.set(id, fresh) });
        const server = new McpServer({ name: 'restarting', version: '1.0.0' });
        server.registerTool('echo', { description: 'echo', inputSchema: { message: z.string() } }, async ({ message }) => ({ content: [{ type: 'text', text: message }] }));
        await server.connect(fresh);
        transport = fresh;
      }
      await transport.handleRequest(req, res);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    port: (http.address() as AddressInfo).port,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const dir = tempDir('trc-url-restart-');
const open = closedAfterAll();

describe('a URL upstream that restarts', () => {
  it('gets a new session on the next call, and a call while it is down is refused as not sent', async () => {
    let up = await upstream(0);
    const config = join(dir, 'gateway.yaml');
    writeFileSync(config, `defaults:\n  effect: read\nupstreams:\n  - name: up\n    url: http://127.0.0.1:${up.port}/mcp\n    tools:\n      echo:\n        effect: write\n`);
    const c: TestClient = await connectStdio('v1', gatewayArgv([], ['--config', config, '--store', join(dir, 'gw.sqlite')]).filter((a) => a !== '--'));
    open.push(c);
    expect(envelopeOf(await c.callTool('echo', { message: 'one' })).status).toBe('succeeded');
    await up.close();
    const down = envelopeOf(await c.callTool('echo', { message: 'two' }));
    expect(down.status).toBe('failed');
    expect(down.side_effect.occurred).toBe(false);
    up = await upstream(up.port);
    open.push(up);
    const after = envelopeOf(await c.callTool('echo', { message: 'three' }));
    expect(after.status).toBe('succeeded');
    expect((await c.listTools())['tools']).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'echo' })]));
  }, 60_000);
});

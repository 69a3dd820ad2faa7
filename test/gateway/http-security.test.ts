/**
 * The HTTP gateway's own door: DNS-rebinding checks (Host, Origin), the bearer token, and an
 * HTTP upstream that needs a token. Real SDK clients, real HTTP.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ENVELOPE_META_KEY, checkGatewayConfig, serveHttp, type HttpGateway } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { alive, connectStdio, eventually, gatewayArgv, SERVERS, tempDir, type TestClient } from './helpers.js';

const [command, ...args] = SERVERS.faulty as unknown as [string, ...string[]];
const options = () => ({ store: createMemoryStore(), config: { defaults: { effect: 'read' as const }, upstreams: [{ name: 'faulty', command, args }] } });
const open: (HttpGateway | TestClient)[] = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
});

/** POST an initialize request with raw headers; resolves with the status code and body. */
function post(gw: HttpGateway, headers: Record<string, string>): Promise<{ status: number; body: string; auth: string | undefined }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: gw.port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), auth: res.headers['www-authenticate'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function sdkClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'sec-test', version: '1' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token === undefined ? undefined : { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  open.push({ close: () => client.close() } as HttpGateway);
  return client;
}

describe('the HTTP gateway against DNS rebinding', () => {
  it('answers loopback Host names only, and refuses foreign browser origins', async () => {
    const gw = await serveHttp(options(), { port: 0 });
    open.push(gw);
    expect((await post(gw, { host: 'attacker.example' })).status).toBe(403);
    expect((await post(gw, { host: `evil.test:${gw.port}` })).body).toContain('DNS rebinding');
    expect((await post(gw, { origin: 'http://evil.test' })).status).toBe(403);
    expect((await post(gw, { origin: 'null' })).status).toBe(403);
    // A loopback origin (a local web client) and no origin at all (any non-browser client) pass.
    expect((await post(gw, { origin: `http://localhost:${gw.port}` })).status).toBe(200);
    const client = await sdkClient(gw.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('lets an explicitly allowed origin through', async () => {
    const gw = await serveHttp(options(), { port: 0, allowedOrigins: ['https://app.example.com'] });
    open.push(gw);
    expect((await post(gw, { origin: 'https://app.example.com' })).status).toBe(200);
    expect((await post(gw, { origin: 'https://app.example.com.evil.test' })).status).toBe(403);
  });
});

describe('the HTTP gateway with a bearer token', () => {
  it('refuses requests without the right token and serves a client that sends it', async () => {
    const gw = await serveHttp(options(), { port: 0, token: 's3cret-token' });
    open.push(gw);
    const none = await post(gw, {});
    expect(none.status).toBe(401);
    expect(none.auth).toBe('Bearer');
    expect((await post(gw, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(gw, { authorization: 'Bearer s3cret-token' })).status).toBe(200);
    await expect(sdkClient(gw.url)).rejects.toThrow();
    const client = await sdkClient(gw.url, 's3cret-token');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect((result._meta as Record<string, { status: string }>)[ENVELOPE_META_KEY]?.status).toBe('succeeded');
  });

  it('refuses to listen on a non-loopback interface without a token', async () => {
    await expect(serveHttp(options(), { port: 0, host: '0.0.0.0' })).rejects.toMatchObject({ code: 'GATEWAY_HTTP_NEEDS_TOKEN' });
    const cli = await runCli(['gateway', '--http', '0', '--host', '0.0.0.0', '--store', ':memory:', '--', command, ...args], { env: { TRC_GATEWAY_TOKEN: '' } });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('TRC_GATEWAY_TOKEN');
  });
});

describe('an HTTP upstream that needs a token', () => {
  it('is reached with the token named by bearer_token_env, and the config is refused when that variable is unset', async () => {
    const inner = await serveHttp(options(), { port: 0, token: 'inner-token' });
    open.push(inner);
    const dir = tempDir('trc-gw-sec-');
    const config = join(dir, 'outer.json');
    const upstream = { name: 'remote', url: inner.url, bearer_token_env: 'TRC_TEST_INNER_TOKEN' };
    writeFileSync(config, JSON.stringify({ defaults: { effect: 'read' }, upstreams: [upstream] }));
    const c = await connectStdio('v1', gatewayArgv([], ['--store', join(dir, 'outer.sqlite'), '--config', config]).slice(0, -1), { env: { TRC_TEST_INNER_TOKEN: 'inner-token' } });
    open.push(c);
    const result = await c.request('tools/call', { name: 'echo', arguments: { message: 'through two gateways' } });
    expect(((result['_meta'] as Record<string, { status: string }>)[ENVELOPE_META_KEY])?.status).toBe('succeeded');

    delete process.env['TRC_TEST_INNER_TOKEN'];
    expect(checkGatewayConfig({ upstreams: [upstream] })).toEqual([{ pointer: '/upstreams/0/bearer_token_env', line: null, message: 'environment variable TRC_TEST_INNER_TOKEN is not set' }]);
    expect(checkGatewayConfig({ upstreams: [{ name: 'x', command: 'node', bearer_token_env: 'A' }] })[0]?.message).toContain('"url" upstream only');
  });
});

describe('HTTP sessions do not pile up', () => {
  it('closes a session whose client vanished without DELETE, and stops its upstream process', async () => {
    const pidFile = join(tempDir('trc-gw-idle-'), 'pids');
    writeFileSync(pidFile, '');
    const gw = await serveHttp({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, upstreams: [{ name: 'faulty', command, args, env: { PID_FILE: pidFile } }] } }, { port: 0, idleTimeoutMs: 300 });
    open.push(gw);
    const client = new Client({ name: 'vanishing', version: '1' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(gw.url)));
    await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(gw.sessions.size).toBe(1);
    const pid = Number(readFileSync(pidFile, 'utf8').trim().split('\n')[0]);
    expect(alive(pid)).toBe(true);
    // The client goes away without ending its session (no DELETE).
    await client.close();
    await eventually(() => gw.sessions.size === 0, 10_000);
    await eventually(() => !alive(pid), 10_000);
  });

  it('keeps a session that is used, and refuses sessions beyond the limit with 503', async () => {
    const gw = await serveHttp(options(), { port: 0, idleTimeoutMs: 60_000, maxSessions: 1 });
    open.push(gw);
    const first = await sdkClient(gw.url);
    expect((await post(gw, {})).status).toBe(503);
    expect((await post(gw, {})).body).toContain('--max-sessions');
    expect((await first.callTool({ name: 'echo', arguments: { message: 'still here' } })).isError).not.toBe(true);
    expect(gw.sessions.size).toBe(1);
  });
});

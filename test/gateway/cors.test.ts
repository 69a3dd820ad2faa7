/**
 * CORS on the HTTP gateway: a page on an origin given with `allowedOrigins` (`--allow-origin`)
 * calls the gateway and reads its answers, in a real headless Chromium (playwright-core) against
 * the real gateway and a real upstream; a page on another origin cannot. The headers themselves
 * are checked with plain HTTP requests.
 */
import { createServer, request, type Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type HttpGateway } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { chromiumBinary } from '../helpers/chromium.js';
import { SERVERS } from './helpers.js';

const TOKEN = 'cors-test-token';
const [command, ...args] = SERVERS.faulty as unknown as [string, ...string[]];
const closers: (() => Promise<unknown>)[] = [];
let pages: { allowed: string; other: string };
let gw: HttpGateway;
let browser: Browser;

/** A server that serves one empty page, so a browser has an origin to run a script from. */
async function pageServer(): Promise<string> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>client</title>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
}

beforeAll(async () => {
  pages = { allowed: await pageServer(), other: await pageServer() };
  gw = await serveHttp({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, upstreams: [{ name: 'faulty', command, args }] } }, { port: 0, token: TOKEN, allowedOrigins: [pages.allowed] });
  closers.push(() => gw.close());
  browser = await chromium.launch({ executablePath: chromiumBinary(), args: ['--no-sandbox', '--disable-gpu'] });
  closers.push(() => browser.close());
}, 120_000);
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

/** A raw request to the gateway; resolves with the status and the response headers. */
function raw(method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: gw.port, path: '/mcp', method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const preflight = (origin: string) => raw('OPTIONS', { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' });

describe('CORS headers', () => {
  it('answers an allowed origin\'s preflight without a token, with the methods and headers it asked for', async () => {
    const r = await preflight(pages.allowed);
    expect(r.status).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe(pages.allowed);
    expect(r.headers['access-control-allow-methods']).toBe('GET, POST, DELETE');
    expect(r.headers['access-control-allow-headers']).toBe('authorization, content-type, mcp-protocol-version');
    expect(r.headers['vary']).toContain('Origin');
  });

  it('gives a loopback origin that was not listed no CORS headers, so its preflight meets the token check', async () => {
    const r = await preflight(pages.other);
    expect(r.status).toBe(401);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets an allowed page read a 401 and its WWW-Authenticate', async () => {
    const r = await raw('POST', { origin: pages.allowed, 'content-type': 'application/json' }, '{}');
    expect(r.status).toBe(401);
    expect(r.headers['access-control-allow-origin']).toBe(pages.allowed);
    expect(r.headers['access-control-expose-headers']).toContain('www-authenticate');
    expect(r.headers['www-authenticate']).toBe('Bearer');
  });

  it('still refuses a foreign origin with 403 before anything else', async () => {
    const r = await preflight('https://evil.example');
    expect(r.status).toBe(403);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });
});

// Runs in the page: initialize, then call `echo` with the session id read from the response.
async function mcpFromPage(input: { url: string; token: string }): Promise<{ session: string | null; text: string } | { error: string }> {
  const rpc = async (body: unknown, session: string | null): Promise<Response> => fetch(input.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${input.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...(session === null ? {} : { 'mcp-session-id': session }) },
    body: JSON.stringify(body),
  });
  try {
    const init = await rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } } }, null);
    const session = init.headers.get('mcp-session-id');
    await init.text();
    await (await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    const call = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { message: 'from the page' } } }, session);
    return { session, text: await call.text() };
  } catch (error) {
    return { error: String(error) };
  }
}

describe('CORS in a real browser', () => {
  it('lets a page on an allowed origin open a session and call a tool', async () => {
    const page = await browser.newPage();
    await page.goto(pages.allowed);
    const result = await page.evaluate(mcpFromPage, { url: gw.url, token: TOKEN });
    await page.close();
    expect(result).not.toHaveProperty('error');
    const ok = result as { session: string | null; text: string };
    expect(ok.session).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.text).toContain('from the page');
  }, 60_000);

  it('keeps the answers from a page on an origin that was not allowed', async () => {
    const page = await browser.newPage();
    await page.goto(pages.other);
    const result = await page.evaluate(mcpFromPage, { url: gw.url, token: TOKEN });
    await page.close();
    expect(result).toEqual({ error: expect.stringContaining('Failed to fetch') });
  }, 60_000);
});

/**
 * Streamable HTTP done right: what an upstream sends during a call travels on that call's own
 * stream (a client without a GET stream does not hang), streams are resumable (priming event,
 * `retry`, Last-Event-ID replay), and no upstream process outlives its session, whatever order
 * things close in — including SIGTERM of the CLI. Real servers, real SDK clients, real HTTP.
 */
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { serveHttp, type HttpGateway } from '../../src/gateway/index.js';
import { WindowEventStore } from '../../src/gateway/event-store.js';
import { createMemoryStore } from '../../src/store/index.js';
import { alive, eventually, gatewayArgv, SERVERS } from './helpers.js';

const fixture = fileURLToPath(new URL('../conformance/fixtures/conformance-server.mjs', import.meta.url));
/** The conformance fixture, started only after `ms`: an upstream that is slow to come up. */
const slowFixture = (ms: number) => [process.execPath, '-e', `setTimeout(() => import(${JSON.stringify(fixture)}), ${ms})`];
const gatewayFor = (argv: readonly string[]) => {
  const [command, ...args] = argv as [string, ...string[]];
  return { store: createMemoryStore(), config: { defaults: { effect: 'read' as const }, upstreams: [{ name: 'up', command, args }] } };
};
const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
});

/** A v1 client that never opens the standalone GET stream (its GET is answered 405 locally). */
async function clientWithoutGetStream(url: string, capabilities: Record<string, unknown>): Promise<Client> {
  const client = new Client({ name: 'no-get', version: '1' }, { capabilities });
  const noGet = (input: string | URL | Request, init?: RequestInit) => (init?.method === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: noGet }));
  open.push(client);
  return client;
}

const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const headers = (sid?: string) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...(sid === undefined ? {} : { 'mcp-session-id': sid }) });

/** Read SSE events from a response body until `stop` says so. */
async function readEvents(res: Response, stop: (events: { id?: string; retry?: string; data: string }[]) => boolean): Promise<{ id?: string; retry?: string; data: string }[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  const events: { id?: string; retry?: string; data: string }[] = [];
  let buffer = '';
  while (!stop(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const e: { id?: string; retry?: string; data: string } = { data: '' };
      for (const line of block.split('\n')) {
        const [k, ...v] = line.split(':');
        const val = v.join(':').replace(/^ /, '');
        if (k === 'id') e.id = val;
        else if (k === 'retry') e.retry = val;
        else if (k === 'data') e.data += val;
      }
      events.push(e);
    }
  }
  await reader.cancel().catch(() => undefined);
  return events;
}

describe('messages tied to a call travel on its own stream', () => {
  it('answers sampling and elicitation of server-everything for a v1 client that opens no GET stream', async () => {
    const gw = await serveHttp(gatewayFor(SERVERS.everything), { port: 0 });
    open.push(gw);
    const client = await clientWithoutGetStream(gw.url, { sampling: {}, elicitation: {} });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled 4471' }, model: 'm', stopReason: 'endTurn' }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { color: 'teal', number: 5, pets: 'dogs' } }));
    const sampled = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 5 } }, undefined, { timeout: 20_000 });
    expect(JSON.stringify(sampled)).toContain('sampled 4471');
    const elicited = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} }, undefined, { timeout: 20_000 });
    expect(JSON.stringify(elicited)).toContain('teal');
  }, 60_000);

  it('delivers log messages sent during a call on that call’s stream', async () => {
    const gw = await serveHttp(gatewayFor([process.execPath, fixture]), { port: 0 });
    open.push(gw);
    const client = await clientWithoutGetStream(gw.url, {});
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
  }, 60_000);
});

describe('resumable streams', () => {
  it('primes each stream with an event id and a retry interval, and replays what a broken stream missed', async () => {
    const gw = await serveHttp(gatewayFor([process.execPath, fixture]), { port: 0 });
    open.push(gw);
    const init = await fetch(gw.url, { method: 'POST', headers: headers(), body: JSON.stringify(INIT) });
    const sid = init.headers.get('mcp-session-id') as string;
    await readEvents(init, (es) => es.some((e) => e.data.includes('"result"')));
    await fetch(gw.url, { method: 'POST', headers: headers(sid), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    await fetch(gw.url, { method: 'POST', headers: headers(sid), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'debug' } }) }).then((r) => r.text());

    // The call logs three messages 50 ms apart; the client drops the stream after the priming event.
    const dropped = new AbortController();
    const call = await fetch(gw.url, { method: 'POST', headers: headers(sid), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_tool_with_logging', arguments: {} } }), signal: dropped.signal });
    const first = await readEvents(call, (es) => es.length >= 1);
    dropped.abort();
    expect(first[0]?.id).toBeTruthy();
    expect(first[0]?.data).toBe('');
    expect(first[0]?.retry).toBe('1000');

    // Until the gateway has seen the old connection close, the stream counts as still attached (409).
    let resumed!: Response;
    await eventually(async () => {
      resumed = await fetch(gw.url, { method: 'GET', headers: { ...headers(sid), accept: 'text/event-stream', 'last-event-id': first[0]?.id as string } });
      return resumed.status !== 409;
    });
    expect(resumed.status).toBe(200);
    const replay = await readEvents(resumed, (es) => es.some((e) => e.data.includes('"id":2')));
    const messages = replay.filter((e) => e.data !== '').map((e) => JSON.parse(e.data) as { method?: string; id?: number; params?: { data?: unknown } });
    expect(messages.filter((m) => m.method === 'notifications/message').map((m) => m.params?.data)).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    expect(messages.at(-1)?.id).toBe(2);
  }, 60_000);

  it('keeps a bounded window of events and replays only the stream asked for', async () => {
    const store = new WindowEventStore(3);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await store.storeEvent(i % 2 === 0 ? 'a' : 'b', { jsonrpc: '2.0', method: 'n', params: { i } }));
    const sent: unknown[] = [];
    const stream = await store.replayEventsAfter(ids[6] as string, { send: async (_id, m) => void sent.push((m as unknown as { params: { i: number } }).params.i) });
    expect(stream).toBe('a');
    expect(sent).toEqual([8]);
    // Events that left the window are gone; the stream is still known from the id.
    const early: unknown[] = [];
    await store.replayEventsAfter(ids[0] as string, { send: async (_id, m) => void early.push((m as unknown as { params: { i: number } }).params.i) });
    expect(early).not.toContain(2);
    await expect(store.replayEventsAfter('nonsense', { send: async () => undefined })).rejects.toThrow(/unknown event id/);
  });

  it('keeps no more than its bound of JSON however large the results, and still replays the newest', async () => {
    const store = new WindowEventStore(1000, 1_000_000);
    const big = (i: number) => ({ jsonrpc: '2.0' as const, id: i, result: { content: [{ type: 'text', text: `${i} ${'x'.repeat(200_000)}` }] } });
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push(await store.storeEvent('s', big(i)));
    const { events, chars } = store.stats();
    expect(chars).toBeLessThanOrEqual(1_000_000);
    expect(events).toBe(4);
    const sent: number[] = [];
    await store.replayEventsAfter(ids[46] as string, { send: async (_id, m) => void sent.push((m as unknown as { id: number }).id) });
    expect(sent).toEqual([47, 48, 49]);
    // One event larger than the bound is kept alone: the newest is always replayable.
    await store.storeEvent('s', { jsonrpc: '2.0', id: 99, result: { content: [{ type: 'text', text: 'y'.repeat(2_000_000) }] } });
    expect(store.stats().events).toBe(1);
  });
});

describe('no upstream process outlives its session', () => {
  /** PIDs of the processes a pid started (Linux). */
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };

  it('ends the upstream of a session deleted while its initialize was still connecting', async () => {
    const gw: HttpGateway = await serveHttp(gatewayFor(slowFixture(1500)), { port: 0 });
    open.push(gw);
    const before = new Set(children(process.pid));
    const init = await fetch(gw.url, { method: 'POST', headers: headers(), body: JSON.stringify(INIT) });
    const sid = init.headers.get('mcp-session-id') as string;
    expect(sid).toBeTruthy();
    await eventually(() => children(process.pid).some((p) => !before.has(p)));
    const upstream = children(process.pid).filter((p) => !before.has(p));
    const deleted = await fetch(gw.url, { method: 'DELETE', headers: headers(sid) });
    expect(deleted.status).toBe(200);
    await init.text().catch(() => '');
    await eventually(() => upstream.every((p) => !alive(p)), 20_000);
    expect(gw.sessions.size).toBe(0);
  }, 60_000);

  it('exits within its bound on SIGTERM with every upstream process ended, sessions open or still connecting', async () => {
    const argv = gatewayArgv(slowFixture(1000), ['--http', '0', '--store', ':memory:']);
    const proc = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    await eventually(() => /listening on (http:\S+)/.test(stderr), 30_000);
    const url = (/listening on (http:\S+)/.exec(stderr) as RegExpExecArray)[1] as string;
    // Two sessions up and running, one deleted while connecting, one still connecting at SIGTERM.
    const ready = await Promise.all([0, 1].map(() => clientWithoutGetStream(url, {})));
    expect(ready).toHaveLength(2);
    const a = await fetch(url, { method: 'POST', headers: headers(), body: JSON.stringify(INIT) });
    await fetch(url, { method: 'DELETE', headers: headers(a.headers.get('mcp-session-id') as string) });
    void fetch(url, { method: 'POST', headers: headers(), body: JSON.stringify(INIT) }).catch(() => undefined);
    await eventually(() => children(proc.pid as number).length >= 3, 20_000);
    const upstreams = children(proc.pid as number);
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    proc.kill('SIGTERM');
    const code = await exited;
    expect(code, stderr).toBe(0);
    await eventually(() => upstreams.every((p) => !alive(p)), 10_000);
  }, 90_000);
});

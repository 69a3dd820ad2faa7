/**
 * The inspector for a person (issue 16, item 8), over its HTTP API: the arguments as the
 * executor recorded them (secrets masked), what the model saw as the call's edge rendered it
 * (the gateway's MCP result, block for block, against what a real MCP client received), the
 * grouping keys and filters, and the live tail over Server-Sent Events.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARGS_RECORD_LIMIT } from '../../src/executor/audit.js';
import { createExecutor, defineTool, type Executor } from '../../src/executor/index.js';
import { BOUNDARY_PLACEHOLDER, startInspector, viewCall, type Inspector } from '../../src/inspector/index.js';
import type { Store } from '../../src/store/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { alive, connectStdio, eventually, gatewayArgv, SERVERS } from '../gateway/helpers.js';

const SECRET = 'hunter22-very-secret';

let dir: string;
let store: Store;
let executor: Executor;
let inspector: Inspector;
let clock = Date.parse('2026-03-01T10:00:00.000Z');

const echo = defineTool({
  name: 'account_login', description: 'Logs in', effect: 'read', risk: 'low', timeoutMs: 500, strict: false,
  source: { type: 'database', id: 'accounts' },
  input: { type: 'object', properties: { user: { type: 'string' }, password: { type: 'string' }, note: { type: 'string' } }, additionalProperties: false },
  run: (args: { user?: string }) => {
    clock += 40;
    return { data: { user: args.user ?? null, ok: true } };
  },
});

const api = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`http://127.0.0.1:${inspector.port}${path}`, { headers: { authorization: `Bearer ${inspector.token}`, ...headers } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const ids = async (query: string) => ((await api(`/api/calls?${query}`)).body['calls'] as { call_id: string }[]).map((c) => c.call_id);

/** An open SSE stream: its text so far, read on demand. */
async function openStream(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`http://127.0.0.1:${inspector.port}${path}`, { headers: { authorization: `Bearer ${inspector.token}`, ...headers } });
  const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let ended = false;
  return {
    res,
    /** Read until `pred(text)` holds or the stream ends; returns the text. */
    async until(pred: (t: string) => boolean): Promise<string> {
      while (!pred(text) && !ended) {
        const { value, done } = await reader.read();
        if (done) ended = true;
        else text += value;
      }
      return text;
    },
    ended: () => ended,
    cancel: () => reader.cancel(),
  };
}
const eventsOf = (text: string) => [...text.matchAll(/id: (\S+)\nevent: call\ndata: (.+)\n\n/gu)].map((m) => ({ id: m[1] as string, call: JSON.parse(m[2] as string) as { call_id: string; run: string | null } }));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trc-inspector-person-'));
  store = await openSqliteStore({ path: join(dir, 'trc.sqlite') });
  executor = createExecutor({ tools: [echo], store, clock: () => clock });
  const runA = executor.startRun({ id: 'run-a' });
  await executor.call({ call_id: 'c-1', tool_name: 'account_login', args: { user: 'alice', password: SECRET } }, { id: 'alice' }, { run: runA });
  clock += 1000;
  await executor.call({ call_id: 'c-2', tool_name: 'account_login', args: { user: 'bob', note: `DB_PASSWORD=${SECRET}` } }, { id: 'bob' });
  clock += 1000;
  await executor.call({ call_id: 'c-3', tool_name: 'account_login', args: { user: 'alice', note: 'x'.repeat(ARGS_RECORD_LIMIT + 10) } }, { id: 'alice' }, { run: runA });
  inspector = await startInspector({ store, tail: { pollMs: 25, heartbeatMs: 40 } });
});
afterAll(async () => {
  await inspector.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the inspector for a person', () => {
  it('shows the arguments the executor recorded, with secrets masked, never the raw secret', async () => {
    const one = (await api('/api/calls/c-1')).body;
    expect(one['args']).toEqual({ value: { user: 'alice', password: expect.stringMatching(/^\[redacted/u) } });
    const two = (await api('/api/calls/c-2')).body;
    expect((two['args'] as { value: { note: string } }).value.note).toBe('DB_PASSWORD=[redacted:named_secret]');
    // Nowhere in the stored records: the masking happened before the executor stored them.
    expect(readFileSync(join(dir, 'trc.sqlite')).includes(SECRET)).toBe(false);
    const big = (await api('/api/calls/c-3')).body['args'] as { preview: string; chars: number };
    expect(big.chars).toBeGreaterThan(ARGS_RECORD_LIMIT);
    expect(big.preview).toHaveLength(ARGS_RECORD_LIMIT);
  });

  it('shows what the model read for an in-process call: the model text', async () => {
    const seen = (await api('/api/calls/c-1')).body['model_seen'] as { wire: string; text: string };
    expect(seen.wire).toBe('text');
    expect(JSON.parse(seen.text)).toMatchObject({ status: 'succeeded', data: { user: 'alice', ok: true } });
  });

  it('groups by run and principal and filters by principal, run, status and a time window', async () => {
    const calls = (await api('/api/calls')).body['calls'] as { call_id: string; run: string | null; principal: string; session: string | null }[];
    expect(calls.map((c) => [c.call_id, c.run, c.principal, c.session])).toEqual([['c-3', 'run-a', 'alice', null], ['c-2', null, 'bob', null], ['c-1', 'run-a', 'alice', null]]);
    expect(await ids('principal=bob')).toEqual(['c-2']);
    expect(await ids('run=run-a')).toEqual(['c-3', 'c-1']);
    expect(await ids('session=none')).toEqual([]);
    expect(await ids('status=succeeded&tool=account_login')).toEqual(['c-3', 'c-2', 'c-1']);
    expect(await ids('since=2026-03-01T10:00:01Z&until=2026-03-01T10:00:02Z')).toEqual(['c-2']);
    expect((await api('/api/calls?until=soon')).body['error']).toMatchObject({ code: 'BAD_QUERY', pointer: '/until' });
    expect((await api('/api/calls?status=great')).body['error']).toMatchObject({ code: 'BAD_QUERY', pointer: '/status' });
    expect((await api('/api/events?since=never')).status).toBe(400);
    // The stream needs the token like the rest of the API.
    expect((await fetch(`http://127.0.0.1:${inspector.port}/api/events`)).status).toBe(401);
  });

  it('refuses a since or until that is not RFC 3339 with its offset, rather than reading it in the server\'s zone', async () => {
    for (const [query, pointer] of [['since=2026-03-01T10:00:01', '/since'], ['until=2026-03-01T10:00:02', '/until'], ['since=1', '/since'], ['until=Mar%201%202026', '/until']] as const) {
      expect((await api(`/api/calls?${query}`)).body['error'], query).toMatchObject({ code: 'BAD_QUERY', pointer });
    }
    // A leap second is a time RFC 3339 allows: the instant after 23:59:59.
    expect(await ids('since=2016-12-31T23:59:60Z')).toEqual(['c-3', 'c-2', 'c-1']);
  });

  it('streams a call made after the stream opened, with heartbeats, and only calls that pass its filters', async () => {
    const all = await openStream('/api/events');
    const bobOnly = await openStream('/api/events?principal=bob');
    expect(all.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    // Two heartbeats prove the stream stays open while nothing happens (counted, not timed).
    await all.until((t) => (t.match(/: heartbeat\n\n/gu) ?? []).length >= 2);
    expect(eventsOf(await all.until(() => true))).toEqual([]);
    clock += 1000;
    await executor.call({ call_id: 'c-4', tool_name: 'account_login', args: { user: 'carol' } }, { id: 'carol' });
    const events = eventsOf(await all.until((t) => eventsOf(t).length >= 1));
    expect(events.map((e) => e.call.call_id)).toEqual(['c-4']);
    expect(events[0]?.id).toBe(`${(await store.getAudit('c-4'))?.startedAt}/c-4`);
    await executor.call({ call_id: 'c-5', tool_name: 'account_login', args: { user: 'bob' } }, { id: 'bob' });
    expect(eventsOf(await bobOnly.until((t) => eventsOf(t).length >= 1)).map((e) => e.call.call_id)).toEqual(['c-5']);
    expect(eventsOf(await all.until((t) => eventsOf(t).length >= 2)).map((e) => e.call.call_id)).toEqual(['c-4', 'c-5']);
    await all.cancel();
    await bobOnly.cancel();
  });

  it('resumes after Last-Event-ID with the calls that started after it, oldest first', async () => {
    const resumed = await openStream('/api/events', { 'last-event-id': '2026-03-01T10:00:01.040Z/c-2' });
    const got = eventsOf(await resumed.until((t) => eventsOf(t).length >= 3));
    expect(got.map((e) => e.call.call_id)).toEqual(['c-3', 'c-4', 'c-5']);
    await resumed.cancel();
  });

  it('sends every call of a burst larger than the poll window, once each, oldest first', async () => {
    const burst = await openStream('/api/events?tool=burst');
    const at = Date.parse('2026-03-02T00:00:00.000Z');
    // One transaction: the next poll sees all 250 or none.
    await store.appendAuditBatch(Array.from({ length: 250 }, (_, i) => ({
      callId: `b-${String(i).padStart(3, '0')}`, tool: 'burst', principal: 'p', status: 'succeeded', argsDigest: 'sha256:00', envelopeDigest: null, detail: {},
      startedAt: new Date(at + i).toISOString(), finishedAt: new Date(at + i + 1).toISOString(),
    })));
    const got = eventsOf(await burst.until((t) => eventsOf(t).length >= 250)).map((e) => e.call.call_id);
    expect(got).toEqual(Array.from({ length: 250 }, (_, i) => `b-${String(i).padStart(3, '0')}`));
    await burst.cancel();
  });

  it('ends open streams cleanly when the inspector closes', async () => {
    const other = await startInspector({ store, tail: { pollMs: 25, heartbeatMs: 1000 } });
    const res = await fetch(`http://127.0.0.1:${other.port}/api/events`, { headers: { authorization: `Bearer ${other.token}` } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await other.close();
    // The response ends (done), rather than failing with a reset connection.
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  });
});

describe('what the model saw, through the gateway', () => {
  it('is the CallToolResult the MCP client received, block for block, with the call grouped under its session', async () => {
    const db = join(dir, 'gateway.sqlite');
    const client = await connectStdio('v1', gatewayArgv(SERVERS.everything, ['--store', db]));
    const pid = client.pid() as number;
    const got = await client.callTool('echo', { message: `hello, DB_PASSWORD=${SECRET}` });
    await client.close();
    await eventually(() => !alive(pid), 15_000);
    const gw = await openSqliteStore({ path: db });
    try {
      const [record] = await gw.listAudit({ tool: 'echo' });
      const view = await viewCall(gw, record?.callId ?? '');
      // The boundary tokens are drawn per rendering and never stored: the inspector shows them as
      // "(random)"; everything else is what the client got.
      const tokens = new Set(JSON.stringify(got['content']).match(/(?<=EXTERNAL_CONTENT )[0-9a-f]{32}(?=>>>)/gu));
      expect(tokens.size).toBe(1);
      const received = JSON.parse(JSON.stringify(got['content']).replaceAll([...tokens][0] as string, BOUNDARY_PLACEHOLDER)) as unknown;
      expect(view?.model_seen).toEqual({ wire: 'mcp', blocks: received, structured: got['structuredContent'] ?? null, is_error: got['isError'] === true });
      expect(view?.args).toEqual({ value: { message: 'hello, DB_PASSWORD=[redacted:named_secret]' } });
      const detail = record?.detail as { edge: { session: string; run: string } };
      expect(typeof detail.edge.session).toBe('string');
    } finally {
      await gw.close();
    }
  }, 60_000);
});

import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { classifyError, createAjv2020, parseRetryAfter, TrcError } from '../../src/contract/index.js';
import { ErrorSchema } from '../../src/contract/typebox.js';

/** Resolve with what `promise` rejects with; fail the test if it resolves. */
async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

function listen<T extends Server | HttpServer>(server: T): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function closedPort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

const checkError = createAjv2020().compile(ErrorSchema);

/** Every classification must be a valid envelope `error`. */
function classified(...args: Parameters<typeof classifyError>) {
  const r = classifyError(...args);
  expect(checkError(r.error), JSON.stringify(checkError.errors)).toBe(true);
  return r;
}

const READ = { writeSent: false } as const;
const WRITE = { writeSent: true, operation: 'payment.charge' } as const;

describe('classifyError on what Node really throws', () => {
  const sockets = new Set<Socket>();
  let silent: Server;
  let silentPort: number;
  let resetter: Server;
  let resetPort: number;
  let closer: Server;
  let closerPort: number;

  beforeAll(async () => {
    silent = createServer((s) => sockets.add(s)); // accepts and never answers
    silentPort = await listen(silent);
    resetter = createServer((s) => s.on('data', () => s.resetAndDestroy()));
    resetPort = await listen(resetter);
    closer = createServer((s) => s.on('data', () => s.end()));
    closerPort = await listen(closer);
  });
  afterAll(() => {
    for (const s of sockets) s.destroy();
    silent.close();
    resetter.close();
    closer.close();
  });

  it('reads a fetch to a closed local port as a retryable refused connection', async () => {
    const e = await caught(fetch(`http://127.0.0.1:${await closedPort()}/`));
    expect(e).toBeInstanceOf(TypeError);
    const r = classified(e, READ);
    expect(r).toMatchObject({ status: 'failed', kind: 'execution' });
    expect(r.error).toMatchObject({ category: 'network', code: 'CONNECTION_REFUSED', retryable: true, action: 'retry', details: { cause_code: 'ECONNREFUSED' } });
  });

  it('keeps a refused connection retryable even for a write, because no byte left', async () => {
    const e = await caught(fetch(`http://127.0.0.1:${await closedPort()}/`, { method: 'POST', body: '{}' }));
    const r = classified(e, WRITE);
    expect(r.status).toBe('failed');
    expect(r.error.retryable).toBe(true);
  });

  it('reads a node:net connect error by its code', async () => {
    const port = await closedPort();
    const e = await new Promise<unknown>((resolve) => connect(port, '127.0.0.1').on('error', resolve));
    expect(classified(e, READ).error.code).toBe('CONNECTION_REFUSED');
  });

  it('reads an unresolvable host as a DNS failure', async () => {
    const e = await caught(fetch('http://trc-test.invalid/'));
    const r = classified(e, READ);
    expect(r.error.category).toBe('network');
    expect(['HOST_NOT_FOUND', 'DNS_TEMPORARY_FAILURE']).toContain(r.error.code);
    expect(r.error.retryable).toBe(r.error.code === 'DNS_TEMPORARY_FAILURE');
  });

  it('reads a real AbortSignal.timeout before sending as a retryable timeout', async () => {
    const e = await caught(fetch(`http://127.0.0.1:${silentPort}/`, { signal: AbortSignal.timeout(50) }));
    expect((e as Error).name).toBe('TimeoutError');
    const r = classified(e, READ);
    expect(r).toMatchObject({ status: 'failed', kind: 'execution' });
    expect(r.error).toMatchObject({ category: 'transport_timeout', code: 'TIMEOUT', retryable: true, action: 'retry' });
  });

  it('turns a real timeout after the write was sent into unknown, to be looked up by idempotency key', async () => {
    const e = await caught(fetch(`http://127.0.0.1:${silentPort}/`, { method: 'POST', body: '{"amount":100}', signal: AbortSignal.timeout(50) }));
    const r = classified(e, WRITE);
    expect(r).toMatchObject({ status: 'unknown', kind: 'unknown_outcome' });
    expect(r.error).toMatchObject({
      category: 'transport_timeout',
      code: 'COMMIT_STATUS_UNKNOWN',
      retryable: false,
      action: 'query_by_idempotency_key',
      kind: 'unknown_outcome',
      details: { cause: 'TIMEOUT' },
    });
    expect(r.error.message).toContain('payment.charge');
  });

  it('reads a real AbortController.abort() as a cancellation', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    const e = await caught(fetch(`http://127.0.0.1:${silentPort}/`, { signal: ac.signal }));
    expect((e as Error).name).toBe('AbortError');
    expect(classified(e, READ).error).toMatchObject({ category: 'cancelled', code: 'CANCELLED', retryable: false, action: 'abort' });
    expect(classified(e, WRITE).status).toBe('unknown');
  });

  it('reads a real connection reset as retryable before sending and unknown after', async () => {
    const e = await caught(fetch(`http://127.0.0.1:${resetPort}/`, { method: 'POST', body: 'x' }));
    const before = classified(e, READ);
    expect(before.error).toMatchObject({ category: 'network', code: 'CONNECTION_RESET', retryable: true, details: { cause_code: 'ECONNRESET' } });
    const after = classified(e, WRITE);
    expect(after).toMatchObject({ status: 'unknown', error: { code: 'COMMIT_STATUS_UNKNOWN', details: { cause: 'CONNECTION_RESET', cause_code: 'ECONNRESET' } } });
  });

  it('reads undici "other side closed" (UND_ERR_SOCKET) as a reset', async () => {
    const e = await caught(fetch(`http://127.0.0.1:${closerPort}/`, { method: 'POST', body: 'x' }));
    expect(classified(e, READ).error).toMatchObject({ code: 'CONNECTION_RESET', details: { cause_code: 'UND_ERR_SOCKET' } });
    expect(classified(e, WRITE).status).toBe('unknown');
  });

  it('reads ETIMEDOUT and undici header/body timeouts as transport timeouts', () => {
    for (const code of ['ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
      const e = new TypeError('fetch failed', { cause: Object.assign(new Error('timeout'), { code }) });
      expect(classified(e, READ).error).toMatchObject({ category: 'transport_timeout', retryable: true });
      expect(classified(e, WRITE).error.code).toBe('COMMIT_STATUS_UNKNOWN');
    }
  });

  it('keeps a connect timeout retryable after a write, because the request never left', () => {
    const e = new TypeError('fetch failed', { cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) });
    expect(classified(e, WRITE)).toMatchObject({ status: 'failed', error: { code: 'CONNECT_TIMEOUT', retryable: true } });
  });

  it('finds the code inside an AggregateError cause (dual-stack connect)', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED ::1:80'), { code: 'ECONNREFUSED' });
    const e = new TypeError('fetch failed', { cause: new AggregateError([inner], 'connect failed') });
    expect(classified(e, READ).error.code).toBe('CONNECTION_REFUSED');
  });

  const codes: [string, string, boolean, 'definite' | 'ambiguous'][] = [
    ['ECONNREFUSED', 'CONNECTION_REFUSED', true, 'definite'],
    ['ENOTFOUND', 'HOST_NOT_FOUND', false, 'definite'],
    ['EAI_AGAIN', 'DNS_TEMPORARY_FAILURE', true, 'definite'],
    ['UND_ERR_CONNECT_TIMEOUT', 'CONNECT_TIMEOUT', true, 'definite'],
    ['CERT_HAS_EXPIRED', 'TLS_ERROR', false, 'definite'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'TLS_ERROR', false, 'definite'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'TLS_ERROR', false, 'definite'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'TLS_ERROR', false, 'definite'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'TLS_ERROR', false, 'definite'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'TLS_ERROR', false, 'definite'],
    ['ECONNRESET', 'CONNECTION_RESET', true, 'ambiguous'],
    ['ECONNABORTED', 'CONNECTION_RESET', true, 'ambiguous'],
    ['EPIPE', 'CONNECTION_RESET', true, 'ambiguous'],
    ['UND_ERR_SOCKET', 'CONNECTION_RESET', true, 'ambiguous'],
    ['UND_ERR_CLOSED', 'CONNECTION_RESET', true, 'ambiguous'],
    ['EHOSTUNREACH', 'NETWORK_UNREACHABLE', true, 'ambiguous'],
    ['ENETUNREACH', 'NETWORK_UNREACHABLE', true, 'ambiguous'],
    ['ENETDOWN', 'NETWORK_UNREACHABLE', true, 'ambiguous'],
    ['ETIMEDOUT', 'TIMEOUT', true, 'ambiguous'],
    ['ESOCKETTIMEDOUT', 'TIMEOUT', true, 'ambiguous'],
    ['UND_ERR_HEADERS_TIMEOUT', 'TIMEOUT', true, 'ambiguous'],
    ['UND_ERR_BODY_TIMEOUT', 'TIMEOUT', true, 'ambiguous'],
    ['UND_ERR_ABORTED', 'CANCELLED', false, 'ambiguous'],
  ];
  it.each(codes)('maps a fetch failure caused by %s to %s', (cause, code, retryable, afterSend) => {
    const e = new TypeError('fetch failed', { cause: Object.assign(new Error(`${cause} happened`), { code: cause }) });
    expect(classified(e, READ)).toMatchObject({ status: 'failed', error: { code, retryable, details: { cause_code: cause } } });
    const after = classified(e, WRITE);
    expect(after.status).toBe(afterSend === 'ambiguous' ? 'unknown' : 'failed');
    // A bare node:net error with the same code reads the same.
    expect(classified(Object.assign(new Error(cause), { code: cause }), READ).error.code).toBe(code);
  });

  it('reads a fetch failure with no known cause code as FETCH_FAILED', () => {
    const e = new TypeError('fetch failed', { cause: new Error('bad port') });
    expect(classified(e, READ).error).toMatchObject({ category: 'network', code: 'FETCH_FAILED', retryable: false });
    expect(classified(e, WRITE).status).toBe('unknown');
  });

  it('does not mistake the numeric DOMException code for anything else', () => {
    const e = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(e.code).toBe(23);
    expect(classified(e, READ).error.code).toBe('TIMEOUT');
  });
});

describe('classifyError on HTTP statuses', () => {
  const rows: [number, string, string, boolean, string][] = [
    [400, 'validation', 'HTTP_BAD_REQUEST', false, 'fix_arguments'],
    [401, 'authentication', 'HTTP_UNAUTHENTICATED', false, 'request_authorization'],
    [403, 'authorization', 'HTTP_FORBIDDEN', false, 'request_authorization'],
    [404, 'not_found', 'HTTP_NOT_FOUND', false, 'explain_to_user'],
    [408, 'transport_timeout', 'HTTP_REQUEST_TIMEOUT', true, 'retry'],
    [409, 'conflict', 'HTTP_CONFLICT', false, 'explain_to_user'],
    [418, 'upstream', 'HTTP_CLIENT_ERROR', false, 'abort'],
    [422, 'validation', 'HTTP_UNPROCESSABLE', false, 'fix_arguments'],
    [429, 'rate_limited', 'HTTP_RATE_LIMITED', true, 'retry_later'],
    [500, 'upstream', 'HTTP_INTERNAL_SERVER_ERROR', false, 'explain_to_user'],
    [502, 'upstream', 'HTTP_BAD_GATEWAY', true, 'retry'],
    [503, 'upstream', 'HTTP_SERVICE_UNAVAILABLE', true, 'retry_later'],
    [504, 'transport_timeout', 'HTTP_GATEWAY_TIMEOUT', true, 'retry'],
    [507, 'upstream', 'HTTP_SERVER_ERROR', false, 'explain_to_user'],
  ];
  it.each(rows)('maps HTTP %i on a read to %s / %s', (status, category, code, retryable, action) => {
    const r = classified({ httpStatus: status }, READ);
    expect(r).toMatchObject({ status: 'failed', kind: 'execution' });
    expect(r.error).toMatchObject({ category, code, retryable, action, http_status: status });
  });

  it('makes a write that got 500, 502, 504 or another 5xx unknown: the upstream may have committed', () => {
    for (const status of [500, 502, 504, 507]) {
      const r = classified({ httpStatus: status }, WRITE);
      expect(r).toMatchObject({ status: 'unknown', error: { code: 'COMMIT_STATUS_UNKNOWN', action: 'query_by_idempotency_key', http_status: status } });
    }
  });

  it('keeps a write refused with 4xx or 503 a definite failure', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429, 503]) {
      expect(classified({ httpStatus: status }, WRITE).status).toBe('failed');
    }
  });

  it('reads Retry-After from a real 429 response, in seconds and as an HTTP-date', async () => {
    const server = createHttpServer((req, res) => {
      const date = new Date(Date.UTC(2026, 8, 1, 2, 0, 30)).toUTCString();
      res.writeHead(429, { 'retry-after': req.url === '/date' ? date : '7' }).end();
    });
    const port = await listen(server);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      const r = classified({ httpStatus: res.status, retryAfter: res.headers.get('retry-after') }, READ);
      expect(r.error).toMatchObject({ code: 'HTTP_RATE_LIMITED', retry_after_ms: 7000 });
      const res2 = await fetch(`http://127.0.0.1:${port}/date`);
      const now = () => Date.UTC(2026, 8, 1, 2, 0, 0);
      const r2 = classified({ httpStatus: res2.status, retryAfter: res2.headers.get('retry-after') }, { writeSent: false, now });
      expect(r2.error.retry_after_ms).toBe(30_000);
    } finally {
      server.close();
    }
  });

  it('ignores an unreadable Retry-After and never goes negative', () => {
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter('-5', 0)).toBeUndefined();
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:00 GMT', 10_000)).toBe(0);
    expect(classified({ httpStatus: 429, retryAfter: 'soon' }, READ).error.retry_after_ms).toBeUndefined();
  });

  it('reads a failed fetch Response passed as is', () => {
    const res = new Response(null, { status: 503, headers: { 'retry-after': '3' } });
    expect(classified(res, READ).error).toMatchObject({ code: 'HTTP_SERVICE_UNAVAILABLE', retry_after_ms: 3000, http_status: 503 });
  });

  it('reads the status and Retry-After header of an SDK error object', () => {
    const e = Object.assign(new Error('429 Too Many Requests'), { status: 429, headers: new Headers({ 'retry-after': '2' }) });
    expect(classified(e, READ).error).toMatchObject({ code: 'HTTP_RATE_LIMITED', retry_after_ms: 2000 });
  });
});

describe('classifyError on JSON-RPC errors', () => {
  const rows: [number, string, string, string][] = [
    [-32700, 'protocol', 'JSONRPC_PARSE_ERROR', 'abort'],
    [-32600, 'protocol', 'JSONRPC_INVALID_REQUEST', 'abort'],
    [-32601, 'protocol', 'JSONRPC_METHOD_NOT_FOUND', 'abort'],
    [-32602, 'validation', 'JSONRPC_INVALID_PARAMS', 'fix_arguments'],
    [-32603, 'internal', 'JSONRPC_INTERNAL_ERROR', 'explain_to_user'],
    [-32002, 'not_found', 'RESOURCE_NOT_FOUND', 'explain_to_user'],
    [-32050, 'upstream', 'JSONRPC_SERVER_ERROR', 'explain_to_user'],
  ];
  it.each(rows)('maps JSON-RPC %i to a protocol error %s / %s', (code, category, stable, action) => {
    const r = classified({ jsonRpcError: { code, message: 'Unknown tool: invalid_tool_name' } }, READ);
    expect(r).toMatchObject({ status: 'failed', kind: 'protocol' });
    expect(r.error).toMatchObject({ category, code: stable, retryable: false, action, jsonrpc_code: code, kind: 'protocol' });
  });

  it('maps the MCP SDK and implementation-defined codes', () => {
    // Answered by a server, -32000 and -32001 are its own codes; thrown by the SDK, its closed connection and timeout.
    expect(classified({ jsonRpcError: { code: -32000, message: 'quota exceeded' } }, READ).error).toMatchObject({ category: 'upstream', code: 'JSONRPC_SERVER_ERROR', retryable: false });
    expect(classified({ jsonRpcError: { code: -32001 } }, READ).error).toMatchObject({ code: 'JSONRPC_SERVER_ERROR', retryable: false });
    expect(classified(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), READ).error).toMatchObject({ category: 'network', code: 'CONNECTION_CLOSED', retryable: true });
    // The SDK's own timeout carries the limit it waited; a server's -32001 rethrown by the client does not.
    expect(classified(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 60_000 }), READ).error).toMatchObject({ category: 'transport_timeout', code: 'REQUEST_TIMEOUT', retryable: true });
    expect(classified(new McpError(ErrorCode.RequestTimeout, 'the warehouse timed out', { warehouse: 'eu-1' }), READ).error).toMatchObject({ category: 'upstream', code: 'JSONRPC_SERVER_ERROR', retryable: false });
    expect(classified({ jsonRpcError: { code: -32000 } }, WRITE).status).toBe('unknown');
    expect(classified({ jsonRpcError: { code: -32042 } }, READ).error).toMatchObject({ code: 'URL_ELICITATION_REQUIRED', action: 'ask_user' });
    expect(classified({ jsonRpcError: { code: -32200 } }, READ).error.code).toBe('JSONRPC_RESERVED_ERROR');
    expect(classified({ jsonRpcError: { code: 42, message: 'insufficient funds' } }, READ)).toMatchObject({ kind: 'execution', error: { code: 'JSONRPC_APPLICATION_ERROR', jsonrpc_code: 42 } });
    expect(classified({ jsonRpcError: { code: -32603 } }, WRITE).status).toBe('unknown');
    expect(classified({ jsonRpcError: { code: -32602 } }, WRITE).status).toBe('failed');
  });

  it('reads a thrown McpError by its code', () => {
    const e = new McpError(ErrorCode.InvalidParams, 'Unknown tool: nope');
    expect(classified(e, READ).error).toMatchObject({ code: 'JSONRPC_INVALID_PARAMS', jsonrpc_code: -32602 });
  });

  it('makes a real MCP request timeout on a write unknown', async () => {
    const server = new McpServer({ name: 'slow', version: '1.0.0' });
    server.registerTool('charge', { description: 'never answers' }, () => new Promise(() => undefined));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(b);
    try {
      const e = await caught(client.callTool({ name: 'charge', arguments: {} }, undefined, { timeout: 50 }));
      expect(classified(e, READ).error).toMatchObject({ code: 'REQUEST_TIMEOUT', retryable: true, jsonrpc_code: -32001 });
      expect(classified(e, WRITE)).toMatchObject({ status: 'unknown', error: { code: 'COMMIT_STATUS_UNKNOWN', jsonrpc_code: -32001 } });
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('classifyError on anything else', () => {
  it('never throws on hostile or odd thrown values', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); } });
    const values: unknown[] = [undefined, null, 0, 'text', Symbol('s'), hostile, { httpStatus: 'x' }, { jsonRpcError: { code: 1.5 } }, new SyntaxError('Unexpected token'), new TrcError('JCS_UNREPRESENTABLE', 'no')];
    for (const v of values) {
      for (const opts of [READ, WRITE]) expect(() => classified(v, opts)).not.toThrow();
    }
  });

  it('treats an unrecognized exception after a write as unknown, never as a safe failure', () => {
    expect(classified(new Error('socket hang up?'), WRITE).status).toBe('unknown');
    expect(classified(new Error('bug'), READ).error).toMatchObject({ category: 'internal', code: 'INTERNAL_ERROR', retryable: false });
  });

  it('keeps the stable code of a TrcError', () => {
    expect(classified(new TrcError('JCS_UNREPRESENTABLE', 'no'), READ).error.code).toBe('JCS_UNREPRESENTABLE');
  });
});

/**
 * Every classification row of SPEC X1–X3, driven through the executor (not the classifier alone):
 * the executor knows where the failure happened and whether a write was sent.
 */
import { describe, expect, it } from 'vitest';
import { validate, type Envelope } from '../../src/contract/index.js';
import { createExecutor, defineTool, ToolFailure, type AnyTool, type Policy } from '../../src/executor/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { httpError, netError, never, readTool, writeTool } from './helpers/tools.js';

interface Row {
  readonly name: string;
  readonly tool: AnyTool;
  readonly args?: unknown;
  readonly toolName?: string;
  readonly policy?: Policy;
  readonly cancelAfterMs?: number;
  readonly expect: {
    status: Envelope['status'];
    category?: string;
    code?: string;
    kind?: string;
    retryable?: boolean;
    action?: string;
    occurred?: boolean;
    possibly?: boolean;
    reconciliation?: string | undefined;
  };
}

const ok = readTool(() => ({ data: { id: 'o1', status: 'shipped' } }));
const rows: Row[] = [
  // X1 protocol errors
  { name: 'an unknown tool is a protocol error', tool: ok, toolName: 'no_such_tool', expect: { status: 'failed', category: 'protocol', code: 'UNKNOWN_TOOL', kind: 'protocol', retryable: false } },
  // A JSON-RPC error is filed under `protocol` on every edge (thrown in-process as answered by an
  // upstream); the classifier's code and action still say what to do.
  { name: 'a JSON-RPC invalid-params error from the server asks to fix the arguments', tool: readTool(() => { throw Object.assign(new Error('bad params'), { code: -32602 }); }), expect: { status: 'failed', category: 'protocol', code: 'JSONRPC_INVALID_PARAMS', kind: 'protocol', action: 'fix_arguments' } },
  { name: 'a JSON-RPC internal error from the server is a protocol error', tool: readTool(() => { throw Object.assign(new Error('boom'), { code: -32603 }); }), expect: { status: 'failed', category: 'protocol', code: 'JSONRPC_INTERNAL_ERROR', kind: 'protocol', retryable: false } },
  // X1 tool execution errors
  { name: 'arguments that break the input schema are a validation error', tool: ok, args: { id: 7 }, expect: { status: 'failed', category: 'validation', code: 'INVALID_ARGUMENTS', action: 'fix_arguments', retryable: false } },
  { name: 'a policy denial is an authorization error', tool: ok, policy: () => ({ effect: 'deny', code: 'SCOPE_MISSING', reason: 'orders:read scope missing' }), expect: { status: 'failed', category: 'authorization', code: 'SCOPE_MISSING', action: 'request_authorization' } },
  { name: 'a high-risk call without confirmation needs input', tool: readTool(() => ({ data: { ok: true } }), { risk: 'high' }), expect: { status: 'needs_input', code: 'CONFIRMATION_REQUIRED', action: 'ask_user' } },
  { name: 'a business rule failure stays a business failure, never success', tool: readTool(() => { throw new ToolFailure({ category: 'business', code: 'ORDER_NOT_REFUNDABLE', message: 'window closed' }); }), expect: { status: 'failed', category: 'business', code: 'ORDER_NOT_REFUNDABLE', retryable: false, action: 'explain_to_user' } },
  { name: 'HTTP 404 is not_found', tool: readTool(() => { throw httpError(404); }), expect: { status: 'failed', category: 'not_found', code: 'HTTP_NOT_FOUND', retryable: false } },
  { name: 'HTTP 401 asks for authorization', tool: readTool(() => { throw httpError(401); }), expect: { status: 'failed', category: 'authentication', action: 'request_authorization' } },
  { name: 'HTTP 429 is rate limited and retryable later', tool: readTool(() => { throw httpError(429, { 'retry-after': '3' }); }), expect: { status: 'failed', category: 'rate_limited', retryable: true, action: 'retry_later' } },
  { name: 'HTTP 503 on a read is retryable', tool: readTool(() => { throw httpError(503); }), expect: { status: 'failed', category: 'upstream', retryable: true } },
  { name: 'a refused connection on a read is a retryable network error', tool: readTool(() => { throw netError('ECONNREFUSED'); }), expect: { status: 'failed', category: 'network', code: 'CONNECTION_REFUSED', retryable: true } },
  { name: 'a read past its deadline is a retryable transport timeout', tool: readTool((_a, ctx) => never(ctx), { timeoutMs: 10 }), expect: { status: 'failed', category: 'transport_timeout', retryable: true } },
  { name: 'a read that ignores its signal still ends at the deadline', tool: readTool(() => new Promise(() => undefined), { timeoutMs: 10 }), expect: { status: 'failed', category: 'transport_timeout' } },
  { name: 'a cancelled read is cancelled', tool: readTool((_a, ctx) => never(ctx), { timeoutMs: 1000 }), cancelAfterMs: 5, expect: { status: 'failed', category: 'cancelled', code: 'CANCELLED' } },
  { name: 'an unexpected exception is an internal error', tool: readTool(() => { throw new TypeError('x is undefined'); }), expect: { status: 'failed', category: 'internal', retryable: false } },
  { name: 'data that breaks the output schema is a contract error', tool: readTool(() => ({ data: { id: 5 } }), { output: { type: 'object', properties: { id: { type: 'string' } } } }), expect: { status: 'failed', category: 'contract', code: 'OUTPUT_SCHEMA_MISMATCH' } },
  { name: 'a result without data is a contract error', tool: readTool(() => ({ data: null })), expect: { status: 'failed', category: 'contract', code: 'TOOL_OUTPUT_INVALID' } },
  { name: 'a "complete" result with a next cursor is withheld, never emitted', tool: readTool(() => ({ data: [1, 2], completeness: { state: 'complete', next: { type: 'cursor', value: 'c2' } } })), expect: { status: 'failed', category: 'contract', code: 'INTERNAL_CONTRACT_VIOLATION' } },
  // X1 unknown outcomes (writes), X3 position of the failure
  { name: 'a write past its deadline without a lookup is unknown with reconciliation', tool: writeTool((_a, ctx) => never(ctx), { timeoutMs: 10 }), expect: { status: 'unknown', code: 'COMMIT_STATUS_UNKNOWN', kind: 'unknown_outcome', retryable: false, possibly: true, reconciliation: 'unknowable' } },
  { name: 'a write whose connection reset is confirmed by lookup', tool: writeTool(() => { throw netError('ECONNRESET'); }, { reconcile: async () => ({ state: 'found', external_id: 're_1' }) }), expect: { status: 'succeeded', occurred: true, reconciliation: undefined } },
  { name: 'a write confirmed absent on a non-idempotent downstream stays unknown', tool: writeTool(() => { throw netError('ECONNRESET'); }, { reconcile: async () => ({ state: 'absent' }) }), expect: { status: 'unknown', action: 'manual_reconciliation', reconciliation: 'confirmed_absent', possibly: true } },
  { name: 'a write whose lookup cannot tell stays unknown', tool: writeTool(() => { throw httpError(504); }, { reconcile: async () => ({ state: 'unknown' }) }), expect: { status: 'unknown', action: 'query_by_idempotency_key', reconciliation: 'unknowable' } },
  { name: 'HTTP 500 after a write is sent is unknown', tool: writeTool(() => { throw httpError(500); }), expect: { status: 'unknown', code: 'COMMIT_STATUS_UNKNOWN' } },
  { name: 'a refused connection before a write is sent is a definite, retryable failure', tool: writeTool(() => { throw netError('ECONNREFUSED'); }), expect: { status: 'failed', category: 'network', retryable: true, occurred: false } },
  { name: 'HTTP 409 on a write is a definite conflict', tool: writeTool(() => { throw httpError(409); }), expect: { status: 'failed', category: 'conflict', occurred: false } },
  { name: 'a declined write (business) did not happen', tool: writeTool(() => { throw new ToolFailure({ category: 'business', code: 'CARD_DECLINED', message: 'declined' }); }), expect: { status: 'failed', category: 'business', code: 'CARD_DECLINED', occurred: false } },
  { name: 'a write that answers without an external id is unknown, not succeeded', tool: writeTool(() => ({ data: { ok: true } })), expect: { status: 'unknown', possibly: true } },
  { name: 'a cancelled write after sending is unknown, never failed', tool: writeTool((_a, ctx) => never(ctx), { timeoutMs: 1000 }), cancelAfterMs: 5, expect: { status: 'unknown', category: 'cancelled', possibly: true } },
  { name: 'a write that commits returns succeeded with its external id', tool: writeTool(() => ({ data: { refund_id: 're_9' }, external_id: 're_9' })), expect: { status: 'succeeded', occurred: true } },
];

describe('X1–X3 classification through the executor', () => {
  let n = 0;
  for (const row of rows) {
    it(row.name, async () => {
      const executor = createExecutor({ tools: [row.tool], store: createMemoryStore(), ...(row.policy === undefined ? {} : { policy: row.policy }) });
      const controller = new AbortController();
      if (row.cancelAfterMs !== undefined) setTimeout(() => controller.abort(), row.cancelAfterMs);
      const env = await executor.call({ call_id: `call_${n++}`, tool_name: row.toolName ?? row.tool.name, args: row.args ?? { id: 'o1' } }, { id: 'user_1' }, { signal: controller.signal });
      expect(validate(env).findings.filter((f) => f.severity === 'error')).toEqual([]);
      const e = row.expect;
      expect(env.status).toBe(e.status);
      if (e.category !== undefined) expect(env.error?.category).toBe(e.category);
      if (e.code !== undefined) expect(env.error?.code).toBe(e.code);
      if (e.kind !== undefined) expect(env.error?.kind).toBe(e.kind);
      if (e.retryable !== undefined) expect(env.error?.retryable).toBe(e.retryable);
      if (e.action !== undefined) expect(env.error?.action).toBe(e.action);
      if (e.occurred !== undefined) expect(env.side_effect.occurred).toBe(e.occurred);
      if (e.possibly !== undefined) expect(env.side_effect.possibly_occurred).toBe(e.possibly);
      if ('reconciliation' in e) expect(env.reconciliation?.state).toBe(e.reconciliation);
      if (env.status === 'unknown') expect(env.reconciliation?.required).toBe(true);
    });
  }
});

describe('inputs and outputs that are not plain JSON', () => {
  it('refuses arguments without a canonical form instead of throwing', async () => {
    const tool = defineTool({ name: 'calc', description: 'c', effect: 'write', risk: 'low', timeoutMs: 50, source: { type: 'api', id: 'calc' },
      input: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'], additionalProperties: false },
      run: () => ({ data: { ok: true }, external_id: 'e1' }) });
    const env = await createExecutor({ tools: [tool], store: createMemoryStore() }).call({ call_id: 'c1', tool_name: 'calc', args: { x: Number.NaN } }, { id: 'u1' });
    expect(env.status).toBe('failed');
    expect(env.error?.code).toBe('ARGUMENTS_NOT_JSON');
  });

  it('turns data with NaN or a cycle into a contract error on a read, and an unknown outcome on a write', async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    const read = readTool(() => ({ data: { n: Number.NaN } }));
    const write = writeTool(() => ({ data: cyclic, external_id: 'x1' }));
    const executor = createExecutor({ tools: [read, write], store: createMemoryStore() });
    const r = await executor.call({ call_id: 'c1', tool_name: read.name, args: { id: 'o1' } }, { id: 'u1' });
    const w = await executor.call({ call_id: 'c2', tool_name: write.name, args: { id: 'o1' } }, { id: 'u1' });
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('TOOL_OUTPUT_INVALID');
    expect(w.status).toBe('unknown');
    expect(validate(w).valid).toBe(true);
  });
});

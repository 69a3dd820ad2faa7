import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { failed, succeeded, validate } from '../../src/contract/index.js';
import { fromMcpResult, toMcpResult } from '../../src/adapters/mcp/index.js';

/** The official SDK server and client, linked in memory; both run their own result checks. */
async function linked(register: (server: McpServer) => void) {
  const server = new McpServer({ name: 'order-service', version: '1.0.0' });
  register(server);
  const client = new Client({ name: 'agent', version: '1.0.0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  const { tools } = await client.listTools();
  return { client, tools, close: () => Promise.all([client.close(), server.close()]) };
}

describe('toMcpResult through the official MCP SDK', () => {
  it('passes the SDK server’s and client’s output-schema checks, and the envelope survives the trip', async () => {
    const env = succeeded({
      call: { tool_name: 'order_get', call_id: 'server_side' },
      data: { order_id: 'ord_1001', status: 'shipped' },
      provenance: { source_type: 'database', source_id: 'orders.primary', observed_at: '2026-09-01T01:00:00Z', retrieved_at: '2026-09-01T02:00:00Z' },
      evidence: [{ evidence_id: 'ev_status', kind: 'db_row', source: 'orders', locator: { table: 'orders', primary_key: 'ord_1001', columns: ['status'] }, supports: ['/data/status'] }],
    });
    const { client, tools, close } = await linked((server) => {
      server.registerTool(
        'order_get',
        { description: 'Get an order', inputSchema: { order_id: z.string() }, outputSchema: { order_id: z.string(), status: z.string() }, annotations: { readOnlyHint: true } },
        async () => toMcpResult(env, { structured: 'always' }),
      );
    });
    try {
      const result = await client.callTool({ name: 'order_get', arguments: { order_id: 'ord_1001' } });
      const tool = tools.find((t) => t.name === 'order_get');
      expect(tool?.outputSchema).toBeDefined();
      // A contract-aware server the operator trusts: its envelope is adopted.
      const back = fromMcpResult(result, tool ?? { name: 'order_get' }, { call_id: 'call_model_1', server: { name: 'order-service', trusted: true } });
      expect(validate(back).valid).toBe(true);
      expect(back).toMatchObject({ status: 'succeeded', data: env.data, evidence: env.evidence, call: { call_id: 'call_model_1' } });
      expect(back.tool_hints).toEqual({ origin: 'order-service', trusted: true, annotations: { readOnlyHint: true } });
      // An untrusted one: the same data, checked against the output schema; its own claims (evidence) are not taken.
      const checked = fromMcpResult(result, tool ?? { name: 'order_get' }, { call_id: 'call_model_2', server: { name: 'order-service' } });
      expect(checked).toMatchObject({ status: 'succeeded', data: env.data, tool_hints: { trusted: false } });
      expect(checked.evidence?.map((e) => e.evidence_id)).toEqual(['tool_output']);
    } finally {
      await close();
    }
  });

  it('sends a failure of a tool with an output schema as an isError result the v1 SDK client accepts', async () => {
    const env = failed({
      call: { tool_name: 'refund_create', call_id: 'x' },
      error: { category: 'business', code: 'REFUND_WINDOW_CLOSED', message: 'closed', retryable: false, action: 'explain_to_user', details: { order_id: 'ord_1001' } },
      side_effect: { occurred: false, operation: 'refund' },
    });
    const { client, tools, close } = await linked((server) => {
      server.registerTool('refund_create', { inputSchema: { order_id: z.string() }, outputSchema: { refund_id: z.string() } }, async () => toMcpResult(env, { structured: 'always' }));
    });
    try {
      const result = await client.callTool({ name: 'refund_create', arguments: { order_id: 'ord_1001' } });
      expect(result.isError).toBe(true);
      const back = fromMcpResult(result, tools[0] ?? { name: 'refund_create' }, { call_id: 'call_2', server: { name: 'order-service', trusted: true } });
      expect(result.structuredContent).toBeUndefined();
      expect(back).toMatchObject({ status: 'failed', error: { code: 'REFUND_WINDOW_CLOSED', details: { order_id: 'ord_1001' } } });
      // Without the envelope in _meta, the error still comes back from the text.
      const bare = fromMcpResult({ ...result, _meta: {} }, tools[0] ?? { name: 'refund_create' }, { call_id: 'call_3', server: { name: 'order-service' } });
      expect(bare).toMatchObject({ status: 'failed', error: { code: 'REFUND_WINDOW_CLOSED', category: 'business' } });
    } finally {
      await close();
    }
  });
});

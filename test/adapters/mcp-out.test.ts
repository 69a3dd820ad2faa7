import { describe, expect, expectTypeOf, it } from 'vitest';
import { CallToolResultSchema, type CallToolResult as SdkCallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult as SpecCallToolResult } from '@modelcontextprotocol/sdk/spec.types.js';
import { accepted, failed, needsInput, partial, succeeded } from '../../src/contract/index.js';
import { ENVELOPE_META_KEY, toMcpResult } from '../../src/adapters/mcp/index.js';
import { isTrcError } from '../../src/contract/index.js';

const call = { tool_name: 'order.get', call_id: 'call_1' };
const provenance = { source_type: 'database', source_id: 'orders.primary', observed_at: null, retrieved_at: '2026-09-01T02:00:00Z' };

describe('toMcpResult', () => {
  it('returns a CallToolResult that the SDK schema accepts, with the data as structuredContent', () => {
    const env = succeeded({ call, data: { order_id: 'ord_1', status: 'shipped' }, provenance });
    const r = toMcpResult(env);
    expect(CallToolResultSchema.safeParse(r).success).toBe(true);
    expect(r.structuredContent).toEqual({ order_id: 'ord_1', status: 'shipped' });
    expect(r.isError).toBeUndefined();
    expect(r._meta?.[ENVELOPE_META_KEY]).toEqual(env);
  });

  it('puts status, completeness and the cursor into the model-facing text', () => {
    const env = partial({
      call,
      data: { items: [1, 2] },
      provenance,
      completeness: { state: 'truncated', reason: 'upstream_limit', returned_items: 2, available_items: null, next: { type: 'cursor', value: 'c2' } },
    });
    const text = (toMcpResult(env).content[0] as { text: string }).text;
    const view = JSON.parse(text) as Record<string, unknown>;
    expect(view).toMatchObject({ status: 'partial', completeness: { state: 'truncated', next: { value: 'c2' } }, data: { items: [1, 2] } });
  });

  it('flags failures with isError and sends the structured error payload, not the output schema shape', () => {
    const env = failed({
      call,
      error: { category: 'business', code: 'REFUND_WINDOW_CLOSED', message: 'closed', retryable: false, action: 'explain_to_user', details: { order_id: 'ord_1' } },
    });
    const r = toMcpResult(env);
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toEqual({ order_id: 'ord_1' });
    expect(JSON.parse((r.content[0] as { text: string }).text)).toMatchObject({ status: 'failed', error: { code: 'REFUND_WINDOW_CLOSED' } });
  });

  it('links externalized results and evidence resources as resource_link blocks', () => {
    const env = succeeded({
      call,
      data: { rows: 3 },
      provenance,
      resources: [{ uri: 'trc://resources/abc', mime_type: 'application/json', bytes: 1200, sha256: 'a'.repeat(64) }],
      evidence: [{ evidence_id: 'ev_1', supports: ['/data/rows'], locator: { resource_uri: 'file:///report.pdf' } }],
    });
    const links = toMcpResult(env).content.filter((b) => b.type === 'resource_link');
    expect(links).toEqual([
      expect.objectContaining({ uri: 'trc://resources/abc', mimeType: 'application/json', size: 1200 }),
      expect.objectContaining({ uri: 'file:///report.pdf' }),
    ]);
  });

  it('refuses structured: always when the data is not an object', () => {
    const env = succeeded({ call, data: [1, 2, 3], provenance });
    expect(toMcpResult(env).structuredContent).toBeUndefined();
    let thrown: unknown;
    try {
      toMcpResult(env, { structured: 'always' });
    } catch (e) {
      thrown = e;
    }
    expect(isTrcError(thrown, 'MCP_STRUCTURED_NOT_OBJECT')).toBe(true);
  });

  it('sends a held or accepted result of a tool with an output schema as an error result, without structured content', () => {
    const held = needsInput({ call, code: 'CONFIRMATION_REQUIRED', message: 'confirm the transfer', category: 'authorization' });
    const job = accepted({ call, data: { job_id: 'job_7' } });
    for (const env of [held, job]) {
      const r = toMcpResult(env, { structured: 'always' });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      expect((r._meta?.[ENVELOPE_META_KEY] as { status: string }).status).toBe(env.status);
      // Without an output schema nothing changes: not an error.
      expect(toMcpResult(env).isError).toBeUndefined();
    }
  });

  it('uses a _meta key that follows the MCP naming rules and no reserved prefix', () => {
    const [prefix, name] = ENVELOPE_META_KEY.split('/') as [string, string];
    const labels = prefix.split('.');
    for (const label of labels) expect(label).toMatch(/^[A-Z](?:[A-Z0-9-]*[A-Z0-9])?$/i);
    expect(['modelcontextprotocol', 'mcp']).not.toContain(labels[1]);
    expect(name).toMatch(/^[A-Z0-9](?:[\w.-]*[A-Z0-9])?$/i);
  });

  it('has the same type as the MCP specification’s CallToolResult (parity)', () => {
    const r = toMcpResult(succeeded({ call, data: { a: 1 }, provenance }));
    expectTypeOf(r).toEqualTypeOf<SpecCallToolResult>();
    // Usable wherever the SDK expects its schema-derived type (e.g. a tool handler's return).
    expectTypeOf<SpecCallToolResult>().toExtend<SdkCallToolResult>();
    const sdk: SdkCallToolResult = r;
    expect(CallToolResultSchema.parse(sdk).content.length).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { validate } from '../../src/contract/index.js';
import { fromMcpResult } from '../../src/adapters/mcp/index.js';
import { connectContractServer, connectStdio, EVERYTHING_BIN, type Connected } from './helpers/mcp-client.js';
import everythingArgs from './fixtures/everything-args.json' with { type: 'json' };

const NOW = () => '2026-09-01T02:00:05Z';

function toolNamed(conn: Connected, name: string): Tool {
  const t = conn.tools.find((x) => x.name === name);
  if (t === undefined) throw new Error(`server lists no tool ${name}`);
  return t;
}

describe('the official MCP client against @modelcontextprotocol/server-everything', () => {
  let conn: Connected;
  beforeAll(async () => {
    conn = await connectStdio([EVERYTHING_BIN, 'stdio']);
  });
  afterAll(async () => {
    await conn.close();
  });

  it('wraps the result of every listed tool into a valid envelope', async () => {
    expect(conn.tools.length).toBeGreaterThan(5);
    const args = everythingArgs as Record<string, Record<string, unknown>>;
    for (const tool of conn.tools) {
      const result = await conn.call(tool.name, args[tool.name] ?? {});
      const env = fromMcpResult(result, tool, { call_id: `call_${tool.name}`, server: { name: 'everything' }, now: NOW });
      const v = validate(env);
      expect(v.findings.filter((f) => f.severity === 'error'), `${tool.name}: ${JSON.stringify(v.findings)}`).toEqual([]);
      expect(env.call).toMatchObject({ tool_name: tool.name, call_id: `call_${tool.name}` });
      expect(env.tool_hints?.trusted).toBe(false);
      // Tools that require task-augmented execution answer a plain call with an error result.
      expect(env.status, tool.name).toBe(tool.execution?.taskSupport === 'required' ? 'failed' : 'succeeded');
    }
  });

  it('takes structured content that matches its draft-07 output schema as citable data', async () => {
    const tool = toolNamed(conn, 'get-structured-content');
    const env = fromMcpResult(await conn.call(tool.name, { location: 'Chicago' }), tool, { call_id: 'c1', server: { name: 'everything' }, now: NOW });
    expect(env.status).toBe('succeeded');
    expect(env.data).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
    expect(env.citable).not.toBe(false);
  });

  it('turns resource links into evidence with a resource locator', async () => {
    const tool = toolNamed(conn, 'get-resource-links');
    const env = fromMcpResult(await conn.call(tool.name, { count: 2 }), tool, { call_id: 'c2', server: { name: 'everything' }, now: NOW });
    const links = (env.evidence ?? []).filter((e) => e.kind === 'resource_link');
    expect(links).toHaveLength(2);
    for (const e of links) expect(e.locator?.resource_uri).toMatch(/^demo:\/\/|^[a-z]+:\/\//);
  });

  it('keeps images as typed content and text as untrusted content', async () => {
    const tool = toolNamed(conn, 'get-tiny-image');
    const env = fromMcpResult(await conn.call(tool.name, {}), tool, { call_id: 'c3', server: { name: 'everything' }, now: NOW });
    const content = (env.data as { content: Array<{ type: string; mime_type?: string }> }).content;
    expect(content.some((b) => b.type === 'image' && b.mime_type === 'image/png')).toBe(true);
    expect(env.untrusted_content?.every((u) => u.trust === 'untrusted')).toBe(true);
  });
});

describe('the official MCP client against a misbehaving fixture server', () => {
  let conn: Connected;
  const ctx = (call_id: string) => ({ call_id, server: { name: 'fixture' }, now: NOW });
  beforeAll(async () => {
    conn = await connectContractServer();
  });
  afterAll(async () => {
    await conn.close();
  });

  it('fails a result whose structured content breaks the output schema, naming the field', async () => {
    const tool = toolNamed(conn, 'weather_bad_schema');
    const env = fromMcpResult(await conn.call(tool.name), tool, ctx('c1'));
    expect(env.status).toBe('failed');
    expect(env.data).toBeNull();
    // The code and shape an in-process tool's output-schema violation has.
    expect(env.error).toMatchObject({ category: 'contract', code: 'OUTPUT_SCHEMA_MISMATCH' });
    const details = env.error?.details as { findings: Array<{ pointer: string }> };
    expect(details.findings.map((v) => v.pointer)).toEqual(expect.arrayContaining(['/data/temperature_c', '/data/condition']));
    expect(validate(env).valid).toBe(true);
  });

  it('marks a result whose text contradicts its structured content as not citable without picking a side', async () => {
    const tool = toolNamed(conn, 'weather_contradicts');
    const env = fromMcpResult(await conn.call(tool.name), tool, ctx('c2'));
    expect(env.status).toBe('succeeded');
    expect(env.citable).toBe(false);
    expect(env.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'E7.value-mismatch' })]));
    // Both observations stay in the envelope: the structured one as data, the text as untrusted content.
    expect(env.data).toMatchObject({ temperature_c: 27.4 });
    expect(env.untrusted_content?.[0]?.text).toContain('30 °C');
  });

  it('keeps a consistent structured result citable', async () => {
    const tool = toolNamed(conn, 'weather_ok');
    const env = fromMcpResult(await conn.call(tool.name), tool, { ...ctx('c3'), readOnly: true });
    expect(env.status).toBe('succeeded');
    expect(env.citable).toBeUndefined();
    expect(env.warnings).toEqual([]);
  });

  it('keeps the structured payload of an error result instead of validating it against the output schema', async () => {
    const tool = toolNamed(conn, 'refund_error');
    const env = fromMcpResult(await conn.call(tool.name), tool, ctx('c4'));
    expect(env.status).toBe('failed');
    expect(env.error).toMatchObject({ kind: 'execution', category: 'business', code: 'REFUND_WINDOW_CLOSED' });
    expect(env.error?.details).toMatchObject({ order_id: 'ord_1001' });
    // An untrusted server does not get to declare its failure retryable (X3).
    expect(env.error?.retryable).toBe(false);
  });

  it('validates an output schema without $schema as JSON Schema 2020-12 (prefixItems)', async () => {
    const tool = toolNamed(conn, 'point_2020');
    const env = fromMcpResult(await conn.call(tool.name), tool, ctx('c5'));
    expect(env.status).toBe('failed');
    expect((env.error?.details as { findings: Array<{ pointer: string }> }).findings[0]?.pointer).toBe('/data/point/1');
  });

  it('validates an output schema that declares draft-07 with draft-07 tuple items', async () => {
    const tool = toolNamed(conn, 'point_draft07');
    const env = fromMcpResult(await conn.call(tool.name), tool, ctx('c6'));
    expect(env.status).toBe('succeeded');
    expect(env.data).toEqual({ point: [1, 2] });
  });

  it('adopts the envelope a trusted contract-aware server sends in _meta, answering the caller’s call id', async () => {
    const tool = toolNamed(conn, 'order_envelope');
    const env = fromMcpResult(await conn.call(tool.name, { order_id: 'ord_1001' }), tool, { ...ctx('call_from_model'), server: { name: 'fixture', trusted: true } });
    expect(env.call.call_id).toBe('call_from_model');
    expect(env.evidence?.map((e) => e.evidence_id)).toEqual(['ev_status']);
    expect(env.provenance?.source_type).toBe('database');
    expect(env.data).toEqual({ order_id: 'ord_1001', status: 'shipped' });
    expect(validate(env).valid).toBe(true);
  });

  it('turns a JSON-RPC error for an unknown tool into a protocol error envelope', async () => {
    const tool: Tool = { name: 'no_such_tool', inputSchema: { type: 'object' } };
    const answer = await conn.call(tool.name);
    expect(answer).toBeInstanceOf(McpError);
    const env = fromMcpResult(answer, tool, ctx('c7'));
    expect(env.status).toBe('failed');
    expect(env.error).toMatchObject({ kind: 'protocol', category: 'protocol', jsonrpc_code: -32602, action: 'fix_arguments' });
  });
});

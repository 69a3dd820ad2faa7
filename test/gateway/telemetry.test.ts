/**
 * A gateway call's span: the pipeline's one execute_tool span, linked to the MCP client's trace
 * context (`_meta.traceparent`), and the parent of the upstream request it forwards.
 */
import { fileURLToPath } from 'node:url';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVELOPE_META_KEY, serveHttp, type HttpGateway } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const SERVER = fileURLToPath(new URL('./fixtures/meta-echo-server.mjs', import.meta.url));
let gw: HttpGateway;
let client: Client;

beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
  gw = await serveHttp({ store: createMemoryStore(), config: { defaults: { effect: 'read' }, upstreams: [{ name: 'echo', command: process.execPath, args: [SERVER] }] } }, { port: 0 });
  client = new Client({ name: 'traced-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw.url)));
});
afterAll(async () => {
  await client?.close();
  await gw?.close();
  trace.disable();
  await provider.shutdown();
});

describe('a gateway call', () => {
  it('is one span linked to the client’s trace, and the parent of the upstream request', async () => {
    const clientTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const clientSpan = '00f067aa0ba902b7';
    exporter.reset();
    const result = await client.callTool({ name: 'echo_meta', arguments: {}, _meta: { traceparent: `00-${clientTrace}-${clientSpan}-01` } });
    const spans = exporter.getFinishedSpans().filter((s) => s.name.startsWith('execute_tool'));
    expect(spans).toHaveLength(1);
    const span = spans[0];
    expect(span?.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'echo_meta', 'trc.edge': 'gateway', 'trc.gateway.upstream': 'echo', 'trc.status': 'succeeded' });
    expect(span?.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([[clientTrace, clientSpan]]);
    const env = (result._meta as Record<string, { data: { meta: Record<string, unknown> } }>)[ENVELOPE_META_KEY];
    const forwarded = env?.data.meta ?? {};
    expect(forwarded['traceparent']).toBe(`00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01`);
  });
});

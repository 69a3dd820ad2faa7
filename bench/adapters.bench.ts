/**
 * Adapter throughput, each figure against its named baseline in the same run:
 *   - MCP in: results/s of `fromMcpResult()` (result shape, output schema in its dialect, E7,
 *     instruction detection on server text, envelope validation) vs the official SDK v1
 *     client's own path (`CallToolResultSchema.parse` + its draft-07 Ajv output validator), on
 *     the same mix of results: a structured weather report, a 50-row structured list, a
 *     text-only answer with a resource link, an error with a structured payload;
 *   - MCP out / provider renderers: envelopes/s of `toMcpResult`, `toChatToolMessage` and
 *     `toToolResultBlock` vs `JSON.stringify(envelope)` (the naive "send the whole thing").
 * Run: `npm run bench -- adapters` (or `node --expose-gc --import tsx bench/adapters.bench.ts`).
 */
import { CallToolResultSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { fromMcpResult, toMcpResult } from '../src/adapters/mcp/index.js';
import { toChatToolMessage } from '../src/adapters/openai/index.js';
import { toToolResultBlock } from '../src/adapters/anthropic/index.js';
import { validate, type Envelope } from '../src/contract/index.js';
import { compare, fmt } from './harness.js';

const ROUNDS = 3;
const ROUND_MS = 700;


// --- inputs ---------------------------------------------------------------------------------
const weatherSchema = { type: 'object' as const, properties: { city: { type: 'string' }, temperature_c: { type: 'number' }, condition: { type: 'string' } }, required: ['city', 'temperature_c', 'condition'] };
const listSchema = {
  type: 'object' as const,
  properties: { orders: { type: 'array', items: { type: 'object', properties: { order_id: { type: 'string' }, status: { type: 'string' }, total: { type: 'number' } }, required: ['order_id', 'status', 'total'] } } },
  required: ['orders'],
};
const orders = Array.from({ length: 50 }, (_, n) => ({ order_id: `ord_${1000 + n}`, status: ['shipped', 'pending'][n % 2] as string, total: Math.round(n * 1731) / 100 }));
const cases: Array<{ tool: Tool; result: CallToolResult }> = [
  { tool: { name: 'weather', inputSchema: { type: 'object' }, outputSchema: weatherSchema }, result: { content: [{ type: 'text', text: 'Hangzhou: 27.4 °C, clear.' }], structuredContent: { city: 'Hangzhou', temperature_c: 27.4, condition: 'clear' } } },
  { tool: { name: 'orders', inputSchema: { type: 'object' }, outputSchema: listSchema }, result: { content: [{ type: 'text', text: JSON.stringify({ orders }) }], structuredContent: { orders } } },
  { tool: { name: 'docs', inputSchema: { type: 'object' } }, result: { content: [{ type: 'text', text: 'The refund policy allows returns within 30 days of delivery. See the linked policy document for exceptions.' }, { type: 'resource_link', uri: 'file:///policies/refund.md', name: 'refund.md', mimeType: 'text/markdown' }] } },
  { tool: { name: 'refund', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { refund_id: { type: 'string' } }, required: ['refund_id'] } }, result: { isError: true, content: [{ type: 'text', text: 'Refund refused: the window closed.' }], structuredContent: { code: 'REFUND_WINDOW_CLOSED', category: 'business', message: 'window closed' } } },
];
const ctx = { call_id: 'call_1', server: { name: 'bench' }, now: () => '2026-09-01T02:00:00Z' };
const sdkValidator = new AjvJsonSchemaValidator();
const sdkChecks = cases.map((c) => (c.tool.outputSchema === undefined ? undefined : sdkValidator.getValidator(c.tool.outputSchema as Parameters<typeof sdkValidator.getValidator>[0])));
for (const c of cases) if (!validate(fromMcpResult(c.result, c.tool, ctx)).valid) throw new Error('bench inputs must wrap into valid envelopes');

let i = 0;
const inbound = compare({
  'sdk-v1 client path': () => {
    const k = i++ % cases.length;
    const c = cases[k] as (typeof cases)[number];
    const parsed = CallToolResultSchema.parse(c.result);
    // The SDK client validates structured content of non-error results only when a schema exists.
    if (!parsed.isError && parsed.structuredContent !== undefined) sdkChecks[k]?.(parsed.structuredContent);
  },
  fromMcpResult: () => {
    const c = cases[i++ % cases.length] as (typeof cases)[number];
    fromMcpResult(c.result, c.tool, ctx);
  },
}, { rounds: ROUNDS, roundMs: ROUND_MS, warmupMs: 200 });

// Per case, to show where the time goes.
const caseNames = ['structured weather', '50-row list', 'text + resource link', 'structured error'];
const perCase = cases.map((c, k) => {
  const r = compare({
    'sdk-v1 client path': () => {
      const parsed = CallToolResultSchema.parse(c.result);
      if (!parsed.isError && parsed.structuredContent !== undefined) sdkChecks[k]?.(parsed.structuredContent);
    },
    fromMcpResult: () => void fromMcpResult(c.result, c.tool, ctx),
  }, { rounds: ROUNDS, roundMs: ROUND_MS, warmupMs: 200 });
  return [caseNames[k] as string, r['sdk-v1 client path'] ?? NaN, r['fromMcpResult'] ?? NaN] as const;
});

const envelopes: Envelope[] = cases.map((c) => fromMcpResult(c.result, c.tool, ctx));
let j = 0;
const nextEnv = () => envelopes[j++ % envelopes.length] as Envelope;
const outbound = compare({
  'JSON.stringify(envelope)': () => void JSON.stringify(nextEnv()),
  toMcpResult: () => void toMcpResult(nextEnv()),
  toChatToolMessage: () => void toChatToolMessage(nextEnv()),
  toToolResultBlock: () => void toToolResultBlock(nextEnv()),
}, { rounds: ROUNDS, roundMs: ROUND_MS, warmupMs: 200 });

const rows: Array<[string, string, number, number]> = [
  ['MCP in (results/s)', 'sdk-v1 client path', inbound['sdk-v1 client path'] ?? NaN, inbound['sdk-v1 client path'] ?? NaN],
  ['MCP in (results/s)', 'fromMcpResult', inbound['fromMcpResult'] ?? NaN, inbound['sdk-v1 client path'] ?? NaN],
  ...(['JSON.stringify(envelope)', 'toMcpResult', 'toChatToolMessage', 'toToolResultBlock'] as const).map(
    (k): [string, string, number, number] => ['render (envelopes/s)', k, outbound[k] ?? NaN, outbound['JSON.stringify(envelope)'] ?? NaN],
  ),
];
console.log('| measure | contender | ops/s | µs/op | vs baseline |');
console.log('|---|---|---:|---:|---:|');
for (const [measure, name, ops, base] of rows) {
  console.log(`| ${measure} | ${name} | ${fmt(ops)} | ${fmt(1e6 / ops, 1)} | ${fmt(base / ops, 2)}x slower |`);
}
console.log('\n| MCP in, per result | sdk-v1 client path µs | fromMcpResult µs | ratio |');
console.log('|---|---:|---:|---:|');
for (const [name, base, ours] of perCase) console.log(`| ${name} | ${fmt(1e6 / base, 1)} | ${fmt(1e6 / ours, 1)} | ${fmt(base / ours, 1)}x |`);
console.log(`\nmix: ${cases.length} MCP results (structured weather, 50-row list, text + resource link, structured error); baselines are the first row of each measure.`);

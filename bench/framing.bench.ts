/**
 * Framing benchmark: what checking one stdio line as a JSON-RPC message costs the gateway.
 * Every message it relays is checked twice — by its line framer, then by the SDK's `Protocol`
 * before dispatch — and the framer's check used to be the SDK's Zod schema. Contenders, on the
 * lines of one `tools/call` as the gateway reads them (the client's request, a progress
 * notification, the upstream's ~1 KB result), alternated, median of rounds:
 *   hand check   — `JSON.parse` + the framer's `asJsonRpcMessage` (compiled, from `dist/`)
 *   SDK schema   — `JSON.parse` + `JSONRPCMessageSchema.parse` (what the framer did before)
 *   parse only   — `JSON.parse` alone (the floor)
 * The check's cost is the contender's time less the floor's. `BENCH_ROUNDS` (default 7).
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { asJsonRpcMessage as AsJsonRpcMessage } from '../src/gateway/jsonrpc-shape.js';
import { compare, ensureFreshDist, fmt, machineLine } from './harness.js';

ensureFreshDist();
const { asJsonRpcMessage } = (await import(new URL('../dist/gateway/jsonrpc-shape.js', import.meta.url).href)) as { asJsonRpcMessage: typeof AsJsonRpcMessage };

const rows = Array.from({ length: 12 }, (_, i) => ({ id: i, name: `item ${i}`, price: 10 + i, tags: ['a', 'b'] }));
const lines = [
  JSON.stringify({ jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 'search', arguments: { q: 'blue mug', limit: 12 }, _meta: { progressToken: 41 } } }),
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'trc-7', progress: 1, total: 2 } }),
  JSON.stringify({ jsonrpc: '2.0', id: 41, result: { content: [{ type: 'text', text: JSON.stringify(rows) }], structuredContent: { rows }, _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't1' } } } }),
];
const bytes = lines.reduce((a, l) => a + l.length, 0);
let sink = 0;
const contenders = {
  'hand check': () => { for (const l of lines) sink += asJsonRpcMessage(JSON.parse(l)) === null ? 0 : 1; },
  'SDK schema': () => { for (const l of lines) sink += JSONRPCMessageSchema.parse(JSON.parse(l)) === null ? 0 : 1; },
  'parse only': () => { for (const l of lines) sink += JSON.parse(l) === null ? 0 : 1; },
};
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
console.log(machineLine());
console.log(`the ${lines.length} lines of one relayed tools/call (${bytes} bytes), ${ROUNDS} alternated rounds, median`);
const perSec = compare(contenders, { rounds: ROUNDS, roundMs: 400 });
const us = (name: keyof typeof contenders) => 1e6 / (perSec[name] as number);
console.log(`${'contender'.padEnd(12)} ${'µs per call'.padStart(12)} ${'check alone µs'.padStart(15)}`);
for (const name of Object.keys(contenders) as (keyof typeof contenders)[]) {
  console.log(`${name.padEnd(12)} ${fmt(us(name), 2).padStart(12)} ${fmt(us(name) - us('parse only'), 2).padStart(15)}`);
}
const hand = us('hand check') - us('parse only');
const schema = us('SDK schema') - us('parse only');
console.log(`the hand check costs ${(hand / schema * 100).toFixed(0)} % of the schema's; it saves ${fmt(schema - hand, 2)} µs of CPU per relayed call on these lines (sink ${sink > 0 ? 'ok' : '-'})`);
// No target of its own: issue 18's is the gateway's CPU per call (gateway and baseline benches).

/**
 * Executor benchmark.
 * 1. Calls/s through the full pipeline (args validation → policy → run → classify → normalize →
 *    stages → digest + validate() → audit in the memory store) on 1 KB results, against a bare
 *    loop that only calls the tool and JSON.stringify()s its return. Target ≥ 20,000 calls/s.
 * 2. Idempotent write begin + settle per second on SQLite (the ledger round trip of every write).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argsDigest, beginWrite, settleWrite } from '../src/effects/index.js';
import { createExecutor, defineTool } from '../src/executor/index.js';
import { createMemoryStore } from '../src/store/index.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';

const items = Array.from({ length: 12 }, (_, i) => ({ sku: `sku_${i}`, name: `Item number ${i}`, qty: i + 1, price_cents: 1999 + i }));
const result = { order_id: 'ord_1001', status: 'shipped', customer: 'cus_42', carrier: 'DHL Express', tracking: 'JD014600006281234567', note: 'Leave at the front desk if nobody answers the door.', items };
const bytes = Buffer.byteLength(JSON.stringify(result));

const tool = defineTool({
  name: 'order_get',
  description: 'Look up an order',
  effect: 'read',
  risk: 'low',
  timeoutMs: 1000,
  source: { type: 'database', id: 'orders.primary' },
  input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  run: async ({ id }: { id: string }) => ({ data: { ...result, order_id: id } }),
});

async function timeIt(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(2000, n); i++) await fn(i); // warm-up
  globalThis.gc?.();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn(i);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

const N = 20_000;
const bare = await timeIt(N, async (i) => JSON.stringify(await tool.run({ id: `o${i}` }, undefined as never)));
const executor = createExecutor({ tools: [tool], store: createMemoryStore() });
let seq = 0;
const full = await timeIt(N, (i) => executor.call({ call_id: `c${seq++}_${i}`, tool_name: 'order_get', args: { id: `o${i}` } }, { id: 'user_1' }));

const dir = mkdtempSync(join(tmpdir(), 'trc-bench-'));
const ledgerRate = async (synchronous: 'FULL' | 'NORMAL', n: number) => {
  const store = await openSqliteStore({ path: join(dir, `ledger-${synchronous}.db`), synchronous });
  const digestOfArgs = argsDigest({ amount: 100 });
  const envelope = { status: 'succeeded' };
  const now = new Date().toISOString();
  const secs = await timeIt(n, async (i) => {
    const key = `k_${synchronous}_${i}_${Math.random()}`;
    await beginWrite(store, { key, tool: 'pay', principal: 'u1', argsDigest: digestOfArgs, callId: `c${i}`, now });
    await settleWrite(store, key, { state: 'succeeded', envelope: envelope as never, attempts: 1, now });
  });
  await store.close();
  return n / secs;
};
const ledgerFull = await ledgerRate('FULL', 2000);
const ledgerNormal = await ledgerRate('NORMAL', 5000);
rmSync(dir, { recursive: true, force: true });

const rate = (secs: number) => N / secs;
const fmt = (x: number) => Math.round(x).toLocaleString('en-US').padStart(12);
console.log(`result size: ${bytes} bytes of JSON per call; ${N.toLocaleString('en-US')} sequential calls`);
console.log('');
console.log('measure                                         calls/s    µs/call');
console.log(`bare loop (tool + JSON.stringify)          ${fmt(rate(bare))} ${(1e6 / rate(bare)).toFixed(1).padStart(10)}`);
console.log(`full pipeline (executor.call + audit)      ${fmt(rate(full))} ${(1e6 / rate(full)).toFixed(1).padStart(10)}`);
console.log(`pipeline / bare ratio                      ${(rate(full) / rate(bare)).toFixed(3).padStart(12)}   (bare is ${(rate(bare) / rate(full)).toFixed(1)}× faster)`);
console.log(`target ≥ 20,000 calls/s                    ${rate(full) >= 20_000 ? 'met' : 'NOT met'}`);
console.log('');
console.log('ledger (SQLite)                                 writes/s');
console.log(`begin + settle, synchronous=FULL (default) ${fmt(ledgerFull)}`);
console.log(`begin + settle, synchronous=NORMAL         ${fmt(ledgerNormal)}`);

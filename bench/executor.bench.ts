/**
 * Executor benchmark, on the compiled package (dist/, rebuilt when stale). CPU time, not wall
 * clock: the machine is shared, and CPU time is what a call costs wherever it runs.
 * 1. The full pipeline (args → policy → invoke → classify/normalize → visibility → budget →
 *    evidence → trust → present → finalize → audit record → memory store) on 1 KB results, against
 *    a bare loop that calls the tool and JSON.stringify()s its return, in interleaved rounds.
 *    Target: ≤ 5× the bare loop.
 * 2. Where a call's time goes: the pipeline's `lap` hook times each segment (median µs per call
 *    over rounds); the segments must account for ≥ 90 % of the call. Beside them, the costs of
 *    the jobs inside them, each measured alone on this call's own values.
 * 3. Memory: RSS and heap per 1,000 calls in flight (tools that wait until released).
 * 4. Idempotent write begin + settle per second on SQLite (the ledger round trip of every write).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as ContractModule from '../src/contract/index.js';
import type * as EffectsModule from '../src/effects/index.js';
import type * as ExecutorModule from '../src/executor/index.js';
import type * as StoreModule from '../src/store/index.js';
import type * as SqliteModule from '../src/store/sqlite/index.js';
import type * as TrustModule from '../src/trust/index.js';
import { cpuMsAsync, ensureFreshDist, machineLine, median, reportTarget } from './harness.js';

ensureFreshDist();
const dist = (m: string) => import(new URL(`../dist/${m}/index.js`, import.meta.url).href);
const ex = (await dist('executor')) as typeof ExecutorModule;
const st = (await dist('store')) as typeof StoreModule;
const contract = (await dist('contract')) as typeof ContractModule;
const trust = (await dist('trust')) as typeof TrustModule;
const effects = (await dist('effects')) as typeof EffectsModule;
const sqlite = (await dist('store/sqlite')) as typeof SqliteModule;

const items = Array.from({ length: 12 }, (_, i) => ({ sku: `sku_${i}`, name: `Item number ${i}`, qty: i + 1, price_cents: 1999 + i }));
const result = { order_id: 'ord_1001', status: 'shipped', customer: 'cus_42', carrier: 'DHL Express', tracking: 'JD014600006281234567', note: 'Leave at the front desk if nobody answers the door.', items };
const bytes = Buffer.byteLength(JSON.stringify(result));
const run = async ({ id }: { id: string }) => ({ data: { ...result, order_id: id } });
const orderTool = (fn: typeof run) => ex.defineTool({
  name: 'order_get',
  description: 'Look up an order',
  effect: 'read',
  risk: 'low',
  timeoutMs: 1000,
  source: { type: 'database', id: 'orders.primary' },
  input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  run: fn,
});

function caller(options: { lap?: (s: ExecutorModule.PipelineSegment) => void; tool?: typeof run } = {}) {
  const executor = ex.createExecutor({ tools: [orderTool(options.tool ?? run)], store: st.createMemoryStore(), ...(options.lap === undefined ? {} : { lap: options.lap }) });
  let seq = 0;
  return (i: number) => executor.call({ call_id: `c${seq++}`, tool_name: 'order_get', args: { id: `o${i}` } }, { id: 'user_1' });
}

const sequential = async (n: number, fn: (i: number) => Promise<unknown>): Promise<void> => {
  for (let i = 0; i < n; i++) await fn(i);
};

// 1. Ratio to the bare loop: CPU µs per call, interleaved rounds, median.
const ROUNDS = 9;
const PER_ROUND = 2_000;
const bare = (i: number) => run({ id: `o${i}` }).then((r) => JSON.stringify(r));
const pipeline = caller();
const loops = [
  { label: 'bare loop (tool + JSON.stringify)', fn: bare, us: [] as number[] },
  { label: 'full pipeline (compiled dist/)', fn: pipeline, us: [] as number[] },
];
for (const l of loops) await sequential(PER_ROUND, l.fn); // warm-up: JIT, Ajv, the token table
for (let r = 0; r < ROUNDS; r++) {
  for (const l of loops) {
    globalThis.gc?.();
    l.us.push((1000 * (await cpuMsAsync(() => sequential(PER_ROUND, l.fn)))) / PER_ROUND);
  }
}
const bareUs = median(loops[0]?.us ?? []);
const pipeUs = median(loops[1]?.us ?? []);
console.log(`result: ${bytes} bytes of JSON per call; ${ROUNDS} interleaved rounds of ${PER_ROUND.toLocaleString('en-US')} sequential calls; CPU time (GC included), median round`);
console.log(machineLine());
console.log('\nmeasure                                CPU µs/call   calls/s of CPU   ratio to bare');
for (const l of loops) {
  const us = median(l.us);
  console.log(`${l.label.padEnd(38)}${us.toFixed(1).padStart(12)}${Math.round(1e6 / us).toLocaleString('en-US').padStart(17)}${(us / bareUs).toFixed(2).padStart(16)}`);
}
reportTarget({ area: 'executor', measure: 'pipeline CPU / bare loop CPU, 1 KB results', value: `${(pipeUs / bareUs).toFixed(2)}×`, target: '≤ 5×', met: pipeUs / bareUs <= 5, note: `${pipeUs.toFixed(1)} vs ${bareUs.toFixed(1)} µs` });

// 2. Per-segment table: the lap hook, wall clock inside a call (performance.now()).
const segments = new Map<string, number>();
let last = 0;
const lap = (s: string) => {
  const t = performance.now();
  segments.set(s, (segments.get(s) ?? 0) + t - last);
  last = t;
};
// The tool marks its own start and end, so the invoke segment splits into set-up, tool, return.
const timedTool = async (args: { id: string }) => {
  lap('invoke: deadline set-up');
  const out = await run(args);
  lap('invoke: the tool itself');
  return out;
};
const profiled = caller({ lap: (s) => lap(s === 'invoke' ? 'invoke: result back' : s), tool: timedTool });
const perRound: Map<string, number>[] = [];
const totals: number[] = [];
await sequential(PER_ROUND, async (i) => {
  last = performance.now();
  await profiled(i);
});
for (let r = 0; r < ROUNDS; r++) {
  segments.clear();
  globalThis.gc?.();
  const t0 = performance.now();
  await sequential(PER_ROUND, async (i) => {
    last = performance.now();
    await profiled(i);
    lap('(return to the caller)');
  });
  totals.push((1000 * (performance.now() - t0)) / PER_ROUND);
  perRound.push(new Map([...segments].map(([k, v]) => [k, (1000 * v) / PER_ROUND])));
}
const names = [...(perRound[0]?.keys() ?? [])];
const seg = names.map((n) => ({ name: n, us: median(perRound.map((m) => m.get(n) ?? 0)) }));
const total = median(totals);
const covered = seg.filter((s) => s.name !== '(return to the caller)').reduce((a, s) => a + s.us, 0);

// The jobs inside the segments, each alone on this call's own values.
const envelope = await pipeline(0);
const data = envelope.data;
const alone = (label: string, f: () => void): [string, number] => {
  for (let i = 0; i < 2000; i++) f();
  const t0 = performance.now();
  for (let i = 0; i < 20_000; i++) f();
  return [label, (1000 * (performance.now() - t0)) / 20_000];
};
const jobs: [string, number][] = [
  alone('digest(data): RFC 8785 + SHA-256 (in classify)', () => void contract.digest(data)),
  alone('JSON.stringify(data) + SHA-256, for comparison', () => void contract.sha256Hex(JSON.stringify(data))),
  alone('validate(envelope), digest not re-checked (finalize)', () => void contract.validate(envelope, { checkDigest: false })),
  alone('maskEnvelope(envelope) (visibility)', () => void trust.maskEnvelope(envelope)),
  alone('JSON.stringify(envelope) + SHA-256 (audit record)', () => void contract.sha256Hex(JSON.stringify(envelope))),
  alone('argsDigest(args) (prepare)', () => void effects.argsDigest({ id: 'o1' })),
];

console.log(`\nWhere a call goes (lap hook, wall clock, median of ${ROUNDS} rounds; the instrumented call takes ${total.toFixed(1)} µs)`);
console.log('  segment                                   µs/call   share');
for (const s of seg) console.log(`  ${s.name.padEnd(40)}${s.us.toFixed(2).padStart(9)}${((100 * s.us) / total).toFixed(1).padStart(7)} %`);
console.log('  jobs inside them, each alone on this call\'s values:');
for (const [label, us] of jobs) console.log(`    ${label.padEnd(54)}${us.toFixed(2).padStart(7)} µs`);
reportTarget({ area: 'executor', measure: 'per-stage table covers the call', value: `${((100 * covered) / total).toFixed(1)} %`, target: '≥ 90 %', met: covered / total >= 0.9 });

// 3. Memory per 1,000 calls in flight.
const inFlight = async (n: number): Promise<{ rss: number; heap: number }> => {
  const gates: (() => void)[] = [];
  const waiting = (args: { id: string }) => new Promise<void>((resolve) => gates.push(resolve)).then(() => run(args));
  const call = caller({ tool: waiting });
  await Promise.all(Array.from({ length: 200 }, (_, i) => { const p = call(i); gates.splice(0).forEach((g) => g()); return p; }));
  globalThis.gc?.();
  const before = process.memoryUsage();
  const pending = Array.from({ length: n }, (_, i) => call(i));
  while (gates.length < n) await new Promise((r) => setImmediate(r));
  globalThis.gc?.();
  const during = process.memoryUsage();
  for (const g of gates) g();
  await Promise.all(pending);
  return { rss: during.rss - before.rss, heap: during.heapUsed - before.heapUsed };
};
const mem = [await inFlight(1000), await inFlight(10_000)];
console.log('\nMemory while calls wait in flight (after GC; 1 KB results once released)');
console.log('  in flight    RSS growth   per 1,000    heap growth   per 1,000');
for (const [k, n] of [1000, 10_000].entries()) {
  const m = mem[k] as { rss: number; heap: number };
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  console.log(`  ${n.toLocaleString('en-US').padStart(9)}${mb(m.rss).padStart(14)}${mb((m.rss * 1000) / n).padStart(12)}${mb(m.heap).padStart(15)}${mb((m.heap * 1000) / n).padStart(12)}`);
}
const per1000 = ((mem[1]?.rss ?? NaN) / 10) / 1e6;
reportTarget({ area: 'executor', measure: 'RSS per 1,000 in-flight calls (of 10,000)', value: `${per1000.toFixed(1)} MB`, target: 'printed (no target)', met: true });

// 4. The ledger round trip of a write, on SQLite.
const dir = mkdtempSync(join(tmpdir(), 'trc-bench-'));
const ledgerRate = async (synchronous: 'FULL' | 'NORMAL', n: number) => {
  const store = await sqlite.openSqliteStore({ path: join(dir, `ledger-${synchronous}.db`), synchronous });
  const digestOfArgs = effects.argsDigest({ amount: 100 });
  const env = { status: 'succeeded' };
  const now = new Date().toISOString();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const key = `k_${synchronous}_${i}_${Math.random()}`;
    await effects.beginWrite(store, { key, tool: 'pay', principal: 'u1', argsDigest: digestOfArgs, callId: `c${i}`, now });
    await effects.settleWrite(store, key, { state: 'succeeded', envelope: env as never, attempts: 1, now });
  }
  const secs = (performance.now() - t0) / 1000;
  await store.close();
  return n / secs;
};
const ledgerFull = await ledgerRate('FULL', 1000);
const ledgerNormal = await ledgerRate('NORMAL', 3000);
rmSync(dir, { recursive: true, force: true });
console.log('\nledger (SQLite, wall clock: fsync-bound)        writes/s');
console.log(`begin + settle, synchronous=FULL (default) ${Math.round(ledgerFull).toLocaleString('en-US').padStart(12)}`);
console.log(`begin + settle, synchronous=NORMAL         ${Math.round(ledgerNormal).toLocaleString('en-US').padStart(12)}`);

/**
 * Executor benchmark.
 * 1. Calls/s through the full pipeline (args validation → policy → run → classify → normalize →
 *    stages → digest + validate() → audit in the memory store) on 1 KB results, against a bare
 *    loop that only calls the tool and JSON.stringify()s its return. Target ≥ 20,000 calls/s.
 *    Both loops run in interleaved rounds so they see the same machine load; the table shows the
 *    median round and the best round (the best is the closest to an idle machine).
 *    The pipeline is measured twice when `dist/` exists: from the TypeScript sources (through
 *    tsx, as `npm run bench` loads them) and from the compiled JavaScript users run. The compiled
 *    figure is the fair one; it is flagged when `dist/` is older than the sources.
 * 2. Idempotent write begin + settle per second on SQLite (the ledger round trip of every write).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { argsDigest, beginWrite, settleWrite } from '../src/effects/index.js';
import * as srcExecutor from '../src/executor/index.js';
import * as srcStore from '../src/store/index.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';

type ExecutorModule = typeof srcExecutor;
type StoreModule = typeof srcStore;

const items = Array.from({ length: 12 }, (_, i) => ({ sku: `sku_${i}`, name: `Item number ${i}`, qty: i + 1, price_cents: 1999 + i }));
const result = { order_id: 'ord_1001', status: 'shipped', customer: 'cus_42', carrier: 'DHL Express', tracking: 'JD014600006281234567', note: 'Leave at the front desk if nobody answers the door.', items };
const bytes = Buffer.byteLength(JSON.stringify(result));
const run = async ({ id }: { id: string }) => ({ data: { ...result, order_id: id } });

function setup(ex: ExecutorModule, st: StoreModule) {
  const tool = ex.defineTool({
    name: 'order_get',
    description: 'Look up an order',
    effect: 'read',
    risk: 'low',
    timeoutMs: 1000,
    source: { type: 'database', id: 'orders.primary' },
    input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    run,
  });
  const executor = ex.createExecutor({ tools: [tool], store: st.createMemoryStore() });
  let seq = 0;
  return (i: number) => executor.call({ call_id: `c${seq++}`, tool_name: 'order_get', args: { id: `o${i}` } }, { id: 'user_1' });
}

/** Seconds for `n` sequential awaited calls. */
async function time(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn(i);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

const ROUNDS = 10;
const PER_ROUND = 2_000;
const bare = (i: number) => run({ id: `o${i}` }).then((r) => JSON.stringify(r));
const loops: { label: string; fn: (i: number) => Promise<unknown>; secs: number[] }[] = [
  { label: 'bare loop (tool + JSON.stringify)', fn: bare, secs: [] },
  { label: 'full pipeline, TypeScript via tsx', fn: setup(srcExecutor, srcStore), secs: [] },
];

// Compiled code, when built: what users run (`npm run build` first for a current figure).
const root = fileURLToPath(new URL('..', import.meta.url));
const distEntry = join(root, 'dist/executor/index.js');
let distNote = '';
if (existsSync(distEntry)) {
  const newest = (dir: string, ext: string): number =>
    Math.max(0, ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(ext)).map((f) => statSync(join(dir, f)).mtimeMs));
  const stale = ['executor', 'effects', 'contract', 'store', 'trust', 'budget', 'evidence'].some((m) => newest(join(root, 'src', m), '.ts') > newest(join(root, 'dist', m), '.js'));
  if (stale) distNote = ' (dist/ older than src/: run npm run build)';
  const ex = (await import(distEntry)) as ExecutorModule;
  const st = (await import(join(root, 'dist/store/index.js'))) as StoreModule;
  loops.push({ label: `full pipeline, compiled dist/${stale ? ' (STALE)' : ''}`, fn: setup(ex, st), secs: [] });
} else {
  distNote = ' (no dist/: run npm run build to measure compiled code)';
}

for (const l of loops) await time(PER_ROUND, l.fn); // warm-up: JIT and Ajv compilation
globalThis.gc?.();
for (let r = 0; r < ROUNDS; r++) for (const l of loops) l.secs.push(await time(PER_ROUND, l.fn));

const dir = mkdtempSync(join(tmpdir(), 'trc-bench-'));
const ledgerRate = async (synchronous: 'FULL' | 'NORMAL', n: number) => {
  const store = await openSqliteStore({ path: join(dir, `ledger-${synchronous}.db`), synchronous });
  const digestOfArgs = argsDigest({ amount: 100 });
  const envelope = { status: 'succeeded' };
  const now = new Date().toISOString();
  const secs = await time(n, async (i) => {
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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const rates = loops.map((l) => ({ label: l.label, median: PER_ROUND / median(l.secs), best: PER_ROUND / Math.min(...l.secs) }));
const fmt = (x: number) => Math.round(x).toLocaleString('en-US').padStart(10);
const bareRate = rates[0];
const fair = rates[rates.length - 1];
console.log(`result size: ${bytes} bytes of JSON per call; ${ROUNDS} interleaved rounds of ${PER_ROUND.toLocaleString('en-US')} sequential calls per loop`);
console.log(`machine: load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} (1/5/15 min); wall-clock rates shrink under load${distNote}`);
console.log('');
console.log('measure                                   median calls/s   µs/call   best calls/s   ratio to bare (median)');
for (const r of rates) {
  console.log(`${r.label.padEnd(42)}${fmt(r.median)}   ${(1e6 / r.median).toFixed(1).padStart(7)}   ${fmt(r.best)}     ${r === bareRate ? '' : (r.median / (bareRate?.median ?? NaN)).toFixed(3)}`);
}
if (fair !== undefined && bareRate !== undefined) {
  console.log(`target ≥ 20,000 calls/s (${fair.label}): ${fair.median >= 20_000 ? 'met' : fair.best >= 20_000 ? 'met in the best round only' : 'NOT met'}; bare is ${(bareRate.median / fair.median).toFixed(1)}× faster`);
}
console.log('');
console.log('ledger (SQLite)                                 writes/s');
console.log(`begin + settle, synchronous=FULL (default) ${fmt(ledgerFull).padStart(12)}`);
console.log(`begin + settle, synchronous=NORMAL         ${fmt(ledgerNormal).padStart(12)}`);

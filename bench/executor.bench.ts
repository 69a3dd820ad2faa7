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
 * 5. Gateway CPU per call (`trc gateway` over stdio in front of the fixture MCP server, the echo
 *    tool) against the executor's own CPU for the same result in process (the gateway's rules,
 *    an MCP outcome, SQLite with the write-behind audit sink) and a byte-copying proxy's CPU.
 *    Target: gateway ≤ executor + 2 × proxy. Beside them, a relay built on the official SDK's
 *    Server and Client with no contract: what the SDK's part of a call costs alone. (The
 *    comparison with other gateways is `npm run bench -- gateway`.) And one in-process call
 *    timed alone, in a tight loop and with the CPU caches cold (32 MB read between calls), as a
 *    server's call runs after it slept while its client and upstream ran.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as ContractModule from '../src/contract/index.js';
import type * as EffectsModule from '../src/effects/index.js';
import type * as ExecutorModule from '../src/executor/index.js';
import type * as StoreModule from '../src/store/index.js';
import type * as SqliteModule from '../src/store/sqlite/index.js';
import type * as TrustModule from '../src/trust/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type * as GatewayModule from '../src/gateway/index.js';
import { cpuMs, cpuMsAsync, ensureFreshDist, machineLine, median, reportTarget } from './harness.js';
import { processCpuUs } from './proc-cpu.js';

ensureFreshDist();
const dist = (m: string) => import(new URL(`../dist/${m}/index.js`, import.meta.url).href);
const ex = (await dist('executor')) as typeof ExecutorModule;
const st = (await dist('store')) as typeof StoreModule;
const contract = (await dist('contract')) as typeof ContractModule;
const trust = (await dist('trust')) as typeof TrustModule;
const effects = (await dist('effects')) as typeof EffectsModule;
const sqlite = (await dist('store/sqlite')) as typeof SqliteModule;
const gatewayModule = (await dist('gateway')) as typeof GatewayModule;

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
  // The memory store as users get it (it keeps the newest 10,000 records), without its warning.
  const executor = ex.createExecutor({ tools: [orderTool(options.tool ?? run)], store: st.createMemoryStore({ onEvict: () => undefined }), ...(options.lap === undefined ? {} : { lap: options.lap }) });
  let seq = 0;
  return (i: number) => executor.call({ call_id: `c${seq++}`, tool_name: 'order_get', args: { id: `o${i}` } }, { id: 'user_1' });
}

const sequential = async (n: number, fn: (i: number) => Promise<unknown>): Promise<void> => {
  for (let i = 0; i < n; i++) await fn(i);
};

// 1. Ratio to the bare loop: CPU µs per call, interleaved rounds, after a warm-up long enough
// for a long-running process's steady state: the JIT has finished tiering the pipeline up (the
// first ~10,000 calls cost 1.5–8× the later ones) and the memory store is full, dropping its
// oldest record for each new one. A round is short beside the major GCs that steady state
// brings (every ~25,000 calls here, when a round costs ~1.4× the others), so the target's
// figure is the mean over all rounds, GC included in proportion; the median round is printed
// beside it.
const ROUNDS = 9;
const PER_ROUND = 4_000;
const WARM_UP = 20_000;
const bare = (i: number) => run({ id: `o${i}` }).then((r) => JSON.stringify(r));
const pipeline = caller();
const loops = [
  { label: 'bare loop (tool + JSON.stringify)', fn: bare, us: [] as number[] },
  { label: 'full pipeline (compiled dist/)', fn: pipeline, us: [] as number[] },
];
// Warm-up (JIT, Ajv, the token table, a full store), timed: what a process's first calls cost.
const firstUs = new Map<string, number>();
for (const l of loops) firstUs.set(l.label, (1000 * (await cpuMsAsync(() => sequential(WARM_UP, l.fn)))) / WARM_UP);
// No forced gc() between rounds: V8's gc() is a testing GC that also drops optimized code whose
// embedded maps it collected (`--trace-deopt`: "weak objects"), so each round began by optimizing
// the pipeline again, about doubling its figure. The major GCs V8 starts by itself did not (same
// trace), so rounds run on the heap as it is, which is what a long-running process sees.
const roundUs = async (fn: (i: number) => Promise<unknown>) => (1000 * (await cpuMsAsync(() => sequential(PER_ROUND, fn)))) / PER_ROUND;
for (let r = 0; r < ROUNDS; r++) for (const l of loops) l.us.push(await roundUs(l.fn));
const mean = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
const bareUs = mean(loops[0]?.us ?? []);
const pipeUs = mean(loops[1]?.us ?? []);
// The same pipeline, each round after a forced gc() (how this bench measured before): printed so
// figures from earlier runs can be compared, and to show what the testing GC costs it.
const afterForcedGc: number[] = [];
const forceGc = globalThis.gc;
if (forceGc !== undefined) {
  for (let r = 0; r < 5; r++) {
    forceGc();
    afterForcedGc.push(await roundUs(pipeline));
  }
}
console.log(`result: ${bytes} bytes of JSON per call; after ${WARM_UP.toLocaleString('en-US')} warm-up calls, ${ROUNDS} interleaved rounds of ${PER_ROUND.toLocaleString('en-US')} sequential calls; CPU time (GC included), mean of the rounds`);
console.log(machineLine());
console.log('\nmeasure                                CPU µs/call   calls/s of CPU   ratio to bare   median round   first calls');
for (const l of loops) {
  const us = mean(l.us);
  const first = firstUs.get(l.label) ?? 0;
  console.log(`${l.label.padEnd(38)}${us.toFixed(1).padStart(12)}${Math.round(1e6 / us).toLocaleString('en-US').padStart(17)}${(us / bareUs).toFixed(2).padStart(16)}${median(l.us).toFixed(1).padStart(15)}${first.toFixed(1).padStart(14)}`);
}
const firstRatio = (firstUs.get(loops[1]?.label ?? '') ?? 0) / (firstUs.get(loops[0]?.label ?? '') ?? 1);
console.log(`  first calls: the ${WARM_UP.toLocaleString('en-US')} warm-up calls of each, a process's start (JIT tiering, an empty store): ${firstRatio.toFixed(2)}× the bare loop's`);
if (afterForcedGc.length > 0) console.log(`  the pipeline, each round after a forced gc() (as earlier runs measured): ${median(afterForcedGc).toFixed(1)} µs = ${(median(afterForcedGc) / bareUs).toFixed(2)}× — that testing GC drops optimized code, so a round starts by re-optimizing; not the target's figure`);
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
  const t0 = performance.now(); // no forced gc() first, as above
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
  return [label, (1000 * cpuMs(() => { for (let i = 0; i < 20_000; i++) f(); })) / 20_000];
};
// The call's audit record as the store got it, stored again under fresh ids as the pipeline
// stores it: the detail's JSON without the envelope, the envelope's JSON (made for its digest,
// above) spliced on, the store's copy. One store on its defaults, which keeps the newest 10,000
// (a fresh store every 1,000, as before, took fresh memory for every record: 21 µs against 12).
const recordStore = st.createMemoryStore();
const recordExecutor = ex.createExecutor({ tools: [orderTool(run)], store: recordStore });
await recordExecutor.call({ call_id: 'rec_1', tool_name: 'order_get', args: { id: 'o1' } }, { id: 'user_1' });
const record = await recordStore.getAudit('rec_1');
const recordHead = { ...(record?.detail ?? {}), envelope: undefined };
const recordEnvelopeJson = JSON.stringify((record?.detail as { envelope?: unknown } | undefined)?.envelope);
const sink = st.createMemoryStore({ onEvict: () => undefined });
let stored = 0;
const storeRecord = (): void => {
  if (record === null) return;
  stored++;
  void sink.appendAudit({ ...record, callId: `r${stored}` }, { detailJson: `${JSON.stringify(recordHead).slice(0, -1)},"envelope":${recordEnvelopeJson}}` });
};
const jobs: [string, number][] = [
  alone('digest(data): RFC 8785 + SHA-256 (in classify)', () => void contract.digest(data)),
  alone('JSON.stringify(data) + SHA-256, for comparison', () => void contract.sha256Hex(JSON.stringify(data))),
  alone('validate(envelope), digest not re-checked (finalize)', () => void contract.validate(envelope, { checkDigest: false })),
  // A copy: the pipeline marks its envelopes masked, and masking a marked one is skipped.
  alone('maskEnvelope(envelope) (visibility)', () => void trust.maskEnvelope(structuredClone(envelope))),
  alone('structuredClone(envelope), to subtract from the line above', () => void structuredClone(envelope)),
  alone('JSON.stringify(envelope) + SHA-256 (audit record)', () => void contract.sha256Hex(JSON.stringify(envelope))),
  alone('argsDigest(args) (prepare)', () => void effects.argsDigest({ id: 'o1' })),
  alone('storing the audit record in the memory store (audit-sink)', storeRecord),
];

console.log(`\nWhere a call goes (lap hook, wall clock, median of ${ROUNDS} rounds; the instrumented call takes ${total.toFixed(1)} µs)`);
console.log('  segment                                   µs/call   share');
for (const s of seg) console.log(`  ${s.name.padEnd(40)}${s.us.toFixed(2).padStart(9)}${((100 * s.us) / total).toFixed(1).padStart(7)} %`);
console.log('  jobs inside them, each alone on this call\'s values (CPU µs):');
for (const [label, us] of jobs) console.log(`    ${label.padEnd(54)}${us.toFixed(2).padStart(7)} µs`);
// What the contract asks of every call, measured alone, against the bare loop: a floor for the ratio.
const job = (label: string) => jobs.find(([l]) => l.startsWith(label))?.[1] ?? NaN;
const floor = job('digest(data)') + job('validate(envelope)') + job('JSON.stringify(envelope)') + job('argsDigest') + job('maskEnvelope') - job('structuredClone');
console.log(`  digest + validate + audit JSON and hash + args digest + masking, alone: ${floor.toFixed(1)} CPU µs = ${(floor / bareUs).toFixed(1)}× the bare loop, before any stage logic, store or GC`);
const stores = floor + job('storing the audit record');
console.log(`  the same and storing the record: ${stores.toFixed(1)} CPU µs = ${(stores / bareUs).toFixed(1)}× the bare loop (target 5×), before any stage logic or GC`);
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
console.log('\nledger (SQLite, wall clock: fsync-bound)        writes/s');
console.log(`begin + settle, synchronous=FULL (default) ${Math.round(ledgerFull).toLocaleString('en-US').padStart(12)}`);
console.log(`begin + settle, synchronous=NORMAL         ${Math.round(ledgerNormal).toLocaleString('en-US').padStart(12)}`);

// 5. Gateway CPU per call, beside the executor's CPU for the same result and a byte-copying proxy.
const root = new URL('..', import.meta.url).pathname;
const server = [process.execPath, join(root, 'test/gateway/fixtures/faulty-server.mjs')];
const config = join(dir, 'gateway.yaml');
writeFileSync(config, 'defaults:\n  effect: read\n');
const sides = {
  'direct (the server alone)': server,
  'byte-copying proxy': [process.execPath, join(root, 'test/gateway/fixtures/pipe-proxy.mjs'), ...server],
  'SDK relay (official SDK, no contract)': [process.execPath, join(root, 'test/gateway/fixtures/sdk-relay.mjs'), ...server],
  'trc gateway (dist/)': [process.execPath, join(root, 'dist/cli/bin.js'), 'gateway', '--config', config, '--store', join(dir, 'gateway.sqlite'), '--', ...server],
};
type Side = keyof typeof sides;
const clients = new Map<Side, { client: Client; pid: number }>();
for (const [side, argv] of Object.entries(sides) as [Side, string[]][]) {
  const [command, ...args] = argv as [string, ...string[]];
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
  await client.connect(transport);
  clients.set(side, { client, pid: transport.pid ?? -1 });
}
const procCpuMs = (pid: number): number => (processCpuUs(pid) ?? NaN) / 1000;
const echo = (c: Client, i: number) => c.request({ method: 'tools/call', params: { name: 'echo', arguments: { message: `m${i}` } } }, CallToolResultSchema);
const GW_CALLS = 3000;
// Each process's first ~6,000 calls still tier its code up (JIT compile threads, included in its
// CPU: ~300 µs a call over calls 300–3,300, ~60 after 6,000 on the gateway), while the executor's
// figure below is taken in a process that has made over 100,000 pipeline calls. So the target is
// read after a warm-up of GW_WARM_UP calls per side; the rounds right after 300 calls (how this
// bench measured until 2026-12-07) are printed beside it.
const GW_WARM_UP = 6000;
const gwSamples = new Map<Side, number[]>();
const gwEarly = new Map<Side, number[]>();
const gwRounds = async (into: Map<Side, number[]>) => {
  for (let r = 0; r < 3; r++) {
    for (const [side, { client, pid }] of clients) {
      const c0 = procCpuMs(pid);
      for (let i = 0; i < GW_CALLS; i++) await echo(client, i);
      (into.get(side) ?? into.set(side, []).get(side))?.push((1000 * (procCpuMs(pid) - c0)) / GW_CALLS);
    }
  }
};
for (const { client } of clients.values()) for (let i = 0; i < 300; i++) await echo(client, i);
await gwRounds(gwEarly);
for (const { client } of clients.values()) for (let i = 300 + 3 * GW_CALLS; i < GW_WARM_UP; i++) await echo(client, i);
await gwRounds(gwSamples);
for (const { client } of clients.values()) await client.close();
// The executor's own work for the same call, in process: the gateway's rules, the echo tool's
// CallToolResult as the outcome, SQLite with the write-behind audit sink (the gateway's).
const gwStore = await sqlite.openSqliteStore({ path: join(dir, 'executor.sqlite') });
const gwRules = gatewayModule.toolRulesFor({ defaults: { effect: 'read' } } as never, { name: 'upstream', command: 'x' } as never, 'echo', 'echo', { name: 'echo' }, 'trc_confirm');
const gwExecutor = ex.createExecutor({ store: gwStore, audit: ex.writeBehindAuditSink(gwStore) });
const mcpInvoker: ExecutorModule.Invoker = {
  attempt: async (args) => ({ kind: 'mcp', result: { content: [{ type: 'text', text: String((args as { message: string }).message) }] }, listing: { name: 'echo' }, server: { name: 'upstream', trusted: false }, sent: true }),
};
let gwSeq = 0;
const inProcess = (i: number) => gwExecutor.run(gwRules, mcpInvoker, { call_id: `g${gwSeq++}`, tool_name: 'echo', args: { message: `m${i}` } }, { id: 'gateway' });
await sequential(2000, inProcess);
const execSamples: number[] = [];
for (let r = 0; r < 5; r++) execSamples.push((1000 * (await cpuMsAsync(async () => { await sequential(GW_CALLS, inProcess); await gwExecutor.flushAudit(); }))) / GW_CALLS);
// The same calls as a server runs them: between two calls it sleeps while the client and the
// upstream run, and its next call finds the CPU caches holding their data, not its own. Here
// 32 MB are read between calls (outside the timing) and each call alone is timed, wall clock,
// beside the same loop without the reads. The write-behind queue drains between calls.
const junk = new Float64Array((32 << 20) / 8);
let junkSum = 0;
const evictCaches = (): void => { for (let j = 0; j < junk.length; j += 8) junkSum += junk[j] ?? 0; };
const callWallUs = async (n: number, cold: boolean): Promise<number> => {
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (cold) evictCaches();
    const t = performance.now();
    await inProcess(i);
    total += performance.now() - t;
    await new Promise((r) => setImmediate(r));
  }
  return (1000 * total) / n;
};
const warmUs: number[] = [];
const coldUs: number[] = [];
for (let r = 0; r < 3; r++) {
  warmUs.push(await callWallUs(1000, false));
  coldUs.push(await callWallUs(1000, true));
}
await gwExecutor.flushAudit();
await gwStore.close();
rmSync(dir, { recursive: true, force: true });
const gwUs = (side: Side) => median(gwSamples.get(side) ?? []);
const execUs = median(execSamples);
console.log(`\nGateway CPU per call (echo tool over stdio, ${GW_CALLS} sequential calls x 3 alternated rounds after ${GW_WARM_UP.toLocaleString('en-US')} warm-up calls, CPU of the spawned process from /proc; in parentheses the rounds right after 300 calls)`);
for (const side of Object.keys(sides) as Side[]) console.log(`  ${side.padEnd(40)}${gwUs(side).toFixed(0).padStart(7)} µs  (${median(gwEarly.get(side) ?? []).toFixed(0)} µs)`);
console.log(`  ${'executor in process, same result'.padEnd(40)}${execUs.toFixed(0).padStart(7)} µs`);
const warm = median(warmUs);
const cold = median(coldUs);
// junkSum is printed only so the reads cannot be optimized away.
console.log(`  one call alone (wall, audit drained apart): ${warm.toFixed(0)} µs in a tight loop, ${cold.toFixed(0)} µs with the caches cold (32 MB read between calls${junkSum < 0 ? "!" : ""}): ${(cold / warm).toFixed(1)}×`);
const bound = execUs + 2 * gwUs('byte-copying proxy');
// What carrying the messages through the official SDK's Server and Client costs by itself: the
// part of the bound's gap no pipeline work can remove while the gateway is built on the SDK.
const relayUs = gwUs('SDK relay (official SDK, no contract)');
console.log(`  the SDK relay alone is ${(relayUs / gwUs('byte-copying proxy')).toFixed(1)}× the byte-copying proxy; executor + SDK relay = ${(execUs + relayUs).toFixed(0)} µs, the gateway ${(gwUs('trc gateway (dist/)') - execUs - relayUs).toFixed(0)} µs above that`);
reportTarget({ area: 'gateway', measure: 'CPU per call vs executor + 2 × byte-copying proxy', value: `${gwUs('trc gateway (dist/)').toFixed(0)} µs`, target: `≤ ${bound.toFixed(0)} µs`, met: gwUs('trc gateway (dist/)') <= bound, note: `executor ${execUs.toFixed(0)} µs, proxy ${gwUs('byte-copying proxy').toFixed(0)} µs` });

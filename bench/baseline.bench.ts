/**
 * Today against a baseline commit (default: the last commit before the one-pipeline change of
 * issue 13, when the gateway and the wrappers had pipelines of their own): the same workloads
 * on both builds, in alternating rounds of one run, so machine load hits them alike.
 *
 * - executor: calls/s of an in-process read tool returning ~1 KB (memory store);
 * - gateway: `trc gateway` over stdio in front of the same echo server, `echo` declared a read:
 *   the gateway process's CPU µs per call (schedstat, every thread) and the client's ms per
 *   sequential call, in rounds right after 2,000 calls (early, printed) and after 20,000 calls
 *   (warm, the target; `BENCH_GATEWAY_WARMUP`).
 *
 * The baseline is extracted with `git archive` into a temporary folder beside the clone's
 * `node_modules` and compiled there (once; kept in the temp folder for the next run). A clone
 * without that commit (shallow) prints why and skips. `TRC_BENCH_BASELINE=<commit>` picks
 * another baseline. Needs git and a POSIX /proc (Linux).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureFreshDist, fmt, machineLine, median, reportTarget } from './harness.js';
import { processCpuUs } from './proc-cpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BASELINE = process.env['TRC_BENCH_BASELINE'] ?? 'eed0ea5';

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The baseline's compiled tree, built once per commit in the temp folder. */
function baselineRoot(): string | null {
  let sha: string;
  try {
    sha = git(['rev-parse', '--verify', `${BASELINE}^{commit}`]);
  } catch {
    return null;
  }
  const dir = join(tmpdir(), `trc-bench-baseline-${sha.slice(0, 12)}`);
  if (existsSync(join(dir, 'dist/cli/bin.js'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`building baseline ${sha.slice(0, 12)} in ${dir} …`);
  execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C '${dir}'`], { cwd: ROOT, stdio: 'inherit' });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

// ---- executor: an in-process read tool, ~1 KB result --------------------------------------
const items = Array.from({ length: 12 }, (_, i) => ({ sku: `sku_${i}`, name: `Item number ${i}`, qty: i + 1, price_cents: 1999 + i }));
const order = { order_id: 'ord_1001', status: 'shipped', customer: 'cus_42', carrier: 'DHL Express', tracking: 'JD014600006281234567', note: 'Leave at the front desk if nobody answers the door.', items };

type Call = (i: number) => Promise<unknown>;
async function executorOf(root: string): Promise<Call> {
  const ex = (await import(join(root, 'dist/executor/index.js'))) as Record<string, (...a: unknown[]) => unknown>;
  const st = (await import(join(root, 'dist/store/index.js'))) as Record<string, (...a: unknown[]) => unknown>;
  const tool = ex['defineTool']!({
    name: 'order_get', description: 'Look up an order', effect: 'read', risk: 'low', timeoutMs: 1000,
    source: { type: 'database', id: 'orders.primary' },
    input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    run: async ({ id }: { id: string }) => ({ data: { ...order, order_id: id } }),
  });
  // Today's memory store keeps the newest 10,000 audit records and warns on stderr as it drops
  // older ones (this bench makes more calls than that): told to drop them quietly. The baseline's
  // store keeps everything and ignores the option.
  const store = st['createMemoryStore']!({ onEvict: () => undefined });
  const executor = ex['createExecutor']!({ tools: [tool], store }) as { call: (c: unknown, p: unknown) => Promise<unknown> };
  let seq = 0;
  return (i) => executor.call({ call_id: `c${seq++}`, tool_name: 'order_get', args: { id: `o${i}` } }, { id: 'user_1' });
}

async function callsPerSecond(call: Call, n: number): Promise<number> {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await call(i);
  return n / (Number(process.hrtime.bigint() - t) / 1e9);
}

// ---- gateway: stdio, echo declared a read ----------------------------------------------------
const scratch = mkdtempSync(join(tmpdir(), 'trc-bench-baseline-run-'));
const config = join(scratch, 'read.yaml');
writeFileSync(config, 'defaults:\n  effect: read\n');
const echoServer = join(ROOT, 'test/gateway/fixtures/faulty-server.mjs');

const cpuUs = (pid: number): number => processCpuUs(pid) ?? NaN;

async function gatewayOf(root: string, tag: string): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, 'dist/cli/bin.js'), 'gateway', '--config', config, '--store', join(scratch, `${tag}.sqlite`), '--', process.execPath, echoServer],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid as number };
}

async function gatewayRound(g: { client: Client; pid: number }, n: number): Promise<{ cpu: number; ms: number }> {
  const c0 = cpuUs(g.pid);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const r = await g.client.callTool({ name: 'echo', arguments: { message: `hi ${i}` } });
    if (r.isError === true) throw new Error(`echo failed through the gateway: ${JSON.stringify(r.content)}`);
  }
  return { cpu: (cpuUs(g.pid) - c0) / n, ms: Number(process.hrtime.bigint() - t0) / 1e6 / n };
}

const base = baselineRoot();
if (base === null) {
  console.log(`baseline ${BASELINE} is not in this clone (a shallow clone?): skipped. Fetch it, or set TRC_BENCH_BASELINE.`);
  process.exit(0);
}
ensureFreshDist();
console.log(machineLine());
console.log(`baseline ${BASELINE} (${base}) vs this tree`);

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 8);
const [execOld, execNew] = [await executorOf(base), await executorOf(ROOT)];
await callsPerSecond(execOld, 2000);
await callsPerSecond(execNew, 2000);
const eo: number[] = [];
const en: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  eo.push(await callsPerSecond(execOld, 2000));
  en.push(await callsPerSecond(execNew, 2000));
}
const execRatio = median(en) / median(eo);
console.log(`executor (in-process read, ~1 KB): baseline ${fmt(median(eo))} calls/s, today ${fmt(median(en))} calls/s → ${execRatio.toFixed(2)}×`);
reportTarget({ area: 'baseline', measure: 'executor calls/s, today ÷ baseline', value: `${execRatio.toFixed(2)}×`, target: '≥ 1.00× (no slower)', met: execRatio >= 1 });

const [gwOld, gwNew] = [await gatewayOf(base, 'baseline'), await gatewayOf(ROOT, 'today')];
const PER_ROUND = Number(process.env['BENCH_CALLS'] ?? 500);
/** Alternating rounds of both gateways: medians of CPU µs and ms per call. */
async function alternate(): Promise<{ cpuOld: number; cpuNew: number; msOld: number; msNew: number }> {
  const go: { cpu: number; ms: number }[] = [];
  const gn: { cpu: number; ms: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    go.push(await gatewayRound(gwOld, PER_ROUND));
    gn.push(await gatewayRound(gwNew, PER_ROUND));
  }
  return { cpuOld: median(go.map((x) => x.cpu)), cpuNew: median(gn.map((x) => x.cpu)), msOld: median(go.map((x) => x.ms)), msNew: median(gn.map((x) => x.ms)) };
}
const line = (label: string, m: Awaited<ReturnType<typeof alternate>>) =>
  `gateway (stdio, echo, ${label}): CPU per call baseline ${fmt(m.cpuOld)} µs, today ${fmt(m.cpuNew)} µs → ${(m.cpuNew / m.cpuOld).toFixed(2)}×; ms per sequential call baseline ${m.msOld.toFixed(2)}, today ${m.msNew.toFixed(2)} → ${(m.msNew / m.msOld).toFixed(2)}×`;
// Early: the rounds right after 2,000 calls, while V8 is still optimizing (a process's first
// seconds; more code takes longer to tier up). Warm: after GW_WARM_UP calls each, what a
// running gateway costs per call: the target line, as the executor bench measures after its
// own 20,000-call warm-up.
await gatewayRound(gwOld, 2000);
await gatewayRound(gwNew, 2000);
const early = await alternate();
const GW_WARM_UP = Number(process.env['BENCH_GATEWAY_WARMUP'] ?? 20_000);
const done = 2000 + ROUNDS * PER_ROUND;
if (GW_WARM_UP > done) {
  await gatewayRound(gwOld, GW_WARM_UP - done);
  await gatewayRound(gwNew, GW_WARM_UP - done);
}
const warm = await alternate();
await gwOld.client.close();
await gwNew.client.close();
rmSync(scratch, { recursive: true, force: true });
console.log(line('early: rounds after 2,000 calls', early));
console.log(line(`warm: rounds after ${fmt(Math.max(GW_WARM_UP, done))} calls`, warm));
const { cpuOld, cpuNew, msOld, msNew } = warm;
reportTarget({ area: 'baseline', measure: 'gateway CPU µs/call, today ÷ baseline', value: `${(cpuNew / cpuOld).toFixed(2)}×`, target: '≤ 1.00× (no slower)', met: cpuNew <= cpuOld, note: `warm; ${(early.cpuNew / early.cpuOld).toFixed(2)}× after 2,000 calls` });
reportTarget({ area: 'baseline', measure: 'gateway ms/call, today ÷ baseline', value: `${(msNew / msOld).toFixed(2)}×`, target: '≤ 1.00× (no slower)', met: msNew <= msOld, note: `warm; ${(early.msNew / early.msOld).toFixed(2)}× after 2,000 calls` });

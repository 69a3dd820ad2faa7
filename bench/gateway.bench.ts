/**
 * Gateway overhead: a trivial tool (`echo` of the fixture server) called directly and through
 * `trc gateway`, both with the official v1 SDK client over stdio, in the same run.
 * The gateway runs as users run it: `node dist/cli/bin.js gateway` (the compiled package; build
 * it first with `npx tsc -p tsconfig.build.json`). Without `dist/` it falls back to the sources
 * through tsx and says so. Latency: sequential calls, p50/p99. Throughput: calls/s sequentially
 * (one call in flight) and with 8 calls in flight.
 * A byte-copying proxy (test/gateway/fixtures/pipe-proxy.mjs) is measured too: the floor of any stdio proxy.
 * Targets (issue 8): ≤ 1 ms added at p50, ≥ 80 % of direct throughput.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const server = [process.execPath, join(root, 'test/gateway/fixtures/faulty-server.mjs')];
const dir = mkdtempSync(join(tmpdir(), 'trc-gw-bench-'));
const config = join(dir, 'bench.yaml');
// A read tool: no ledger; every call still gets the full pipeline and an audit record.
writeFileSync(config, 'defaults:\n  effect: read\n');
const compiled = join(root, 'dist/cli/bin.js');
const useDist = existsSync(compiled) && process.env.BENCH_GATEWAY_FROM !== 'src';
const cli = useDist ? [process.execPath, compiled] : [process.execPath, '--import', 'tsx', join(root, 'src/cli/bin.ts')];
// BENCH_STORE=:memory: shows what the per-call SQLite commit of the audit record costs.
const storePath = process.env.BENCH_STORE ?? join(dir, 'bench.sqlite');
const gateway = [...cli, 'gateway', '--config', config, '--store', storePath, '--', ...server];

const WARMUP = 500;
const SEQUENTIAL = Number(process.env.BENCH_CALLS ?? 3000);
const CONCURRENCY = 8;
const THROUGHPUT_CALLS = Number(process.env.BENCH_THROUGHPUT_CALLS ?? 6000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const pids = new Map<Client, number>();
async function connect(argv: string[]): Promise<Client> {
  const [command, ...args] = argv as [string, ...string[]];
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
  await client.connect(transport);
  if (transport.pid !== null) pids.set(client, transport.pid);
  return client;
}

/** CPU time (user + system, ms) used so far by the process the client spawned (Linux /proc; null elsewhere). */
function cpuMs(c: Client): number | null {
  const pid = pids.get(c);
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks, USER_HZ = 100
  } catch {
    return null;
  }
}

const call = (c: Client, i: number) => c.request({ method: 'tools/call', params: { name: 'echo', arguments: { message: `m${i}` } } }, CallToolResultSchema);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

interface Figures {
  /** CPU of the spawned process (server, proxy or gateway — not its children) per call, µs. */
  cpuUs: number;
  p50: number;
  p99: number;
  seqRps: number;
  concRps: number;
}

async function measureOnce(c: Client): Promise<Figures> {
  const times: number[] = [];
  const cpu0 = cpuMs(c);
  const s0 = performance.now();
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t = performance.now();
    await call(c, i);
    times.push(performance.now() - t);
  }
  const seqRps = SEQUENTIAL / ((performance.now() - s0) / 1000);
  times.sort((a, b) => a - b);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < THROUGHPUT_CALLS) await call(c, next++);
    }),
  );
  const concRps = THROUGHPUT_CALLS / ((performance.now() - t0) / 1000);
  const cpu1 = cpuMs(c);
  const cpuUs = cpu0 === null || cpu1 === null ? NaN : ((cpu1 - cpu0) * 1000) / (SEQUENTIAL + THROUGHPUT_CALLS);
  return { cpuUs, p50: percentile(times, 50), p99: percentile(times, 99), seqRps, concRps };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

// The rounds alternate between the three set-ups so that machine load hits them alike; the
// median round counts. "byte-copying proxy" is the floor of any stdio proxy (one more process,
// two more pipe hops, no parsing): what no gateway can beat.
const pipeProxy = [process.execPath, join(root, 'test/gateway/fixtures/pipe-proxy.mjs'), ...server];
const sides = { direct: server, pipe: pipeProxy, via: gateway } as const;
type Side = keyof typeof sides;
const clients = {} as Record<Side, Client>;
for (const side of Object.keys(sides) as Side[]) {
  clients[side] = await connect([...sides[side]]);
  for (let i = 0; i < WARMUP; i++) await call(clients[side], i);
}
const rounds: Record<Side, Figures>[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const round = {} as Record<Side, Figures>;
  for (const side of Object.keys(sides) as Side[]) round[side] = await measureOnce(clients[side]);
  rounds.push(round);
}
for (const c of Object.values(clients)) await c.close();
const pick = (side: Side): Figures => ({
  cpuUs: median(rounds.map((r) => r[side].cpuUs)),
  p50: median(rounds.map((r) => r[side].p50)),
  p99: median(rounds.map((r) => r[side].p99)),
  seqRps: median(rounds.map((r) => r[side].seqRps)),
  concRps: median(rounds.map((r) => r[side].concRps)),
});
const direct = pick('direct');
const pipe = pick('pipe');
const via = pick('via');

const fmt = (n: number, w = 9) => n.toFixed(3).padStart(w);
const rps = (n: number) => n.toFixed(0).padStart(13);
console.log(`gateway bench: trivial tool (echo), v1 SDK client over stdio; gateway = ${useDist ? 'node dist/cli/bin.js gateway (compiled, as users run it)' : 'node --import tsx src/cli/bin.ts gateway (sources: dist/ not built)'}`);
console.log(`gateway store: ${storePath === ':memory:' ? 'in-memory SQLite (BENCH_STORE)' : 'SQLite file (WAL, synchronous=NORMAL), the default'}`);
console.log(`${ROUNDS} alternating rounds, median shown; each round: ${SEQUENTIAL} sequential calls, then ${THROUGHPUT_CALLS} calls with ${CONCURRENCY} in flight`);
const cpu = (f: Figures) => (Number.isNaN(f.cpuUs) ? '     n/a' : f.cpuUs.toFixed(0).padStart(8));
console.log('                     p50 ms    p99 ms   seq calls/s  calls/s @8  CPU µs/call (spawned process)');
console.log(`direct            ${fmt(direct.p50)} ${fmt(direct.p99)} ${rps(direct.seqRps)} ${rps(direct.concRps).slice(1)}  ${cpu(direct)} (server)`);
console.log(`byte-copying proxy${fmt(pipe.p50)} ${fmt(pipe.p99)} ${rps(pipe.seqRps)} ${rps(pipe.concRps).slice(1)}  ${cpu(pipe)} (proxy only)`);
console.log(`through gateway   ${fmt(via.p50)} ${fmt(via.p99)} ${rps(via.seqRps)} ${rps(via.concRps).slice(1)}  ${cpu(via)} (gateway only)`);
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores (calls/s depend on it; CPU µs/call much less)`);
const added = via.p50 - direct.p50;
const verdict = (ok: boolean) => (ok ? 'HOLDS' : 'MISSED');
const seqRatio = via.seqRps / direct.seqRps;
const concRatio = via.concRps / direct.concRps;
console.log(`added p50 latency: ${added.toFixed(3)} ms (target ≤ 1 ms) ${verdict(added <= 1)}`);
console.log(`throughput, sequential: ${(seqRatio * 100).toFixed(1)} % of direct (target ≥ 80 %) ${verdict(seqRatio >= 0.8)}`);
console.log(`throughput, ${CONCURRENCY} in flight: ${(concRatio * 100).toFixed(1)} % of direct (target ≥ 80 %) ${verdict(concRatio >= 0.8)}`);
const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)} %`;
console.log(`floor: a byte-copying proxy alone reaches ${pct(pipe.seqRps, direct.seqRps)} (sequential) and ${pct(pipe.concRps, direct.concRps)} (${CONCURRENCY} in flight) of direct, adding ${(pipe.p50 - direct.p50).toFixed(3)} ms at p50;`);
console.log(`       the gateway reaches ${pct(via.seqRps, pipe.seqRps)} / ${pct(via.concRps, pipe.concRps)} of that proxy`);

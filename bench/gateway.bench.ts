/**
 * Gateway overhead: a trivial tool (`echo` of the fixture server) called directly and through
 * `trc gateway`, both with the official v1 SDK client over stdio, in the same run.
 * The gateway runs as users run it: `node dist/cli/bin.js gateway` (the compiled package; build
 * it first with `npx tsc -p tsconfig.build.json`). Without `dist/` it falls back to the sources
 * through tsx and says so. Latency: sequential calls, p50/p99. Throughput: calls/s sequentially
 * (one call in flight) and with 8 calls in flight.
 * Targets (issue 8): ≤ 1 ms added at p50, ≥ 80 % of direct throughput.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
const gateway = [...cli, 'gateway', '--config', config, '--store', join(dir, 'bench.sqlite'), '--', ...server];

const WARMUP = 500;
const SEQUENTIAL = Number(process.env.BENCH_CALLS ?? 3000);
const CONCURRENCY = 8;
const THROUGHPUT_CALLS = Number(process.env.BENCH_THROUGHPUT_CALLS ?? 6000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function connect(argv: string[]): Promise<Client> {
  const [command, ...args] = argv as [string, ...string[]];
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  return client;
}

const call = (c: Client, i: number) => c.request({ method: 'tools/call', params: { name: 'echo', arguments: { message: `m${i}` } } }, CallToolResultSchema);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

interface Figures {
  p50: number;
  p99: number;
  seqRps: number;
  concRps: number;
}

async function measureOnce(c: Client): Promise<Figures> {
  const times: number[] = [];
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
  return { p50: percentile(times, 50), p99: percentile(times, 99), seqRps, concRps };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

// Direct and gateway rounds alternate so that machine load hits both alike; the median round counts.
const clients = { direct: await connect(server), via: await connect(gateway) };
for (const c of [clients.direct, clients.via]) for (let i = 0; i < WARMUP; i++) await call(c, i);
const rounds: { direct: Figures; via: Figures }[] = [];
for (let r = 0; r < ROUNDS; r++) rounds.push({ direct: await measureOnce(clients.direct), via: await measureOnce(clients.via) });
await clients.direct.close();
await clients.via.close();
const pick = (side: 'direct' | 'via'): Figures => ({
  p50: median(rounds.map((r) => r[side].p50)),
  p99: median(rounds.map((r) => r[side].p99)),
  seqRps: median(rounds.map((r) => r[side].seqRps)),
  concRps: median(rounds.map((r) => r[side].concRps)),
});
const direct = pick('direct');
const via = pick('via');

const fmt = (n: number, w = 9) => n.toFixed(3).padStart(w);
const rps = (n: number) => n.toFixed(0).padStart(13);
console.log(`gateway bench: trivial tool (echo), v1 SDK client over stdio; gateway = ${useDist ? 'node dist/cli/bin.js gateway (compiled, as users run it)' : 'node --import tsx src/cli/bin.ts gateway (sources: dist/ not built)'}`);
console.log(`${ROUNDS} alternating rounds, median shown; each round: ${SEQUENTIAL} sequential calls, then ${THROUGHPUT_CALLS} calls with ${CONCURRENCY} in flight`);
console.log('                     p50 ms    p99 ms   seq calls/s  calls/s @8');
console.log(`direct            ${fmt(direct.p50)} ${fmt(direct.p99)} ${rps(direct.seqRps)} ${rps(direct.concRps).slice(1)}`);
console.log(`through gateway   ${fmt(via.p50)} ${fmt(via.p99)} ${rps(via.seqRps)} ${rps(via.concRps).slice(1)}`);
const added = via.p50 - direct.p50;
const verdict = (ok: boolean) => (ok ? 'HOLDS' : 'MISSED');
const seqRatio = via.seqRps / direct.seqRps;
const concRatio = via.concRps / direct.concRps;
console.log(`added p50 latency: ${added.toFixed(3)} ms (target ≤ 1 ms) ${verdict(added <= 1)}`);
console.log(`throughput, sequential: ${(seqRatio * 100).toFixed(1)} % of direct (target ≥ 80 %) ${verdict(seqRatio >= 0.8)}`);
console.log(`throughput, ${CONCURRENCY} in flight: ${(concRatio * 100).toFixed(1)} % of direct (target ≥ 80 %) ${verdict(concRatio >= 0.8)}`);

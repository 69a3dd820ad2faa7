/**
 * Gateway overhead: a trivial tool (`echo` of the fixture server) called directly and through
 * `trc gateway`, both with the official v1 SDK client over stdio, in the same run.
 * Latency: sequential calls, p50/p99. Throughput: calls/s with 16 calls in flight.
 * Targets (issue 8): ≤ 1 ms added at p50, ≥ 80 % of direct throughput.
 */
import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
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
const gateway = [process.execPath, '--import', 'tsx', join(root, 'src/cli/bin.ts'), 'gateway', '--config', config, '--store', join(dir, 'bench.sqlite'), '--', ...server];

const WARMUP = 300;
const SEQUENTIAL = Number(process.env.BENCH_CALLS ?? 2000);
const CONCURRENCY = 16;
const THROUGHPUT_CALLS = Number(process.env.BENCH_THROUGHPUT_CALLS ?? 4000);

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

async function measure(argv: string[]): Promise<{ p50: number; p99: number; rps: number }> {
  const c = await connect(argv);
  for (let i = 0; i < WARMUP; i++) await call(c, i);
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t = performance.now();
    await call(c, i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < THROUGHPUT_CALLS) await call(c, next++);
    }),
  );
  const rps = THROUGHPUT_CALLS / ((performance.now() - t0) / 1000);
  await c.close();
  return { p50: percentile(times, 50), p99: percentile(times, 99), rps };
}

const direct = await measure(server);
const via = await measure(gateway);
const fmt = (n: number) => n.toFixed(3).padStart(9);
console.log(`trivial tool (echo), ${SEQUENTIAL} sequential calls + ${THROUGHPUT_CALLS} calls with ${CONCURRENCY} in flight, v1 SDK client over stdio`);
console.log('                     p50 ms    p99 ms    calls/s');
console.log(`direct            ${fmt(direct.p50)} ${fmt(direct.p99)} ${direct.rps.toFixed(0).padStart(10)}`);
console.log(`through gateway   ${fmt(via.p50)} ${fmt(via.p99)} ${via.rps.toFixed(0).padStart(10)}`);
const added = via.p50 - direct.p50;
const ratio = via.rps / direct.rps;
console.log(`added p50: ${added.toFixed(3)} ms (target ≤ 1 ms) ${added <= 1 ? 'OK' : 'MISSED'}; throughput: ${(ratio * 100).toFixed(1)} % of direct (target ≥ 80 %) ${ratio >= 0.8 ? 'OK' : 'MISSED'}`);

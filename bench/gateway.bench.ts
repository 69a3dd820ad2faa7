/**
 * Gateway overhead against its peers: the same server (server-everything) and the same trivial
 * tool (`echo`), called with the official v1 SDK client, in every setup of one run, in
 * alternating rounds (machine load hits them alike; the median round counts):
 *
 * - Streamable HTTP: the server directly (its own HTTP transport); a byte-copying HTTP proxy
 *   (test/gateway/fixtures/http-pipe-proxy.mjs: the floor of any HTTP proxy); `supergateway
 *   --stateful` (the widely used npm proxy, stdio server behind it); `trc gateway --http`.
 * - stdio: the server directly; a byte-copying proxy (pipe-proxy.mjs); a relay on the official
 *   SDK's Server and Client with no contract (sdk-relay.mjs); `trc gateway`.
 *
 * Per setup: p50/p99 latency of sequential calls, calls/s sequentially and with 8 in flight,
 * and the CPU µs per call of the proxy process (every thread, from /proc schedstat; for "direct", the
 * server's). The gateway runs compiled, as users run it (`npm run bench` builds `dist/`), with
 * no configuration — `echo` is then an unconfigured tool — unless BENCH_GATEWAY_CONFIG=read
 * declares every tool a read. Targets (issue 14): over HTTP, throughput ≥ supergateway's
 * (sequential and 8 in flight) and p99 ≤ 1.2× supergateway's; over stdio ≤ 0.5 ms added at p50.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ensureFreshDist } from './harness.js';
import { processCpuUs } from './proc-cpu.js';

ensureFreshDist();
// The v1 SDK client's Streamable HTTP transport hands one transport-wide AbortSignal to every
// POST, so with thousands of calls Node warns once per call past its listener limit. That is the
// bench's client, not a proxy under test: count those warnings and say so once, at the end.
let listenerWarnings = 0;
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'MaxListenersExceededWarning') listenerWarnings++;
  else console.error(`${warning.name}: ${warning.message}`);
});
const root = fileURLToPath(new URL('../', import.meta.url));
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const supergatewayBin = join(root, 'node_modules/supergateway/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'trc-gw-bench-'));
const readConfig = process.env.BENCH_GATEWAY_CONFIG === 'read';
const config = join(dir, 'bench.yaml');
writeFileSync(config, readConfig ? 'defaults:\n  effect: read\n' : '{}\n');
const trc = [process.execPath, join(root, 'dist/cli/bin.js'), 'gateway', '--config', config];
const storePath = process.env.BENCH_STORE ?? join(dir, 'bench.sqlite');
const serverStdio = [process.execPath, everything, 'stdio'];

// Each setup gets BENCH_WARMUP calls with 8 in flight (default none), then 300 sequential,
// before the rounds. The JIT keeps optimizing a gateway for thousands of calls (alone and
// sequential, its CPU per call fell from ~1,100 µs to ~500 µs over the first 10,000), but
// BENCH_WARMUP=10000 moved the round figures by under 7 % (docs/gateway.md): in alternating
// rounds each setup starts cold after the others ran. It prints the warm-up curve.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 0);
const WARMUP_BLOCK = 2000;
const SEQUENTIAL = Number(process.env.BENCH_CALLS ?? 1000);
const CONCURRENCY = 8;
const THROUGHPUT_CALLS = Number(process.env.BENCH_THROUGHPUT_CALLS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const processes: ChildProcess[] = [];
/** Spawn a process and resolve with the first `pattern` match in its stdout/stderr. */
function startAndWait(argv: readonly string[], pattern: RegExp, env: Record<string, string> = {}): Promise<{ proc: ChildProcess; match: string }> {
  const [cmd, ...args] = argv as [string, ...string[]];
  const proc = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  processes.push(proc);
  return new Promise((resolve, reject) => {
    let seen = '';
    const on = (c: Buffer) => {
      seen += c.toString();
      const m = pattern.exec(seen);
      if (m) resolve({ proc, match: m[1] as string });
    };
    proc.stdout?.on('data', on);
    proc.stderr?.on('data', on);
    proc.once('exit', (code) => reject(new Error(`${argv.join(' ')} exited (${code}):\n${seen}`)));
  });
}
const freePort = async (): Promise<number> => {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
};

interface Setup {
  readonly label: string;
  readonly client: Client;
  /** The process whose CPU is counted. */
  readonly pid: number | undefined;
  readonly what: string;
}

async function httpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
async function stdioClient(argv: readonly string[]): Promise<{ client: Client; pid: number | undefined }> {
  const [command, ...args] = argv as [string, ...string[]];
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
  await client.connect(transport);
  return { client, pid: transport.pid ?? undefined };
}

const setups: Setup[] = [];
{
  const port = await freePort();
  const direct = await startAndWait([process.execPath, everything, 'streamableHttp'], /(listening on port \d+)/, { PORT: String(port) });
  const directUrl = `http://127.0.0.1:${port}/mcp`;
  setups.push({ label: 'HTTP direct', client: await httpClient(directUrl), pid: direct.proc.pid, what: 'server' });
  const pipe = await startAndWait([process.execPath, join(root, 'test/gateway/fixtures/http-pipe-proxy.mjs'), directUrl], /(http:\S+)/);
  setups.push({ label: 'HTTP byte-copying proxy', client: await httpClient(pipe.match), pid: pipe.proc.pid, what: 'proxy' });
  const sgPort = await freePort();
  const sg = await startAndWait(
    [process.execPath, supergatewayBin, '--stdio', serverStdio.map((a) => JSON.stringify(a)).join(' '), '--outputTransport', 'streamableHttp', '--stateful', '--port', String(sgPort), '--logLevel', 'info'],
    /(Listening on port \d+)/,
  );
  setups.push({ label: 'HTTP supergateway', client: await httpClient(`http://127.0.0.1:${sgPort}/mcp`), pid: sg.proc.pid, what: 'proxy' });
  const gw = await startAndWait([...trc, '--http', '0', '--store', storePath === ':memory:' ? ':memory:' : `${storePath}-http`, '--', ...serverStdio], /listening on (http:\S+)/);
  setups.push({ label: 'HTTP trc gateway', client: await httpClient(gw.match), pid: gw.proc.pid, what: 'gateway' });

  const d = await stdioClient(serverStdio);
  setups.push({ label: 'stdio direct', client: d.client, pid: d.pid, what: 'server' });
  const p = await stdioClient([process.execPath, join(root, 'test/gateway/fixtures/pipe-proxy.mjs'), ...serverStdio]);
  setups.push({ label: 'stdio byte-copying proxy', client: p.client, pid: p.pid, what: 'proxy' });
  // A relay on the official SDK's Server and Client, no contract: what the SDK's part costs alone.
  const r = await stdioClient([process.execPath, join(root, 'test/gateway/fixtures/sdk-relay.mjs'), ...serverStdio]);
  setups.push({ label: 'stdio SDK relay', client: r.client, pid: r.pid, what: 'proxy' });
  const g = await stdioClient([...trc, '--store', storePath === ':memory:' ? ':memory:' : `${storePath}-stdio`, '--', ...serverStdio]);
  setups.push({ label: 'stdio trc gateway', client: g.client, pid: g.pid, what: 'gateway' });
}

const call = (c: Client, i: number) => c.request({ method: 'tools/call', params: { name: 'echo', arguments: { message: `m${i}` } } }, CallToolResultSchema);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

interface Figures {
  cpuUs: number;
  p50: number;
  p99: number;
  seqRps: number;
  concRps: number;
}

async function measureOnce(s: Setup): Promise<Figures> {
  const times: number[] = [];
  const cpu0 = processCpuUs(s.pid);
  const s0 = performance.now();
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t = performance.now();
    await call(s.client, i);
    times.push(performance.now() - t);
  }
  const seqRps = SEQUENTIAL / ((performance.now() - s0) / 1000);
  times.sort((a, b) => a - b);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < THROUGHPUT_CALLS) await call(s.client, next++);
    }),
  );
  const concRps = THROUGHPUT_CALLS / ((performance.now() - t0) / 1000);
  const cpu1 = processCpuUs(s.pid);
  const cpuUs = cpu0 === null || cpu1 === null ? NaN : (cpu1 - cpu0) / (SEQUENTIAL + THROUGHPUT_CALLS);
  return { cpuUs, p50: percentile(times, 50), p99: percentile(times, 99), seqRps, concRps };
}

/** CPU µs per call of each block of WARMUP_BLOCK calls (8 in flight) of one setup's warm-up. */
async function warmUp(s: Setup): Promise<number[]> {
  const perBlock: number[] = [];
  for (let done = 0; done < WARMUP; done += WARMUP_BLOCK) {
    const n = Math.min(WARMUP_BLOCK, WARMUP - done);
    const cpu0 = processCpuUs(s.pid);
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (next < n) await call(s.client, next++); }));
    const cpu1 = processCpuUs(s.pid);
    perBlock.push(cpu0 === null || cpu1 === null ? NaN : (cpu1 - cpu0) / n);
  }
  for (let i = 0; i < 300; i++) await call(s.client, i);
  return perBlock;
}
const warmCurves = new Map<string, number[]>();
for (const s of setups) warmCurves.set(s.label, await warmUp(s));
const rounds: Figures[][] = [];
for (let r = 0; r < ROUNDS; r++) {
  const round: Figures[] = [];
  for (const s of setups) round.push(await measureOnce(s));
  rounds.push(round);
}
for (const s of setups) await s.client.close().catch(() => undefined);
for (const p of processes) p.kill('SIGTERM');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const figures = setups.map((_, i) => {
  const of = (k: keyof Figures) => median(rounds.map((r) => (r[i] as Figures)[k]));
  return { cpuUs: of('cpuUs'), p50: of('p50'), p99: of('p99'), seqRps: of('seqRps'), concRps: of('concRps') };
});
const by = (label: string) => figures[setups.findIndex((s) => s.label === label)] as Figures;

const version = (pkg: string) => (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
console.log(`gateway bench: server-everything ${version('@modelcontextprotocol/server-everything')}, tool echo, v1 SDK client ${version('@modelcontextprotocol/sdk')}; supergateway ${version('supergateway')} --stateful`);
console.log(`trc gateway: node dist/cli/bin.js gateway, ${readConfig ? 'every tool declared a read (BENCH_GATEWAY_CONFIG=read)' : 'no tool configuration (echo is unconfigured)'}, store ${storePath === ':memory:' ? 'in-memory SQLite' : 'SQLite file (WAL)'}`);
console.log(`warm-up per setup: ${WARMUP} calls with ${CONCURRENCY} in flight (BENCH_WARMUP), then 300 sequential`);
for (const label of ['stdio trc gateway', 'HTTP trc gateway']) {
  const curve = warmCurves.get(label) ?? [];
  if (curve.length > 0) console.log(`  ${label}, CPU µs/call per ${WARMUP_BLOCK} warm-up calls (${CONCURRENCY} in flight): ${curve.map((c) => (Number.isNaN(c) ? 'n/a' : c.toFixed(0))).join(' → ')}`);
}
console.log(`${ROUNDS} alternating rounds, median shown; each round: ${SEQUENTIAL} sequential calls, then ${THROUGHPUT_CALLS} calls with ${CONCURRENCY} in flight`);
console.log(`${'setup'.padEnd(26)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'seq calls/s'.padStart(13)}${'calls/s @8'.padStart(12)}${'CPU µs/call'.padStart(13)}`);
setups.forEach((s, i) => {
  const f = figures[i] as Figures;
  const cpu = Number.isNaN(f.cpuUs) ? 'n/a' : f.cpuUs.toFixed(0);
  console.log(`${s.label.padEnd(26)}${f.p50.toFixed(3).padStart(9)}${f.p99.toFixed(3).padStart(9)}${f.seqRps.toFixed(0).padStart(13)}${f.concRps.toFixed(0).padStart(12)}${cpu.padStart(13)} (${s.what})`);
});
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores (calls/s depend on it; CPU µs/call much less)`);
if (listenerWarnings > 0) console.log(`(the bench's v1 SDK client raised ${listenerWarnings} MaxListenersExceededWarning on its transport-wide AbortSignal; not a proxy's)`);
const verdict = (ok: boolean) => (ok ? 'HOLDS' : 'MISSED');
const sg = by('HTTP supergateway');
const th = by('HTTP trc gateway');
console.log(`HTTP, sequential: trc ${th.seqRps.toFixed(0)} vs supergateway ${sg.seqRps.toFixed(0)} calls/s = ${(th.seqRps / sg.seqRps).toFixed(2)}× (target ≥ 1) ${verdict(th.seqRps >= sg.seqRps)}`);
console.log(`HTTP, ${CONCURRENCY} in flight: trc ${th.concRps.toFixed(0)} vs supergateway ${sg.concRps.toFixed(0)} calls/s = ${(th.concRps / sg.concRps).toFixed(2)}× (target ≥ 1) ${verdict(th.concRps >= sg.concRps)}`);
console.log(`HTTP, p99: trc ${th.p99.toFixed(2)} ms vs supergateway ${sg.p99.toFixed(2)} ms = ${(th.p99 / sg.p99).toFixed(2)}× (target ≤ 1.2) ${verdict(th.p99 <= 1.2 * sg.p99)}`);
const sd = by('stdio direct');
const st = by('stdio trc gateway');
const sp = by('stdio byte-copying proxy');
const sr = by('stdio SDK relay');
console.log(`stdio, added p50: trc ${(st.p50 - sd.p50).toFixed(3)} ms over direct (target ≤ 0.5 ms) ${verdict(st.p50 - sd.p50 <= 0.5)}; the byte-copying proxy adds ${(sp.p50 - sd.p50).toFixed(3)} ms, a relay on the official SDK with no contract ${(sr.p50 - sd.p50).toFixed(3)} ms`);

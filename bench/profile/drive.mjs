// Standalone repro of executor.bench.ts section 5 (gateway side only, or any side).
// usage: node drive.mjs <root> <side> <calls> [profdir]
//   side: gateway | relay | proxy | direct
// If profdir is given, the gateway (only the gateway's node process) is run with --cpu-prof.
import { mkdtempSync, writeFileSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
const [root, side = 'gateway', callsArg = '3000', profdir, ...extra] = process.argv.slice(2);
const req = createRequire(join(root, 'package.json'));
const { Client } = await import(req.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(req.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const { CallToolResultSchema } = await import(req.resolve('@modelcontextprotocol/sdk/types.js'));
const dir = mkdtempSync(join(tmpdir(), 'trc-prof-'));
const config = join(dir, 'gateway.yaml');
writeFileSync(config, 'defaults:\n  effect: read\n');
const server = [process.execPath, join(root, 'test/gateway/fixtures/faulty-server.mjs')];
const prof = profdir ? ['--cpu-prof', `--cpu-prof-dir=${profdir}`, `--cpu-prof-interval=${process.env.PROF_INTERVAL ?? 250}`, ...extra] : extra;
const sides = {
  direct: server,
  proxy: [process.execPath, join(root, 'test/gateway/fixtures/pipe-proxy.mjs'), ...server],
  relay: [process.execPath, ...prof, join(root, 'test/gateway/fixtures/sdk-relay.mjs'), ...server],
  gateway: [process.execPath, ...prof, join(root, 'dist/cli/bin.js'), 'gateway', '--config', config, '--store', join(dir, 'gateway.sqlite'), '--', ...server],
};
const wrap = process.env.WRAP ? process.env.WRAP.split(' ') : [];
const [command, ...args] = [...wrap, ...sides[side]];
const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
await client.connect(transport);
const pid = transport.pid;
const threadCpu = () => { const m = new Map(); for (const tid of readdirSync(`/proc/${pid}/task`)) { try { m.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1000); } catch { /* thread gone */ } } return m; };
const cpuUs = () => {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try { ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]); } catch { /* thread gone */ }
  }
  return ns / 1000;
};
const echo = (i) => client.request({ method: 'tools/call', params: { name: 'echo', arguments: { message: `m${i}` } } }, CallToolResultSchema);
const N = Number(callsArg);
for (let i = 0; i < Number(process.env.WARM ?? 300); i++) await echo(i);
const rounds = [];
let perfProc;
if (process.env.PERF) { const { spawn } = await import('node:child_process'); perfProc = spawn('perf', ['record', '-e', 'cpu-clock', '-F', process.env.PERF_FREQ ?? '2999', ...(process.env.PERF_G ? ['-g'] : []), '-p', String(pid), '-o', process.env.PERF], { stdio: 'inherit' }); await new Promise((r) => setTimeout(r, 1000)); }
const w0 = process.hrtime.bigint() / 1000n;
const th0 = threadCpu();
const R = Number(process.env.ROUNDS ?? 3);
for (let r = 0; r < R; r++) {
  const c0 = cpuUs(); const t0 = threadCpu();
  for (let i = 0; i < N; i++) await echo(i);
  rounds.push((cpuUs() - c0) / N);
  if (process.env.PER_THREAD) { const t1 = threadCpu(); let main = 0, other = 0; for (const [tid, v] of t1) { const d = v - (t0.get(tid) ?? 0); if (tid === String(pid)) main += d; else other += d; } console.log(`round ${r}: main ${(main / N).toFixed(0)} other ${(other / N).toFixed(0)} µs/call`); }
}
const th1 = threadCpu(); { let main = 0, other = 0; for (const [tid, v] of th1) { const d = v - (th0.get(tid) ?? 0); if (tid === String(pid)) main += d; else other += d; } console.log(`window per call: main thread ${(main / (R * N)).toFixed(0)} µs, other threads ${(other / (R * N)).toFixed(0)} µs`); }
if (perfProc) { perfProc.kill('SIGINT'); await new Promise((r) => perfProc.on('exit', r)); }
const w1 = process.hrtime.bigint() / 1000n; console.log(`window ${w0},${w1} calls ${R * N}`);
const order = rounds.slice(); rounds.sort((a, b) => a - b);
if (process.env.THREADS) { const { execSync } = await import('node:child_process'); console.log(execSync(`bash ${new URL("threads.sh", import.meta.url).pathname} ${pid}`).toString()); } console.log("in order:", order.map((x) => x.toFixed(0)).join(" "));
console.log(`${side}: rounds ${rounds.map((x) => x.toFixed(0)).join(' ')} µs/call, median ${rounds[Math.floor(R / 2)].toFixed(0)}`);
await client.close();
await new Promise((r) => setTimeout(r, 1500)); // let --cpu-prof write on exit

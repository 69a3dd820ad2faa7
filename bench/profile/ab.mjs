// A/B of gateway CPU per call: spawns `trc gateway` from two checkouts exactly as
// bench/executor.bench.ts does (faulty-server.mjs upstream, `defaults: effect: read`, SQLite store),
// warms each up, then alternates rounds of sequential echo calls and reads each gateway's CPU
// (all threads, /proc/<pid>/task/*/schedstat) and the client's latency per call.
// usage: node ab.mjs <rootA> <rootB> [rounds=8] [calls=2000] [warm=300]
import { mkdtempSync, writeFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
const [rootA, rootB, roundsArg = '8', callsArg = '2000', warmArg = '300'] = process.argv.slice(2);
const req = createRequire(join(rootA, 'package.json'));
const { Client } = await import(req.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(req.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const { CallToolResultSchema } = await import(req.resolve('@modelcontextprotocol/sdk/types.js'));
const dir = mkdtempSync(join(tmpdir(), 'trc-ab-'));
const config = join(dir, 'gateway.yaml');
writeFileSync(config, 'defaults:\n  effect: read\n');
const cpuUs = (pid) => { let ns = 0; for (const tid of readdirSync(`/proc/${pid}/task`)) { try { ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]); } catch { /* thread gone */ } } return ns / 1000; };
const sides = [];
for (const [label, root] of [['A', rootA], ['B', rootB]]) {
  const server = [process.execPath, join(root, 'test/gateway/fixtures/faulty-server.mjs')];
  const flags = (process.env[`FLAGS_${label}`] ?? '').split(' ').filter(Boolean);
  const args = [...flags, join(root, 'dist/cli/bin.js'), 'gateway', '--config', config, '--store', join(dir, `${label}.sqlite`), '--', ...server];
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'inherit' });
  await client.connect(transport);
  sides.push({ label, root, client, pid: transport.pid, us: [], ms: [] });
}
const echo = (c, i) => c.request({ method: 'tools/call', params: { name: 'echo', arguments: { message: `m${i}` } } }, CallToolResultSchema);
// Same answers from both (what the client sees, call ids and times aside).
const norm = (r) => JSON.stringify(r).replace(/call_[0-9a-f-]{36}/g, 'ID').replace(/"20\d\d-[^"]*Z"/g, 'T').replace(/sha256:[0-9a-f]{64}/g, 'H').replace(/uc_[0-9a-f]{16}/g, 'UC').replace(/[0-9a-f]{32}/g, 'B');
const [ra, rb] = [await echo(sides[0].client, 1), await echo(sides[1].client, 1)];
if (norm(ra) !== norm(rb)) { console.log('ANSWERS DIFFER\n' + norm(ra) + '\n' + norm(rb)); }
const N = Number(callsArg), R = Number(roundsArg);
for (const s of sides) for (let i = 0; i < Number(warmArg); i++) await echo(s.client, i);
for (let r = 0; r < R; r++) {
  for (const s of (r % 2 === 0 ? sides : [...sides].reverse())) {
    const c0 = cpuUs(s.pid);
    for (let i = 0; i < N; i++) { const t0 = performance.now(); await echo(s.client, i); s.ms.push(performance.now() - t0); }
    s.us.push((cpuUs(s.pid) - c0) / N);
  }
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
if (R <= 12) for (const s of sides) console.log(`${s.label} ${s.root.padEnd(14)} ${process.env[`FLAGS_${s.label}`] ?? ''} rounds: ${s.us.map((x) => x.toFixed(0).padStart(4)).join(' ')}  | median first 3: ${median(s.us.slice(0, 3)).toFixed(0)}  median all: ${median(s.us).toFixed(0)}  median after 2: ${median(s.us.slice(2)).toFixed(0)}`);
const [A, B] = sides;
const d = A.us.map((a, i) => B.us[i] - a);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sorted = [...d].sort((a, b) => a - b); const trim = sorted.slice(Math.floor(d.length * 0.2), Math.ceil(d.length * 0.8));
// bootstrap CI of the median paired difference
let bs = []; for (let k = 0; k < 2000; k++) { const s = Array.from(d, () => d[Math.floor(Math.random() * d.length)]); bs.push(median(s)); } bs.sort((a, b) => a - b);
if (d.length <= 12) console.log(`B - A per round: ${d.map((x) => x.toFixed(0)).join(' ')}`);
console.log(`B - A: median ${median(d).toFixed(1)} µs [95% CI ${bs[50].toFixed(1)} .. ${bs[1949].toFixed(1)}], trimmed mean ${mean(trim).toFixed(1)} µs, (${((100 * median(d)) / median(A.us)).toFixed(1)} % of A's median ${median(A.us).toFixed(0)}; B median ${median(B.us).toFixed(0)})`);
// Latency as the client sees it, every call of every round (the stdio gateway's target is at p50).
for (const s of sides) { const l = [...s.ms].sort((a, b) => a - b); console.log(`${s.label} latency p50 ${l[Math.floor(l.length / 2)].toFixed(3)} ms, p99 ${l[Math.floor(l.length * 0.99)].toFixed(3)} ms`); }
for (const s of sides) await s.client.close();
rmSync(dir, { recursive: true, force: true });

/**
 * Scale benchmark (issue 17): write calls per second through nginx to 1, 2 and 3
 * `trc gateway --http` instances on one PostgreSQL store, with the CPU each part used (from
 * /proc: PostgreSQL's postmaster and backends, the gateways with their upstream processes,
 * nginx, this client) — so the limit can be named. Baseline in the same run: the same writes
 * sent straight to the counting upstream over stdio, no gateway. PostgreSQL: TRC_PG_URL (a
 * local server, for /proc), else a throwaway cluster. `npm run bench -- scale`.
 */
import { availableParallelism, loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startThrowawayPostgres } from '../scripts/pg-cluster.js';
import { runFaultCampaign } from '../test/deploy/fault-campaign.js';
import { startDeployment } from '../test/deploy/harness.js';
import { machineTicks, parentOf, treeCpuSeconds } from './proc-cpu.js';
import { reportTarget } from './harness.js';

const WRITES = Number(process.env['TRC_SCALE_WRITES'] ?? '1500');
const CONCURRENCY = 16;
const own = process.env['TRC_PG_URL'] === undefined ? await startThrowawayPostgres() : null;
const pgUrl = own?.url ?? process.env['TRC_PG_URL'] ?? '';

const probe = new pg.Client({ connectionString: pgUrl });
await probe.connect();
const backend = (await probe.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
const postmaster = parentOf(backend) ?? 0;
await probe.end();
const pgCpu = () => treeCpuSeconds([postmaster]);
const selfCpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

/** Baseline: the counting upstream alone, over stdio, same concurrency. */
async function baseline(): Promise<number> {
  const table = `effects_base_${randomBytes(4).toString('hex')}`;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(new URL('../test/deploy/fixtures/counting-server.mjs', import.meta.url))],
    env: { ...process.env, COUNTER_PG_URL: pgUrl, COUNTER_TABLE: table } as Record<string, string>,
  });
  const client = new Client({ name: 'baseline', version: '1' });
  await client.connect(transport);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < WRITES) await client.callTool({ name: 'charge', arguments: { amount: 1, op: 'base' } });
  }));
  const perSecond = WRITES / ((performance.now() - t0) / 1000);
  await client.close();
  const db = new pg.Client({ connectionString: pgUrl });
  await db.connect();
  await db.query(`DROP TABLE IF EXISTS ${table}`);
  await db.end();
  return perSecond;
}

const base = await baseline();
console.log(`baseline: counting upstream over stdio, no gateway: ${base.toFixed(0)} writes/s (${WRITES} writes, ${CONCURRENCY} in flight)`);
console.log('\ninstances  writes/s  vs 1   cores used: postgres  gateways+upstreams  nginx  client   total  machine busy');
let one = 0;
const results: { n: number; rate: number; pg: number; gw: number; total: number; busy: number }[] = [];
for (const n of [1, 2, 3]) {
  const d = await startDeployment({ pgUrl, instances: n, principal: 'bench' });
  try {
    await runFaultCampaign(d, { writes: 60, pgUrl, concurrency: 4, kill: false });
    const gwPids = () => d.instances.map((i) => i.proc?.pid ?? 0);
    const before = { pg: pgCpu(), gw: treeCpuSeconds(gwPids()), nginx: treeCpuSeconds(d.nginxPid === null ? [] : [d.nginxPid]), self: selfCpu() };
    const m0 = machineTicks();
    const t0 = performance.now();
    const report = await runFaultCampaign(d, { writes: WRITES, pgUrl, concurrency: CONCURRENCY, kill: false });
    const wall = (performance.now() - t0) / 1000;
    const rate = WRITES / report.seconds;
    const used = {
      pg: (pgCpu() - before.pg) / wall,
      gw: (treeCpuSeconds(gwPids()) - before.gw) / wall,
      nginx: (treeCpuSeconds(d.nginxPid === null ? [] : [d.nginxPid]) - before.nginx) / wall,
      self: (selfCpu() - before.self) / wall,
    };
    const total = used.pg + used.gw + used.nginx + used.self;
    const m1 = machineTicks();
    // Of all CPU time on the machine (every tenant), the busy share during the run.
    const busy = (m1.busy - m0.busy) / Math.max(1, m1.total - m0.total);
    if (n === 1) one = rate;
    results.push({ n, rate, pg: used.pg, gw: used.gw, total, busy });
    console.log(`${String(n).padStart(9)}  ${rate.toFixed(0).padStart(8)}  ${(rate / one).toFixed(2).padStart(4)}   ${used.pg.toFixed(2).padStart(18)}  ${used.gw.toFixed(2).padStart(18)}  ${used.nginx.toFixed(2).padStart(5)}  ${used.self.toFixed(2).padStart(6)}  ${total.toFixed(2).padStart(6)}  ${(busy * 100).toFixed(0).padStart(11)} %`);
    if (report.duplicateEffects !== 0 || report.failedReports !== 0) console.log(`  (checks: ${JSON.stringify(report)})`);
  } finally {
    await d.close();
  }
}
const cores = availableParallelism();
const last = results.at(-1);
if (last !== undefined) {
  // Our processes at most of the cores, or the machine saturated by everything on it: CPU.
  const bound = last.total >= 0.8 * cores ? 'CPU (ours)' : last.busy >= 0.9 ? `CPU (the machine is ${(last.busy * 100).toFixed(0)} % busy; our processes got ${last.total.toFixed(2)} cores)` : 'latency (the machine is not saturated)';
  const heavier = last.gw > last.pg ? 'the gateways (with their upstreams)' : 'PostgreSQL';
  console.log(`\nlimit: ${bound}-bound at ${last.total.toFixed(2)} of ${cores} cores with 3 instances; the larger share is ${heavier} (${last.gw.toFixed(2)} vs PostgreSQL ${last.pg.toFixed(2)} cores); load average ${loadavg()[0]?.toFixed(2)}`);
  reportTarget({ area: 'scale', measure: 'writes/s, 3 instances vs 1', value: `${(last.rate / one).toFixed(2)}x`, target: 'report (no target)', met: true, note: `${bound}; ${heavier} heavier` });
}
await own?.stop();

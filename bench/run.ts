/**
 * `npm run bench`: runs every `bench/*.bench.ts` in its own process (so RSS figures are not
 * polluted by each other) and prints their tables, then every target the files reported, beside
 * its measurement, with the machine's load. `npm run bench -- budget` runs only files whose name
 * contains "budget".
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv[2];
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filter === undefined || f.includes(filter))
  .sort();
const scratch = mkdtempSync(join(tmpdir(), 'trc-bench-run-'));
const targetsFile = join(scratch, 'targets.jsonl');
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', dir + file], { stdio: 'inherit', env: { ...process.env, TRC_BENCH_TARGETS: targetsFile } });
  if (r.status !== 0) failed++;
}

interface Target { area: string; measure: string; value: string; target: string; met: boolean; note?: string; load: number }
let targets: Target[] = [];
try {
  targets = readFileSync(targetsFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Target);
} catch {
  // no file reported a target
}
rmSync(scratch, { recursive: true, force: true });
if (targets.length > 0) {
  console.log(`\n=== targets (${targets.length}) ===`);
  const w = Math.max(...targets.map((t) => `${t.area}: ${t.measure}`.length));
  for (const t of targets) {
    const load = `load ${t.load.toFixed(1)}`;
    console.log(`${`${t.area}: ${t.measure}`.padEnd(w)}  ${t.value.padStart(14)}  target ${t.target.padEnd(22)} ${t.met ? 'MET    ' : 'NOT MET'}  ${load}${t.note === undefined ? '' : `  (${t.note})`}`);
  }
  console.log(`${targets.filter((t) => t.met).length}/${targets.length} met; load average now ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`);
}
if (failed > 0) {
  console.error(`\n${failed} benchmark file(s) failed`);
  process.exit(1);
}

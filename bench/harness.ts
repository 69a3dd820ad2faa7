/**
 * Shared timing for the micro-benchmarks: operations per second with growing batches, and
 * contenders alternated round by round so machine drift hits each of them alike; and the
 * rebuild of `dist/` for benchmarks whose children run the compiled code.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** True when some `src/**\/*.ts` is newer than its `dist/**\/*.js` (or that is missing). */
function distIsStale(dir = join(ROOT, 'src')): boolean {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (distIsStale(path)) return true;
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      const out = join(ROOT, 'dist', path.slice(join(ROOT, 'src').length).replace(/\.ts$/u, '.js'));
      if (!existsSync(out) || statSync(out).mtimeMs < statSync(path).mtimeMs) return true;
    }
  }
  return false;
}

/** Rebuild `dist/` when a source file is newer than its compiled output (the bench measures `dist/`). */
export function ensureFreshDist(): void {
  if (!distIsStale()) return;
  console.log('dist/ is stale: building (npx tsc -p tsconfig.build.json) …');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
}

/** Run `fn` for about `ms` and return operations per second. Batches grow so that reading the
 * clock never dominates a fast `fn`, nor overshoots with a slow one. */
export function rate(fn: () => void, ms: number): number {
  let ops = 0;
  let batch = 1;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    const before = performance.now();
    for (let k = 0; k < batch; k++) fn();
    ops += batch;
    const now = performance.now();
    if (now - before < 5) batch *= 2;
    elapsed = now - start;
  }
  return (ops * 1000) / elapsed;
}

/** Alternate the contenders for `rounds` rounds of `roundMs` and keep each one's median rate. */
export function compare(contenders: Record<string, () => void>, options: { rounds: number; roundMs: number; warmupMs?: number }): Record<string, number> {
  const samples: Record<string, number[]> = {};
  for (const fn of Object.values(contenders)) rate(fn, options.warmupMs ?? 300); // warm up the JIT
  for (let r = 0; r < options.rounds; r++) {
    for (const [name, fn] of Object.entries(contenders)) {
      (globalThis as { gc?: () => void }).gc?.();
      (samples[name] ??= []).push(rate(fn, options.roundMs));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

/** A number with thousands separators. */
export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** CPU milliseconds (user + system, every thread: GC included) spent in `fn`. */
export function cpuMs(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/** CPU milliseconds spent awaiting `fn`. */
export async function cpuMsAsync(fn: () => Promise<void>): Promise<number> {
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/** The median of some numbers (NaN when there are none). */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.floor(s.length / 2)] as number);
};

/** The machine's state, printed beside every figure: load and cores (a shared machine varies). */
export function machineLine(): string {
  return `machine: load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min) on ${availableParallelism()} cores, Node ${process.version}`;
}

/**
 * Print one ratio beside its target, and hand it to `bench/run.ts` for the summary of the whole
 * run (a JSON line appended to `$TRC_BENCH_TARGETS` when the runner set it).
 */
export function reportTarget(t: { area: string; measure: string; value: string; target: string; met: boolean; note?: string }): void {
  console.log(`  TARGET ${t.measure}: ${t.value} (target ${t.target}) ${t.met ? 'MET' : 'NOT MET'}${t.note === undefined ? '' : ` — ${t.note}`}`);
  const file = process.env['TRC_BENCH_TARGETS'];
  if (file !== undefined) appendFileSync(file, JSON.stringify({ ...t, load: loadavg()[0] }) + '\n');
}

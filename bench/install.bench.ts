/**
 * `npm run bench -- install`: what installing and importing the package costs.
 * - Install size: the packed tarball, the dependency tree a library user installs
 *   (`dependencies` and theirs), and what each optional peer adds when installed — beside the
 *   baseline of the same run: the tree with better-sqlite3 and pg as hard dependencies (before).
 * - Cold start: a fresh `node` importing each sub-path of `dist/` (median of runs), beside
 *   `node -e ''` measured in the same run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureFreshDist } from './harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env['TRC_BENCH_RUNS'] ?? 7);

function du(path: string): number {
  const s = statSync(path, { throwIfNoEntry: false });
  if (s === undefined) return 0;
  if (!s.isDirectory()) return s.size;
  let total = 0;
  for (const e of readdirSync(path)) total += du(join(path, e));
  return total;
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** The package directories of `names` and everything they depend on, as installed here. */
function closure(names: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string, from: string): void => {
    let dir = from;
    let found = '';
    for (;;) {
      const candidate = join(dir, 'node_modules', name);
      if (statSync(join(candidate, 'package.json'), { throwIfNoEntry: false }) !== undefined) { found = candidate; break; }
      if (dir === ROOT || dir === '/') return;
      dir = join(dir, '..');
    }
    if (seen.has(found)) return;
    seen.add(found);
    const pkg = JSON.parse(readFileSync(join(found, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, found);
  };
  for (const n of names) visit(n, ROOT);
  return seen;
}

const sizeOf = (dirs: Iterable<string>): number => [...dirs].reduce((t, d) => t + du(d), 0);

ensureFreshDist();
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; exports: Record<string, unknown> };
const packed = (JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { size: number; unpackedSize: number; entryCount: number }[])[0];
const deps = closure(Object.keys(pkg.dependencies));
const library = sizeOf(deps);
const extra = (names: string[]): number => sizeOf([...closure(names)].filter((d) => !deps.has(d)));
console.log('install size (bytes on disk, as installed in this checkout)');
console.table([
  { what: 'tarball (packed / unpacked)', size: `${mb(packed?.size ?? 0)} / ${mb(packed?.unpackedSize ?? 0)}`, files: packed?.entryCount },
  { what: 'library install: package + dependencies', size: mb(library + (packed?.unpackedSize ?? 0)), files: deps.size + 1 },
  { what: 'baseline: + better-sqlite3 + pg as hard deps (before)', size: mb(library + (packed?.unpackedSize ?? 0) + extra(['better-sqlite3', 'pg'])), files: '' },
  { what: '+ better-sqlite3 (optional peer; compiles from source when no prebuilt binary)', size: mb(extra(['better-sqlite3'])), files: '' },
  { what: '+ pg (optional peer)', size: mb(extra(['pg'])), files: '' },
  { what: 'of which gpt-tokenizer (budget: exact token counts)', size: mb(sizeOf(closure(['gpt-tokenizer']))), files: '' },
  { what: 'of which @modelcontextprotocol/sdk (gateway, /mcp)', size: mb(sizeOf(closure(['@modelcontextprotocol/sdk']))), files: '' },
]);

/** Median wall time of a fresh node running `code`, in ms. */
function coldStart(code: string): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`${code}: ${r.stderr.toString()}`);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? NaN;
}

const base = coldStart('');
const rows: { 'sub-path': string; 'cold start (median)': string; 'import only': string }[] = [{ 'sub-path': "baseline: node -e ''", 'cold start (median)': `${base.toFixed(0)} ms`, 'import only': '0 ms' }];
for (const key of Object.keys(pkg.exports).filter((k) => !k.endsWith('.json'))) {
  const spec = key === '.' ? 'tool-result-contract' : `tool-result-contract/${key.slice(2)}`;
  const t = coldStart(`await import('${spec}')`);
  rows.push({ 'sub-path': spec, 'cold start (median)': `${t.toFixed(0)} ms`, 'import only': `${(t - base).toFixed(0)} ms` });
}
console.log(`\ncold-start import of each sub-path (dist/, Node ${process.versions.node}, median of ${RUNS} fresh processes)`);
console.table(rows);

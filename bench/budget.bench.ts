/**
 * Budget benchmark (SPEC Z7): a generated 100 MB JSON array of objects, each case in its own
 * plain `node` child running the compiled JavaScript in `dist/` (what a user runs — no tsx):
 *   empty       — `node` doing nothing (the RSS baseline)
 *   JSON.parse  — JSON.parse(readFileSync(file, 'utf8')), what most code does today
 *   fitStream   — `tool-result-contract/budget` fitStream(fileChunks(file)) to 8,000 tokens,
 *                 raw spooled to SQLite (store defaults)
 *   trc fit     — the CLI (`dist/cli/bin.js fit FILE --max-tokens 8000 --store …`)
 * and, to show where time and memory go: the library, SQLite and the o200k tables loaded with no
 * work, and the same fitStream without a store.
 * Peak RSS (`process.resourceUsage().maxRSS`) is taken by a tiny preload in every child at exit.
 * Wall time is the whole child process (start-up and module loading included), as a user waits.
 * `dist/` is rebuilt first when any `src/**` file is newer than its compiled output.
 * `BENCH_MB=20 npm run bench -- budget` for a quicker run; `BENCH_RUNS` runs per case (default 2).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureFreshDist } from './harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const TARGET_MB = Number(process.env['BENCH_MB'] ?? 100);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 2);

interface Sample {
  /** Whole child process, spawn to exit. */
  readonly wallMs: number;
  /** The measured work inside the child (after start-up and imports). */
  readonly workMs: number;
  readonly cpuMs: number;
  readonly rssMB: number;
  readonly note: string;
}

function generate(file: string): number {
  const fd = openSync(file, 'w');
  const target = TARGET_MB * 1_000_000;
  let written = 0;
  let i = 0;
  writeSync(fd, '[');
  written++;
  while (written < target) {
    const batch: string[] = [];
    for (let k = 0; k < 2000; k++, i++) {
      batch.push(
        (i > 0 ? ',' : '') +
          JSON.stringify({
            id: i,
            name: `customer ${i}`,
            email: `user${i}@example.com`,
            city: ['Zürich', '東京', 'São Paulo', 'Berlin'][i % 4],
            score: (i * 7919) % 1000 / 10,
            active: i % 3 !== 0,
            tags: ['alpha', 'beta', i % 2 ? 'gamma' : 'delta'],
            note: 'a "quoted" note, with commas, ] brackets } and \\ escapes',
          }),
      );
    }
    const text = batch.join('');
    writeSync(fd, text);
    written += Buffer.byteLength(text);
  }
  writeSync(fd, ']');
  closeSync(fd);
  return i;
}

/** Child scripts (plain ESM, run with `node --input-type=module -e`); each writes `{workMs, cpuMs, note}` to BENCH_OUT. */
const script = {
  empty: `
    import { writeFileSync } from 'node:fs';
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({ workMs: 0, cpuMs: 0, note: 'node, nothing loaded' }));`,
  parse: `
    import { readFileSync, writeFileSync } from 'node:fs';
    const t0 = performance.now(); const c0 = process.cpuUsage();
    const value = JSON.parse(readFileSync(process.env.BENCH_FILE, 'utf8'));
    const c = process.cpuUsage(c0);
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({ workMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, note: value.length + ' items' }));`,
  fit: `
    import { writeFileSync } from 'node:fs';
    const { fitStream, fileChunks } = await import(process.env.BENCH_DIST + '/budget/index.js');
    const { openSqliteStore } = await import(process.env.BENCH_DIST + '/store/sqlite/index.js');
    const store = process.env.BENCH_NO_STORE ? undefined : await openSqliteStore({ path: process.env.BENCH_STORE });
    const t0 = performance.now(); const c0 = process.cpuUsage();
    const env = await fitStream(fileChunks(process.env.BENCH_FILE), { maxTokens: 8000 }, { ...(store ? { store } : {}), principal: 'bench', tool: 'export' });
    const c = process.cpuUsage(c0);
    const workMs = performance.now() - t0;
    await store?.close();
    const k = env.completeness;
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({ workMs, cpuMs: (c.user + c.system) / 1000,
      note: k.returned_items + ' of ' + k.available_items + ' items kept, ' + (env.resources?.[0]?.bytes ?? 0) + ' bytes spooled' }));`,
  tables: `
    import { writeFileSync } from 'node:fs';
    const t0 = performance.now(); const c0 = process.cpuUsage();
    const { o200kCounter } = await import(process.env.BENCH_DIST + '/budget/index.js');
    const { openSqliteStore } = await import(process.env.BENCH_DIST + '/store/sqlite/index.js');
    const store = await openSqliteStore({ path: process.env.BENCH_STORE });
    const n = o200kCounter.count('warm up');
    const c = process.cpuUsage(c0);
    await store.close();
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({ workMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, note: 'library + SQLite + o200k tables loaded, no work (' + n + ' tokens)' }));`,
} as const;

/** Preloaded into every child: record peak RSS at exit. */
const REPORTER = `
  import { readFileSync, writeFileSync, existsSync } from 'node:fs';
  process.on('exit', () => {
    const out = process.env.BENCH_OUT;
    const prev = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : { workMs: NaN, cpuMs: NaN, note: '' };
    writeFileSync(out, JSON.stringify({ ...prev, rssMB: process.resourceUsage().maxRSS / 1024 }));
  });`;

type Kind = keyof typeof script | 'cli' | 'nostore';

function run(kind: Kind, dir: string, file: string, k: number): Sample {
  const out = join(dir, `out-${kind}-${k}.json`);
  const store = join(dir, `store-${kind}-${k}.sqlite`);
  rmSync(out, { force: true });
  const preload = ['--import', pathToFileURL(join(dir, 'rss-reporter.mjs')).href];
  const args =
    kind === 'cli'
      ? [...preload, join(DIST, 'cli', 'bin.js'), 'fit', file, '--max-tokens', '8000', '--store', store, '--principal', 'bench', '--json']
      : [...preload, '--input-type=module', '-e', script[kind === 'nostore' ? 'fit' : kind]];
  const env = { ...process.env, BENCH_OUT: out, BENCH_FILE: file, BENCH_STORE: store, BENCH_DIST: pathToFileURL(DIST).href, ...(kind === 'nostore' ? { BENCH_NO_STORE: '1' } : {}) };
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${kind} child failed (${r.status}): ${r.stderr}`);
  const raw = JSON.parse(readFileSync(out, 'utf8')) as { workMs: number | null; cpuMs: number | null; rssMB: number; note: string };
  // The CLI has no in-process timing: its NaN comes back from JSON as null.
  const got = { ...raw, workMs: raw.workMs ?? NaN, cpuMs: raw.cpuMs ?? NaN };
  if (kind === 'cli') {
    const envl = JSON.parse(r.stdout) as { completeness?: { returned_items?: number; available_items?: number | null }; resources?: { bytes: number }[] };
    const c = envl.completeness;
    return { ...got, wallMs, note: `${c?.returned_items} of ${c?.available_items} items kept, ${envl.resources?.[0]?.bytes ?? 0} bytes spooled` };
  }
  return { ...got, wallMs };
}

function main(): void {
  ensureFreshDist();
  const dir = mkdtempSync(join(tmpdir(), 'trc-budget-bench-'));
  try {
    writeFileSync(join(dir, 'rss-reporter.mjs'), REPORTER);
    const file = join(dir, 'big.json');
    const items = generate(file);
    const size = statSync(file).size;
    console.log(`input: ${(size / 1e6).toFixed(1)} MB, ${items} objects; node ${process.version}, children run dist/ with plain node`);
    console.log(`${RUNS} run(s) per case, interleaved; best wall/work/cpu time, highest peak RSS`);
    const kinds: readonly Kind[] = ['empty', 'tables', 'parse', 'fit', 'cli', 'nostore'];
    const samples = new Map<string, Sample[]>(kinds.map((kind) => [kind, []]));
    for (let k = 0; k < RUNS; k++) for (const kind of kinds) samples.get(kind)?.push(run(kind, dir, file, k));
    const best = (kind: string): Sample =>
      (samples.get(kind) ?? []).reduce((a, b) => ({
        wallMs: Math.min(a.wallMs, b.wallMs), workMs: Math.min(a.workMs, b.workMs), cpuMs: Math.min(a.cpuMs, b.cpuMs), rssMB: Math.max(a.rssMB, b.rssMB), note: b.note,
      }));
    const empty = best('empty');
    const parse = best('parse');
    const fit = best('fit');
    const cli = best('cli');
    const tables = best('tables');
    const nostore = best('nostore');
    const num = (v: number, d = 0) => (Number.isFinite(v) ? v.toFixed(d) : '–');
    const row = (name: string, s: Sample) =>
      `${name.padEnd(34)} ${num(s.wallMs).padStart(7)} ms ${num(s.workMs).padStart(7)} ms ${num(s.cpuMs).padStart(7)} ms ${num(s.rssMB, 1).padStart(8)} MB ${num(s.rssMB - empty.rssMB, 1).padStart(8)} MB  ${s.note}`;
    console.log(`${'case'.padEnd(34)} ${'wall'.padStart(10)} ${'work'.padStart(10)} ${'work cpu'.padStart(10)} ${'peak RSS'.padStart(11)} ${'above empty'.padStart(11)}`);
    console.log(row('empty node process (baseline)', empty));
    console.log(row('JSON.parse(readFileSync) (baseline)', parse));
    console.log(row('fitStream(fileChunks) → 8k tok + SQLite', fit));
    console.log(row('trc fit --max-tokens 8000 (CLI)', cli));
    console.log('breakdown:');
    console.log(row('  idle: code + SQLite + o200k tables', tables));
    console.log(row('  fitStream → 8k tokens, no store', nostore));
    const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
    for (const [name, s] of [['fitStream', fit], ['trc fit', cli]] as const) {
      const ratio = s.wallMs / parse.wallMs;
      const above = s.rssMB - empty.rssMB;
      const cpu = Number.isFinite(s.cpuMs) ? `; cpu-time ratio of the work ${(s.cpuMs / parse.cpuMs).toFixed(2)}× ${verdict(s.cpuMs / parse.cpuMs <= 1.5)}` : '';
      console.log(`${name}: wall-time ratio to JSON.parse (whole processes) ${ratio.toFixed(2)}× (target ≤ 1.5×) ${verdict(ratio <= 1.5)}${cpu}; ` +
        `peak RSS above empty ${above.toFixed(1)} MB (target ≤ 64 MB) ${verdict(above <= 64)}`);
    }
    // On a loaded machine a process waits for a core: wall time then says more about the load.
    if (parse.workMs / parse.cpuMs > 1.2) console.log(`note: JSON.parse's work took ${parse.workMs.toFixed(0)} ms wall for ${parse.cpuMs.toFixed(0)} ms cpu — the machine is busy (load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores), so wall ratios are noisy; the cpu ratio is the steadier figure`);
    console.log(`JSON.parse peak RSS above empty: ${(parse.rssMB - empty.rssMB).toFixed(1)} MB; throughput fitStream ${(size / 1e6 / (fit.workMs / 1000)).toFixed(0)} MB/s, JSON.parse ${(size / 1e6 / (parse.workMs / 1000)).toFixed(0)} MB/s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();

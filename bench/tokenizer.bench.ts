/**
 * Tokenizer benchmark: the compact o200k counter (the default, `o200kCounter`) against
 * gpt-tokenizer's engine (`gptTokenizerO200kCounter`, the baseline), each case in its own plain
 * `node` child running the compiled JavaScript in `dist/`:
 *   empty        — `node` doing nothing (the RSS baseline)
 *   import       — `dist/budget/index.js` imported, nothing counted (tables not loaded)
 *   load         — the same plus one `count('warm up')`: load time and peak RSS of the tables
 *   throughput   — exact counts of a ~7 MB JSON array, ~2 MB of English and ~1 MB of Chinese
 *                  text, in MB/s: the first pass in a fresh process, then the best of 2 repeat
 *                  passes (both engines cache merge results of repeated pieces — gpt-tokenizer
 *                  up to 100k of them, the compact counter 8k short ones)
 * Peak RSS is `process.resourceUsage().maxRSS` at exit. Both engines must give equal counts; the
 * table says so. `dist/` is rebuilt first when a `src/**` file is newer than its output.
 * `BENCH_RUNS` load runs per engine (default 3; best time, highest RSS).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureFreshDist, fmt } from './harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const ENGINES = { compact: 'o200kCounter', gpt: 'gptTokenizerO200kCounter' } as const;
type Engine = keyof typeof ENGINES;

/** Repeat `text` until it reaches `bytes` UTF-8 bytes. */
function repeatTo(text: string, bytes: number): string {
  const unit = Buffer.byteLength(text);
  return text.repeat(Math.max(1, Math.ceil(bytes / unit)));
}

/** The three samples, written as files the children read. */
function writeSamples(dir: string): Record<string, { file: string; mb: number }> {
  const rows = [];
  for (let i = 0; i < 33_000; i++) {
    rows.push({
      id: i, name: `customer ${i}`, email: `user${i}@example.com`, city: ['Zürich', '東京', 'São Paulo', 'Berlin'][i % 4],
      score: ((i * 7919) % 1000) / 10, active: i % 3 !== 0, tags: ['alpha', 'beta', i % 2 ? 'gamma' : 'delta'],
      note: 'a "quoted" note, with commas, ] brackets } and \\ escapes',
    });
  }
  // Real prose where it is available beside the repository; generated otherwise.
  const corpus = join(ROOT, '../shared/corpora/injection/benign.jsonl');
  const english = existsSync(corpus)
    ? readFileSync(corpus, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => (JSON.parse(l) as { text: string }).text).join('\n\n')
    : 'The quick brown fox jumps over the lazy dog while the committee reviews the quarterly report. ';
  const seedDir = join(ROOT, '../shared/seed');
  const chinese = existsSync(seedDir)
    ? readdirSync(seedDir).filter((f) => f.endsWith('.txt')).map((f) => readFileSync(join(seedDir, f), 'utf8')).join('\n')
    : '工具返回的结果必须经过验证，才能交给模型使用。大型结果需要按预算裁剪，并保留完整的外部资源。';
  const samples = { 'JSON array': JSON.stringify(rows), English: repeatTo(english, 2e6), Chinese: repeatTo(chinese, 1e6) };
  return Object.fromEntries(Object.entries(samples).map(([name, text], k) => {
    const file = join(dir, `sample-${k}.txt`);
    writeFileSync(file, text);
    return [name, { file, mb: Buffer.byteLength(text) / 1e6 }];
  }));
}

/** Child scripts (plain ESM); each writes a JSON result to BENCH_OUT. */
const script = {
  empty: `
    import { writeFileSync } from 'node:fs';
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({}));`,
  import: `
    import { writeFileSync } from 'node:fs';
    await import(process.env.BENCH_DIST + '/budget/index.js');
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({}));`,
  load: `
    import { writeFileSync } from 'node:fs';
    const budget = await import(process.env.BENCH_DIST + '/budget/index.js');
    const t0 = performance.now();
    const n = budget[process.env.BENCH_COUNTER].count('warm up');
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({ loadMs: performance.now() - t0, n }));`,
  throughput: `
    import { readFileSync, writeFileSync } from 'node:fs';
    const budget = await import(process.env.BENCH_DIST + '/budget/index.js');
    const counter = budget[process.env.BENCH_COUNTER];
    counter.count('warm up');
    const out = {};
    for (const [name, file] of JSON.parse(process.env.BENCH_SAMPLES)) {
      const text = readFileSync(file, 'utf8');
      const c0 = process.cpuUsage(); const t0 = performance.now();
      const tokens = counter.count(text);
      const firstMs = performance.now() - t0; const c = process.cpuUsage(c0);
      let best = Infinity;
      for (let k = 0; k < 2; k++) {
        const t1 = performance.now(); counter.count(text); best = Math.min(best, performance.now() - t1);
      }
      out[name] = { firstMs, firstCpuMs: (c.user + c.system) / 1000, ms: best, tokens, boms: text.split('\uFEFF').length - 1 };
    }
    writeFileSync(process.env.BENCH_OUT, JSON.stringify(out));`,
} as const;

/** Preloaded into every child: add peak RSS (MB) to its result at exit. */
const REPORTER = `
  import { readFileSync, writeFileSync, existsSync } from 'node:fs';
  process.on('exit', () => {
    const out = process.env.BENCH_OUT;
    const prev = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
    writeFileSync(out, JSON.stringify({ ...prev, rssMB: process.resourceUsage().maxRSS / 1024 }));
  });`;

function child<T>(dir: string, kind: keyof typeof script, env: Record<string, string>): T & { rssMB: number } {
  const out = join(dir, `out-${kind}.json`);
  rmSync(out, { force: true });
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'rss-reporter.mjs')).href, '--input-type=module', '-e', script[kind]], {
    env: { ...process.env, ...env, BENCH_OUT: out, BENCH_DIST: pathToFileURL(DIST).href },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${kind} child failed (${r.status}): ${r.stderr}`);
  return JSON.parse(readFileSync(out, 'utf8')) as T & { rssMB: number };
}

function main(): void {
  ensureFreshDist();
  const dir = mkdtempSync(join(tmpdir(), 'trc-tokenizer-bench-'));
  try {
    writeFileSync(join(dir, 'rss-reporter.mjs'), REPORTER);
    const samples = writeSamples(dir);
    console.log(`node ${process.version}; each case in its own child running dist/ with plain node; load: ${RUNS} runs per engine, best time, highest peak RSS`);

    let empty = 0;
    let imported = 0;
    const load: Record<Engine, { ms: number; rss: number }> = { compact: { ms: Infinity, rss: 0 }, gpt: { ms: Infinity, rss: 0 } };
    for (let k = 0; k < RUNS; k++) {
      empty = Math.max(empty, child<object>(dir, 'empty', {}).rssMB);
      imported = Math.max(imported, child<object>(dir, 'import', {}).rssMB);
      for (const engine of Object.keys(ENGINES) as Engine[]) {
        const s = child<{ loadMs: number }>(dir, 'load', { BENCH_COUNTER: ENGINES[engine] });
        load[engine] = { ms: Math.min(load[engine].ms, s.loadMs), rss: Math.max(load[engine].rss, s.rssMB) };
      }
    }
    const sampleList = JSON.stringify(Object.entries(samples).map(([name, s]) => [name, s.file]));
    const speed = Object.fromEntries((Object.keys(ENGINES) as Engine[]).map((engine) => [
      engine, child<Record<string, { ms: number; tokens: number }>>(dir, 'throughput', { BENCH_COUNTER: ENGINES[engine], BENCH_SAMPLES: sampleList }),
    ])) as Record<Engine, Record<string, { ms: number; tokens: number }> & { rssMB: number }>;

    type Speed = { firstMs: number; firstCpuMs: number; ms: number; tokens: number; boms: number };
    const names = Object.keys(samples);
    const get = (engine: Engine, name: string): Speed => (speed[engine] as unknown as Record<string, Speed>)[name] as Speed;
    const mbps = (name: string, ms: number) => fmt((samples[name]?.mb ?? 0) / (ms / 1000), 1);
    const label = { compact: 'compact o200k (default)', gpt: 'gpt-tokenizer (baseline)' } as const;
    console.log(`samples: ${names.map((n) => `${n} ${samples[n]?.mb.toFixed(1)} MB`).join(', ')}; empty node ${empty.toFixed(1)} MB, library imported ${imported.toFixed(1)} MB peak RSS`);
    console.log(`${'engine'.padEnd(26)} ${'load'.padStart(8)} ${'RSS>empty'.padStart(10)} ${'RSS>import'.padStart(11)} ${'RSS counting'.padStart(13)}   MB/s first pass / repeated (first-pass cpu MB/s): ${names.join(' | ')}`);
    for (const engine of Object.keys(ENGINES) as Engine[]) {
      console.log([
        label[engine].padEnd(26),
        `${fmt(load[engine].ms)} ms`.padStart(8),
        `${fmt(load[engine].rss - empty, 1)} MB`.padStart(10),
        `${fmt(load[engine].rss - imported, 1)} MB`.padStart(11),
        `${fmt(speed[engine].rssMB - empty, 1)} MB`.padStart(13),
        '  ' + names.map((n) => { const s = get(engine, n); return `${mbps(n, s.firstMs)} / ${mbps(n, s.ms)} (${mbps(n, s.firstCpuMs)})`.padStart(22); }).join(' |'),
      ].join(' '));
    }
    for (const n of names) {
      const a = get('compact', n);
      const b = get('gpt', n);
      const why = a.tokens === b.tokens ? 'equal' : a.boms > 0 ? `differ: the text holds ${a.boms} U+FEFF, which gpt-tokenizer's decoder drops as a byte order mark (see docs/budget.md)` : 'DIFFER';
      console.log(`token counts, ${n}: ${fmt(a.tokens)} vs ${fmt(b.tokens)} — ${why}`);
    }
    const ratio = (load.gpt.rss - imported) / Math.max(0.1, load.compact.rss - imported);
    console.log(`tables loaded: compact adds ${fmt(load.compact.rss - imported, 1)} MB over the imported library (target ≤ ~10 MB) ${load.compact.rss - imported <= 10 ? 'ok' : 'MISSED'}; ` +
      `gpt-tokenizer ${fmt(load.gpt.rss - imported, 1)} MB (${fmt(ratio, 1)}×); load ${fmt(load.compact.ms)} vs ${fmt(load.gpt.ms)} ms`);
    console.log('"RSS counting" is the peak of the throughput child (samples read as strings included).');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();

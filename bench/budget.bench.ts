/**
 * Budget benchmark (SPEC Z7): a generated 100 MB JSON array of objects, measured three ways,
 * each in its own child process so peak RSS is its own:
 *   empty     — node + tsx, no work (the baseline process)
 *   JSON.parse — JSON.parse(readFileSync(file)) — what most code does today
 *   fitStream — stream the file, fit to 8,000 tokens, spool the raw bytes to SQLite
 * Prints wall-time ratio (target ≤ 1.5×) and peak RSS above the empty process (target ≤ 64 MB).
 * `BENCH_MB=20 npm run bench -- budget` for a quicker run.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, createReadStream, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const TARGET_MB = Number(process.env['BENCH_MB'] ?? 100);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 2);

interface Sample {
  readonly ms: number;
  /** CPU time (user + system) of the measured work: steadier than wall time on a busy machine. */
  readonly cpuMs: number;
  readonly rssMB: number;
  readonly note: string;
}

async function child(mode: string, file: string, storePath: string): Promise<void> {
  let note = '';
  const t0 = performance.now();
  let cpu0 = process.cpuUsage();
  if (mode === 'parse') {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
    note = `${value.length} items`;
  } else if (mode === 'idle') {
    // The library, its tokenizer tables and the SQLite driver loaded, no work done.
    const { o200kCounter } = await import('../src/budget/index.js');
    const { openSqliteStore } = await import('../src/store/sqlite/index.js');
    const store = await openSqliteStore({ path: storePath });
    note = `loaded (${o200kCounter.count('warm up')} tokens counted)`;
    await store.close();
  } else if (mode === 'fit') {
    const { fitStream } = await import('../src/budget/index.js');
    const { openSqliteStore } = await import('../src/store/sqlite/index.js');
    const store = await openSqliteStore({ path: storePath });
    const started = performance.now();
    cpu0 = process.cpuUsage();
    const env = await fitStream(createReadStream(file, { highWaterMark: 1 << 20 }), { maxTokens: 8000 }, { store, principal: 'bench', tool: 'export' });
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    await store.close();
    const c = env.completeness;
    note = `${c?.returned_items} of ${c?.available_items} items kept, ${env.resources?.[0]?.bytes ?? 0} bytes spooled`;
    process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, rssMB: process.resourceUsage().maxRSS / 1024, note }));
    return;
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, rssMB: process.resourceUsage().maxRSS / 1024, note }));
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

function run(mode: string, file: string, storePath: string): Sample {
  const r = spawnSync(process.execPath, ['--import', 'tsx', SELF, '--child', mode, file, storePath], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${mode} child failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Sample;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'trc-budget-bench-'));
  try {
    const file = join(dir, 'big.json');
    const items = generate(file);
    const size = statSync(file).size;
    console.log(`input: ${(size / 1e6).toFixed(1)} MB, ${items} objects; ${RUNS} run(s) of each measured case, best wall/cpu time, max RSS`);
    const best = (mode: string, runs = RUNS): Sample => {
      const samples = Array.from({ length: runs }, (_, k) => run(mode, file, join(dir, `store-${mode}-${k}.sqlite`)));
      return samples.reduce((a, b) => ({ ms: Math.min(a.ms, b.ms), cpuMs: Math.min(a.cpuMs, b.cpuMs), rssMB: Math.max(a.rssMB, b.rssMB), note: b.note }));
    };
    // The baselines without work need one run; the two measured cases get RUNS each.
    const empty = best('empty', 1);
    const idle = best('idle', 1);
    const parse = best('parse');
    const fit = best('fit');
    const row = (name: string, s: Sample) =>
      `${name.padEnd(38)} ${s.ms.toFixed(0).padStart(7)} ms ${s.cpuMs.toFixed(0).padStart(7)} ms ${s.rssMB.toFixed(1).padStart(9)} MB ${(s.rssMB - empty.rssMB).toFixed(1).padStart(9)} MB  ${s.note}`;
    console.log(`${'case'.padEnd(38)} ${'wall'.padStart(10)} ${'cpu'.padStart(10)} ${'peak RSS'.padStart(12)} ${'above empty'.padStart(12)}`);
    console.log(row('empty process (baseline)', empty));
    console.log(row('idle: library + o200k + SQLite loaded', idle));
    console.log(row('JSON.parse(readFileSync) (baseline)', parse));
    console.log(row('fitStream → 8,000 tokens + SQLite', fit));
    const ratio = fit.ms / parse.ms;
    const cpuRatio = fit.cpuMs / parse.cpuMs;
    const above = fit.rssMB - empty.rssMB;
    console.log(`cpu-time ratio fitStream / JSON.parse: ${cpuRatio.toFixed(2)}× (wall time suffers most when the machine is busy)`);
    console.log(`wall-time ratio fitStream / JSON.parse: ${ratio.toFixed(2)}× (target ≤ 1.5×) ${ratio <= 1.5 ? 'ok' : 'MISSED'}`);
    console.log(`fitStream peak RSS above empty process: ${above.toFixed(1)} MB (target ≤ 64 MB) ${above <= 64 ? 'ok' : 'MISSED'}`);
    console.log(`  of which fixed cost of loaded code and tables (idle − empty): ${(idle.rssMB - empty.rssMB).toFixed(1)} MB; working memory (fit − idle): ${(fit.rssMB - idle.rssMB).toFixed(1)} MB`);
    console.log(`throughput fitStream: ${(size / 1e6 / (fit.ms / 1000)).toFixed(0)} MB/s; JSON.parse: ${(size / 1e6 / (parse.ms / 1000)).toFixed(0)} MB/s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] ?? 'empty', process.argv[4] ?? '', process.argv[5] ?? ':memory:');
} else {
  await main();
}

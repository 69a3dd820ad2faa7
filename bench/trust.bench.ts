/**
 * Trust benchmark: detector quality on the development corpora split by source (recall per
 * form and per source, false positives per benign kind, for the development part and the
 * held-out part), evasion transforms of our own payloads, detector throughput beside a plain
 * `String.prototype.includes` keyword scan of the same text, and the worst 1 MB adversarial input.
 */
import { detectInstructions } from '../src/trust/index.js';
import { HELD_OUT_SOURCES, loadCorpus, type CorpusRow } from './trust-corpus.js';

function table(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  console.log(`\n${title}`);
  for (const [k, r] of cells.entries()) {
    console.log('  ' + r.map((c, i) => (i === 0 || (i === 1 && header[1] === 'group') || (i === 2 && header[2] === 'source') ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  '));
    if (k === 0) console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

function best(runs: number, f: () => void): { wall: number; cpu: number } {
  let wall = Infinity;
  let cpu = Infinity;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    f();
    wall = Math.min(wall, performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1000);
  }
  return { wall, cpu };
}

const pct = (a: number, b: number, digits = 1): string => (b === 0 ? '-' : `${((100 * a) / b).toFixed(digits)}%`);
const TARGETS: Record<string, string> = { templated: '>= 99%', mixed: '>= 90%', plain_goal: '(not expected)', jailbreak: '(reported)', benign: '<= 0.5%' };

// 1. Corpus quality, split by source.
const rows = loadCorpus();
if (rows === null) {
  console.log('\n(corpora not found beside the repository: quality tables skipped)');
} else {
  console.log(`\nSplit by source (fixed): held-out = sources starting with ${HELD_OUT_SOURCES.join(', ')}; dev = the rest.`);
  const flagged = new Map<CorpusRow, boolean>();
  for (const r of rows) flagged.set(r, detectInstructions(r.text).instructional);
  type Cell = { hit: number; total: number };
  const tally = (keyOf: (r: CorpusRow) => string | null): Map<string, Cell> => {
    const m = new Map<string, Cell>();
    for (const r of rows) {
      const k = keyOf(r);
      if (k === null) continue;
      const c = m.get(k) ?? { hit: 0, total: 0 };
      c.total++;
      if (flagged.get(r) === true) c.hit++;
      m.set(k, c);
    }
    return m;
  };
  const bySource = tally((r) => `${r.part}\t${r.label === 'injection' ? r.group : 'benign:' + r.group}\t${r.source}`);
  table('Per source (injections: recall; benign: false positives)', ['part', 'group', 'source', 'flagged', 'total', 'rate'],
    [...bySource].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => [...k.split('\t'), c.hit, c.total, pct(c.hit, c.total)]));
  for (const part of ['dev', 'held-out'] as const) {
    const forms = tally((r) => (r.part === part && r.label === 'injection' ? r.group : null));
    const kinds = tally((r) => (r.part === part && r.label === 'benign' ? r.group : null));
    const benign = [...kinds.values()].reduce((a, c) => ({ hit: a.hit + c.hit, total: a.total + c.total }), { hit: 0, total: 0 });
    table(`Summary, ${part} part`, ['set', 'flagged', 'total', 'rate', part === 'held-out' ? 'target' : ''], [
      ...[...forms].sort(([a], [b]) => a.localeCompare(b)).map(([f, c]) => [`recall ${f}`, c.hit, c.total, pct(c.hit, c.total), part === 'held-out' ? TARGETS[f] ?? '' : '']),
      ...[...kinds].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => [`false positives ${k}`, c.hit, c.total, pct(c.hit, c.total, 2), '']),
      ['false positives, all benign', benign.hit, benign.total, pct(benign.hit, benign.total, 2), part === 'held-out' ? TARGETS['benign'] ?? '' : ''],
    ]);
  }
}

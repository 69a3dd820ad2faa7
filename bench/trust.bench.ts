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

// 2. Throughput beside a plain includes() scan of the same text (the first corpus, as before,
// so the figure compares with earlier runs), and on the benign rows of the second.
let sink = 0;
const keywords = ['ignore', 'previous instructions', '<|im_start|>', '[inst]', '<<sys>>', 'assistant:', '<tool_call>', '"arguments"', 'system prompt', 'disregard', 'your reply', '![', 'base64', 'todo:'];
const throughputRows: (string | number)[][] = [];
const sources: [string, string[]][] = rows === null ? [] : [
  ['first corpus (injection/)', rows.filter((r) => r.source.startsWith('agentdojo') || r.source.startsWith('bipia') || r.source.startsWith('notinject')).map((r) => r.text)],
  ['benign rows of injection-extra', rows.filter((r) => r.label === 'benign' && !r.source.startsWith('agentdojo') && !r.source.startsWith('bipia') && !r.source.startsWith('notinject')).map((r) => r.text)],
];
for (const [name, texts] of sources) {
  const all = texts.join('\n\n');
  const text = all.repeat(Math.max(1, Math.ceil((4 << 20) / all.length))).slice(0, 4 << 20);
  const mb = text.length / (1 << 20);
  const detector = best(5, () => { sink += detectInstructions(text).spans.length; });
  const includesScan = best(5, () => { const lower = text.toLowerCase(); for (const k of keywords) if (lower.includes(k)) sink++; });
  throughputRows.push(
    [`detectInstructions, ${name}`, detector.wall.toFixed(1), detector.cpu.toFixed(1), (mb / (detector.cpu / 1000)).toFixed(1)],
    [`String.prototype.includes x ${keywords.length} keywords, ${name}`, includesScan.wall.toFixed(1), includesScan.cpu.toFixed(1), (mb / (includesScan.cpu / 1000)).toFixed(1)],
  );
}
table('Throughput on 4 MB of corpus text (best of 5; the baseline normalizes nothing and finds only literal keywords)', ['scan', 'wall ms', 'cpu ms', 'MB/s (cpu)'], throughputRows);

// 3. Adversarial 1 MB inputs: long runs of near-matches for every rule kind and decoding.
const MB = 1 << 20;
const fill = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
const adversarial: [string, string][] = [
  ['phrase prefixes', fill('ignore all previous ')],
  ['special-token openers', fill('<|system')],
  ['markdown image links, no end', fill('![a](http://x?')],
  ['role labels', fill('assistant:user:')],
  ['hash headers', fill('## system')],
  ['base64 of instructions', fill('aWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnM ')],
  ['hex', fill('69676e6f726520616c6c20')],
  ['zero-width splits', fill('a\u200b')],
  ['tag characters', fill('\u{E0069}')],
  ['url placeholders', fill('https://x/?a={')],
  ['homoglyphs', fill('аеосрху')],
  ['every decoding at once', fill('vtaber snoitcurtsni 1gn0r3 4ll eviouspray igway i g n o r e <b>x</b> %69%67 &#105; \\u0069 aWdu b3Jl 69 67 6e i\u3164g ո ')],
];
const advRows = adversarial.map(([name, t]) => {
  detectInstructions(t.slice(0, 4096));
  const r = best(3, () => { sink += detectInstructions(t).spans.length; });
  return [name, r.wall.toFixed(1), r.cpu.toFixed(1)];
});
table('1 MB adversarial inputs (best of 3)', ['input', 'wall ms', 'cpu ms'], advRows);
console.log(`  worst: ${Math.max(...advRows.map((r) => Number(r[2]))).toFixed(1)} ms CPU${sink < 0 ? '' : ''}`);

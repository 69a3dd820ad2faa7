/**
 * Trust benchmark: detector quality on the development corpus (recall per form, benign false
 * positives), detector throughput beside a plain `String.prototype.includes` keyword scan of the
 * same text, and the worst 1 MB adversarial input (ReDoS guard: target < 100 ms).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectInstructions } from '../src/trust/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = path.resolve(repoRoot, '../shared/corpora/injection');

interface Row { text: string; form?: string }
const readJsonl = (file: string): Row[] =>
  readFileSync(path.join(corpusDir, file), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Row);

function table(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  console.log(`\n${title}`);
  for (const [k, r] of cells.entries()) {
    console.log('  ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  '));
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

// 1. Corpus quality.
const injections = readJsonl('injections.jsonl');
const benign = readJsonl('benign.jsonl');
const perForm = new Map<string, { flagged: number; total: number }>();
for (const row of injections) {
  const form = row.form ?? 'unlabelled';
  const s = perForm.get(form) ?? { flagged: 0, total: 0 };
  s.total++;
  if (detectInstructions(row.text).instructional) s.flagged++;
  perForm.set(form, s);
}
const benignFlagged = benign.filter((r) => detectInstructions(r.text).instructional).length;
const pct = (a: number, b: number): string => `${((100 * a) / b).toFixed(1)}%`;
const target: Record<string, string> = { templated: '>= 99%', mixed: '(reported)', plain_goal: '(not expected)' };
table('Detector on ../shared/corpora/injection (development set)', ['set', 'flagged', 'total', 'rate', 'target'], [
  ...[...perForm].sort(([a], [b]) => a.localeCompare(b)).map(([form, s]) => [`recall ${form}`, s.flagged, s.total, pct(s.flagged, s.total), target[form] ?? '']),
  ['benign false positives', benignFlagged, benign.length, pct(benignFlagged, benign.length), '<= 1%'],
]);

// 2. Throughput beside a plain includes() scan of the same text.
const all = [...benign, ...injections].map((r) => r.text).join('\n\n');
const text = all.repeat(Math.max(1, Math.ceil((4 << 20) / all.length))).slice(0, 4 << 20);
const mb = text.length / (1 << 20);
const keywords = ['ignore', 'previous instructions', '<|im_start|>', '[inst]', '<<sys>>', 'assistant:', '<tool_call>', '"arguments"', 'system prompt', 'disregard', 'your reply', '![', 'base64', 'todo:'];
let sink = 0;
const detector = best(5, () => { sink += detectInstructions(text).spans.length; });
const includesScan = best(5, () => { const lower = text.toLowerCase(); for (const k of keywords) if (lower.includes(k)) sink++; });
table(`Throughput on ${mb.toFixed(1)} MB of corpus text (best of 5)`, ['scan', 'wall ms', 'cpu ms', 'MB/s (cpu)'], [
  ['detectInstructions', detector.wall.toFixed(1), detector.cpu.toFixed(1), (mb / (detector.cpu / 1000)).toFixed(1)],
  [`String.prototype.includes x ${keywords.length} keywords (baseline)`, includesScan.wall.toFixed(1), includesScan.cpu.toFixed(1), (mb / (includesScan.cpu / 1000)).toFixed(1)],
]);
console.log(`  detector / baseline CPU time: ${(detector.cpu / includesScan.cpu).toFixed(1)}x (the baseline normalizes nothing and finds only literal keywords)`);

// 3. Adversarial 1 MB inputs: long runs of near-matches for every rule kind.
const MB = 1 << 20;
const fill = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
const adversarial: [string, string][] = [
  ['phrase prefixes', fill('ignore all previous ')],
  ['special-token openers', fill('<|system')],
  ['markdown image links, no end', fill('![a](http://x?')],
  ['role labels', fill('assistant:user:')],
  ['hash headers', fill('## system')],
  ['base64 of instructions', fill('aWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnM ')],
  ['zero-width splits', fill('a\u200b')],
  ['tag characters', fill('\u{E0069}')],
  ['url placeholders', fill('https://x/?a={')],
  ['homoglyphs', fill('аеосрху')],
];
const rows = adversarial.map(([name, t]) => {
  detectInstructions(t.slice(0, 4096));
  const r = best(5, () => { sink += detectInstructions(t).spans.length; });
  return [name, r.wall.toFixed(1), r.cpu.toFixed(1), r.cpu < 100 ? 'ok' : 'OVER'];
});
table('1 MB adversarial inputs (best of 5; target < 100 ms)', ['input', 'wall ms', 'cpu ms', '< 100'], rows);
const worst = Math.max(...rows.map((r) => Number(r[2])));
console.log(`  worst: ${worst.toFixed(1)} ms CPU${sink < 0 ? '' : ''}`);

/**
 * Trust benchmark, on the compiled package (dist/, rebuilt when stale):
 *
 * 1. Detector quality on the development corpora split by source: recall per form and per
 *    source, false positives per benign kind, for the development part and the held-out part.
 *    `TRUST_BENCH_MISSES=dev|held-out` also prints the missed mixed injections and the flagged
 *    benign rows of that part, with the rules that fired (for development; never commit them).
 * 2. Throughput beside `String.prototype.includes` over the same keywords, in the same run:
 *    ordinary text (the benign rows, one call each), the mixed corpus text (4 MB of the first
 *    corpus, as earlier runs measured it), the fast path alone, a loop that only reads each
 *    character (what any JavaScript scan costs on this machine), and API responses whose ids
 *    change on every pass (as a long-running gateway sees them: no word cache helps).
 * 3. The worst 1 MB adversarial inputs.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { detectInstructions as DetectInstructions } from '../src/trust/index.js';
import type { scanTriggers as ScanTriggers } from '../src/trust/trigger-scan.js';
import { ensureFreshDist, reportTarget } from './harness.js';
import { HELD_OUT_SOURCES, loadCorpus, type CorpusRow } from './trust-corpus.js';

ensureFreshDist();
const { detectInstructions } = (await import(new URL('../dist/trust/index.js', import.meta.url).href)) as { detectInstructions: typeof DetectInstructions };
const { scanTriggers } = (await import(new URL('../dist/trust/trigger-scan.js', import.meta.url).href)) as { scanTriggers: typeof ScanTriggers };

function table(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const left = (i: number): boolean => i === 0 || (i === 1 && header[1] === 'group') || (i === 2 && header[2] === 'source');
  console.log(`\n${title}`);
  for (const [k, r] of cells.entries()) {
    console.log('  ' + r.map((c, i) => (left(i) ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  '));
    if (k === 0) console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

const cpuMs = (f: () => void): number => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const pct = (a: number, b: number, digits = 1): string => (b === 0 ? '-' : `${((100 * a) / b).toFixed(digits)}%`);
const TARGETS: Record<string, string> = { templated: '>= 99%', mixed: '>= 90%', plain_goal: '(not expected)', jailbreak: '(reported)', benign: '<= 0.5%' };

// 1. Corpus quality, split by source.
const rows = loadCorpus();
if (rows === null) {
  console.log('\n(corpora not found beside the repository: quality and throughput tables skipped)');
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
    if (part === 'held-out') {
      const rate = (c: Cell | undefined): number => (c === undefined || c.total === 0 ? NaN : (100 * c.hit) / c.total);
      const templated = rate(forms.get('templated'));
      const mixedRecall = rate(forms.get('mixed'));
      const fp = rate(benign);
      reportTarget({ area: 'trust', measure: 'held-out templated recall', value: `${templated.toFixed(1)} %`, target: '≥ 99 %', met: templated >= 99 });
      reportTarget({ area: 'trust', measure: 'held-out mixed recall', value: `${mixedRecall.toFixed(1)} %`, target: '≥ 90 %', met: mixedRecall >= 90 });
      reportTarget({ area: 'trust', measure: 'held-out benign false positives', value: `${fp.toFixed(2)} %`, target: '≤ 0.5 %', met: fp <= 0.5 });
    }
  }
  // The dev part's missed mixed injections, measured against the one shape they share: a short
  // text that is a single request or question ("Explain the theory of relativity."). A rule for
  // that shape (measured here, never shipped) shows what catching them would cost. Dev rows only.
  const requestShape = (t: string): boolean => t.length < 300 && /^(what|who|how|why|when|where|which|can|could|is|are|was|explain|describe|write|draft|compose|provide|develop|translate|replace|break|give|list|tell|summarize|create)\b/i.test(t.trim());
  const devMisses = rows.filter((r) => r.part === 'dev' && r.label === 'injection' && r.group === 'mixed' && flagged.get(r) !== true);
  const shapeKinds = new Map<string, Cell>();
  for (const r of rows) {
    if (r.part !== 'dev' || r.label !== 'benign') continue;
    const c = shapeKinds.get(r.group) ?? { hit: 0, total: 0 };
    c.total++;
    if (requestShape(r.text)) c.hit++;
    shapeKinds.set(r.group, c);
  }
  const shapeAll = [...shapeKinds.values()].reduce((a, c) => ({ hit: a.hit + c.hit, total: a.total + c.total }), { hit: 0, total: 0 });
  table(`Dev mixed injections the detector misses (${devMisses.length}), and a rule for their shape (a short request or question; measured, not shipped)`, ['set', 'flagged', 'total', 'rate'], [
    ['the missed injections', devMisses.filter((r) => requestShape(r.text)).length, devMisses.length, pct(devMisses.filter((r) => requestShape(r.text)).length, devMisses.length)],
    ...[...shapeKinds].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => [`benign ${k}`, c.hit, c.total, pct(c.hit, c.total, 2)]),
    ['benign, all', shapeAll.hit, shapeAll.total, pct(shapeAll.hit, shapeAll.total, 2)],
  ]);
  const debugPart = process.env['TRUST_BENCH_MISSES'];
  if (debugPart === 'dev' || debugPart === 'held-out') {
    console.log(`\nDebug (${debugPart}): missed mixed injections, then flagged benign rows — development aid, never commit this text`);
    for (const r of rows) {
      if (r.part !== debugPart) continue;
      const hit = flagged.get(r) === true;
      if ((r.label === 'injection' && r.group === 'mixed' && !hit) || (r.label === 'benign' && hit)) {
        const rules = [...new Set(detectInstructions(r.text).spans.map((s) => `${s.rule}${s.strong ? '!' : ''}`))].join(' ');
        console.log(`  [${r.label === 'benign' ? 'FP' : 'miss'} ${r.source}] ${JSON.stringify(r.text.slice(0, 300))}  rules: ${rules || '-'}`);
      }
    }
  }
}

// 2. Throughput beside a plain includes() scan of the same text, contenders alternated.
let sink = 0;
const keywords = ['ignore', 'previous instructions', '<|im_start|>', '[inst]', '<<sys>>', 'assistant:', '<tool_call>', '"arguments"', 'system prompt', 'disregard', 'your reply', '![', 'base64', 'todo:'];
const includesScan = (t: string): void => { const lower = t.toLowerCase(); for (const k of keywords) if (lower.includes(k)) sink++; };
const readEach = (t: string): void => { for (let i = 0; i < t.length; i++) sink += t.charCodeAt(i) & 1; };
if (rows !== null) {
  const ordinary = rows.filter((r) => r.label === 'benign' && !/^(agentdojo|bipia|notinject)/.test(r.source)).map((r) => r.text);
  const first = rows.filter((r) => /^(agentdojo|bipia|notinject)/.test(r.source)).map((r) => r.text).join('\n\n');
  const mixed = first.repeat(Math.max(1, Math.ceil((4 << 20) / first.length))).slice(0, 4 << 20);
  const ordinaryBytes = ordinary.reduce((a, t) => a + t.length, 0);
  const rejected = ordinary.filter((t) => scanTriggers(t) === 0).reduce((a, t) => a + t.length, 0);
  const perRow = (f: (t: string) => void) => (): void => { for (const t of ordinary) f(t); };
  // API responses as a gateway sees them over time: the same shapes, ids it has not seen before
  // (every digit moved on each pass, made before the clock starts; warm-up + 5 rounds).
  const api = rows.filter((r) => r.label === 'benign' && r.group === 'api_response').map((r) => r.text);
  const apiBytes = api.reduce((a, t) => a + t.length, 0);
  const apiPasses = Array.from({ length: 6 }, (_, k) => api.map((t) => t.replace(/\d/g, (d) => String((Number(d) + k + 1) % 10))));
  let apiPass = 0;
  const contenders: [string, number, () => void][] = [
    ['detectInstructions, ordinary text (benign rows, one call each)', ordinaryBytes, perRow((t) => { sink += detectInstructions(t).spans.length; })],
    [`String.prototype.includes x ${keywords.length} keywords, same rows`, ordinaryBytes, perRow(includesScan)],
    ['fast path alone (scanTriggers), same rows', ordinaryBytes, perRow((t) => { sink += scanTriggers(t); })],
    ['a loop reading each character, same rows', ordinaryBytes, perRow(readEach)],
    ['detectInstructions, mixed corpus text (4 MB of the first corpus, one call)', mixed.length, () => { sink += detectInstructions(mixed).spans.length; }],
    [`String.prototype.includes x ${keywords.length} keywords, same 4 MB`, mixed.length, () => includesScan(mixed)],
    ['detectInstructions, API responses with unseen ids (api_response rows)', apiBytes, () => { for (const t of apiPasses[apiPass++ % apiPasses.length] ?? []) sink += detectInstructions(t).spans.length; }],
    ['String.prototype.includes, same rows', apiBytes, () => { for (const t of apiPasses[apiPass % apiPasses.length] ?? []) includesScan(t); }],
  ];
  for (const [, , f] of contenders) f(); // warm up the JIT
  const times = contenders.map(() => [] as number[]);
  for (let round = 0; round < 5; round++) contenders.forEach(([, , f], i) => times[i]?.push(cpuMs(f)));
  table('Throughput (CPU time, median of 5 rounds, contenders alternated; the baseline normalizes nothing and finds only literal keywords)',
    ['scan', 'cpu ms', 'MB/s', 'target'], contenders.map(([name, bytes], i) => {
      const ms = median(times[i] ?? []);
      const target = i === 0 ? '>= 50 MB/s' : i === 4 ? '>= 8.9 MB/s (before)' : '';
      return [name, ms.toFixed(1), (bytes / (1 << 20) / (ms / 1000)).toFixed(1), target];
    }));
  const rate = (i: number): number => (contenders[i]?.[1] ?? 0) / (1 << 20) / (median(times[i] ?? []) / 1000);
  reportTarget({ area: 'trust', measure: 'detector on ordinary text', value: `${rate(0).toFixed(1)} MB/s`, target: '≥ 50 MB/s', met: rate(0) >= 50, note: `includes() baseline ${rate(1).toFixed(1)} MB/s` });
  // The earlier, simpler detector ran 8.9 MB/s on this text (issue 15's figure; it is not in the
  // package any more, so it cannot be measured beside today's in the same run).
  reportTarget({ area: 'trust', measure: 'detector on 4 MB mixed text', value: `${rate(4).toFixed(1)} MB/s`, target: '≥ 8.9 MB/s (before)', met: rate(4) >= 8.9, note: `includes() baseline ${rate(5).toFixed(1)} MB/s` });
  console.log(`  detector / includes: ordinary text ${(rate(0) / rate(1)).toFixed(2)}, mixed text ${(rate(4) / rate(5)).toFixed(2)}, API responses ${(rate(6) / rate(7)).toFixed(2)}; ` +
    `the fast path rejects ${pct(rejected, ordinaryBytes)} of the ordinary bytes before any normalization`);
}
console.log(`  load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`);

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
  const ms = Math.min(...[0, 1, 2].map(() => cpuMs(() => { sink += detectInstructions(t).spans.length; })));
  return [name, ms.toFixed(1)];
});
table('1 MB adversarial inputs (best of 3, CPU)', ['input', 'cpu ms'], advRows);
console.log(`  worst: ${Math.max(...advRows.map((r) => Number(r[1]))).toFixed(1)} ms CPU${sink < 0 ? '' : ''}`);

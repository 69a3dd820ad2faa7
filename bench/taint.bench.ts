/**
 * Taint by value flow (issue 15), each figure beside a baseline measured in the same run:
 *   - indexing untrusted text (`TaintIndex.addUntrusted`: taint form, escape views, the window
 *     table) vs `toLowerCase()` of the same text (the old verbatim matcher's first step) and a
 *     loop that only reads each character;
 *   - checking one call's arguments against a run that saw 1 MB of untrusted text vs
 *     `includes` of each argument in the lower-cased text (verbatim matching, which misses
 *     every transformed value the index finds);
 *   - on 1 MB of each kind of development text (the corpora beside the repository; skipped with
 *     a line when they are absent): indexing, and the two readings it adds to the text itself
 *     (decoding short base64/hex runs, values read out in words), beside reading each character.
 * Run: `npm run bench -- taint` (or `node --expose-gc --import tsx bench/taint.bench.ts`).
 */
import { TaintIndex } from '../src/trust/index.js';
import { compare, fmt } from './harness.js';
import { decodedRunsByKind } from '../src/trust/taint-encodings.js';
import { spokenValues } from '../src/trust/spoken-values.js';
import { CORPORA_DIR, loadCorpus } from './trust-corpus.js';

const MB = 1_000_000;
// Mail-like text: words, addresses, IBANs, URLs — a fresh mix of tokens.
const words = ['invoice', 'payment', 'the', 'contract', 'attached', 'please', 'regards', 'meeting', 'Monday', 'total', 'EUR'];
function text(n: number, seed: number): string {
  const parts: string[] = [];
  let len = 0;
  for (let i = 0; len < n; i++) {
    const r = (Math.imul(i + seed, 2654435761) >>> 0) % 97;
    const p = r < 80 ? (words[r % words.length] as string) : r < 88 ? `user${r}.${i}@mail-${i % 50}.test` : r < 93 ? `DE${10 + (i % 89)} 3704 0044 ${String(i).padStart(4, '0')} 0130 00` : `https://site${i % 200}.test/p/${i}`;
    parts.push(p);
    len += p.length + 1;
  }
  return parts.join(' ');
}
const big = text(MB, 1);
const args = { to: 'user84.1234@mail-34.test', iban: 'de5037040044123401300', body: 'Please find the contract attached, regards', url: 'https://site7.test/p/7' };

const index = new TaintIndex();
index.addUntrusted({ content_id: 'uc', text: big, source: 'email:inbox' });

let sink = 0;
const build = compare({
  'TaintIndex.addUntrusted (1 MB)': () => { const i = new TaintIndex(); i.addUntrusted({ content_id: 'uc', text: big, source: 'email:inbox' }); sink += i.stats().untrusted.grams; },
  'baseline: toLowerCase (1 MB)': () => { sink += big.toLowerCase().length; },
  'baseline: read every character (1 MB)': () => { let x = 0; for (let k = 0; k < big.length; k++) x += big.charCodeAt(k); sink += x; },
}, { rounds: 3, roundMs: 1500 });
console.log('\nTable 1: indexing untrusted text (MB/s, median of 3 rounds)');
for (const [k, v] of Object.entries(build)) console.log(`  ${k.padEnd(42)} ${fmt(v, 1).padStart(8)} MB/s`);

const lower = big.toLowerCase();
const check = compare({
  'TaintIndex.taintOf (4 arguments, 1 MB seen)': () => { sink += index.taintOf(args).length; },
  'baseline: includes per argument (verbatim)': () => { for (const v of Object.values(args)) sink += lower.includes(v.toLowerCase()) ? 1 : 0; },
}, { rounds: 3, roundMs: 1000 });
console.log('\nTable 2: checking one call (checks/s, median of 3 rounds)');
for (const [k, v] of Object.entries(check)) console.log(`  ${k.padEnd(42)} ${fmt(v, 0).padStart(10)} /s`);
console.log(`\n(the index traced ${index.taintOf(args).map((t) => t.argument).join(', ')}; includes found ${Object.entries(args).filter(([, v]) => lower.includes(v.toLowerCase())).map(([k]) => `/${k}`).join(', ') || 'none'})`);
// Table 3: the reading taint adds on real text — its own decoding of short base64/hex runs and
// values read out in words — beside a loop that reads each character, on 1 MB of each kind of
// development text (the corpora beside the repository; not shipped, so skipped without them).
const corpus = loadCorpus();
if (corpus === null) {
  console.log(`\nTable 3 skipped: the development corpora are not at ${CORPORA_DIR}`);
} else {
  const megabyteOf = (group: string): string => {
    let t = '';
    for (const r of corpus) if (r.part === 'dev' && r.label === 'benign' && r.group === group && t.length < MB) t += r.text + '\n';
    return t.slice(0, MB);
  };
  const kinds = ['code_doc', 'api_response', 'instruction', 'role_prompt'].map((g) => [g, megabyteOf(g)] as const).filter(([, t]) => t.length > 100_000);
  console.log('\nTable 3: what taint reads besides the text itself, on development text (MB/s, median of 3 rounds)');
  for (const [group, t] of kinds) {
    const r = compare({
      'TaintIndex.addUntrusted': () => { const i = new TaintIndex(); i.addUntrusted({ content_id: 'uc', text: t, source: 'web:x' }); sink += i.stats().untrusted.grams; },
      'of which: decoding runs from 7 characters': () => { sink += decodedRunsByKind([t]).length; },
      'of which: values read out in words': () => { sink += spokenValues(t).length; },
      'baseline: read every character': () => { let x = 0; for (let k = 0; k < t.length; k++) x += t.charCodeAt(k); sink += x; },
    }, { rounds: 3, roundMs: 600 });
    console.log(`  ${group} (${(t.length / MB).toFixed(2)} MB)`);
    for (const [k, v] of Object.entries(r)) console.log(`    ${k.padEnd(44)} ${fmt((v * t.length) / MB, 1).padStart(8)} MB/s`);
  }
}
if (sink === -1) console.log(sink);

/**
 * Train the detector's learned component (src/trust/injection-model.ts) and write its weights
 * to src/trust/injection-model-weights.ts. Run: npx tsx scripts/train-injection-model.ts
 *
 * Data: the DEVELOPMENT part of ../shared/corpora (bench/trust-corpus.ts decides the split by
 * source), never the held-out part, so `npm run bench -- trust` measures the shipped weights on
 * sources they never saw. Positives: templated, mixed and jailbreak injections (plain goals read
 * like ordinary requests and are left out); negatives: every benign row. The corpora are not
 * committed; only the weights derived from them are.
 *
 * Deterministic: fixed shuffle seed, plain SGD, no threads; the same corpora give the same file.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCorpus } from '../bench/trust-corpus.js';
import { MODEL_SHAPE, modelAlphabet, ngramsAt } from '../src/trust/injection-model.js';
import { normalizeText } from '../src/trust/normalize-text.js';

const EPOCHS = 12;
const L2 = 2e-6;
const LEARNING_RATE = 0.4;
/** The threshold is set so that at most this share of development benign rows score above it. */
const TARGET_FP = 0.002;
const POSITIVE_FORMS = new Set(['templated', 'mixed', 'jailbreak']);

interface Example { idx: Uint32Array; val: Float32Array; y: number; weight: number }

/** Windows as the scorer sees them: the first and, for long texts, the last. */
function windows(text: string): string[] {
  const a = modelAlphabet(normalizeText(text).text);
  const { window } = MODEL_SHAPE;
  return a.length <= window ? [a] : [a.slice(0, window), a.slice(a.length - window)];
}

function features(w: string): { idx: Uint32Array; val: Float32Array } {
  const counts = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < w.length; i++) ngramsAt(w, i, w.length, (b) => { counts.set(b, (counts.get(b) ?? 0) + 1); total++; });
  const idx = Uint32Array.from(counts.keys());
  const norm = 1 / Math.sqrt(Math.max(1, total));
  const val = Float32Array.from([...counts.values()].map((c) => c * norm));
  return { idx, val };
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rows = loadCorpus();
if (rows === null) throw new Error('corpora not found beside the repository');
const dev = rows.filter((r) => r.part === 'dev' && (r.label === 'benign' || POSITIVE_FORMS.has(r.group)));
const examples: Example[] = [];
const positives = dev.filter((r) => r.label === 'injection').length;
const negatives = dev.length - positives;
for (const r of dev) {
  const y = r.label === 'injection' ? 1 : 0;
  // Balance the classes: each side weighs half.
  const weight = y === 1 ? dev.length / (2 * positives) : dev.length / (2 * negatives);
  const ws = windows(r.text);
  // A long injection row is positive if either window is; train on the one with more signal later,
  // here simply on both (each with half the weight).
  for (const w of ws) examples.push({ ...features(w), y, weight: weight / ws.length });
}
const dim = 1 << MODEL_SHAPE.bits;
const weights = new Float64Array(dim);
let bias = 0;
const rand = mulberry32(20_240_617);
const order = examples.map((_, i) => i);
for (let epoch = 0; epoch < EPOCHS; epoch++) {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const lr = LEARNING_RATE / (1 + epoch);
  let loss = 0;
  for (const k of order) {
    const ex = examples[k] as Example;
    let z = bias;
    for (let t = 0; t < ex.idx.length; t++) z += (weights[ex.idx[t] as number] ?? 0) * (ex.val[t] as number);
    const p = 1 / (1 + Math.exp(-z));
    loss += ex.weight * -(ex.y === 1 ? Math.log(p + 1e-12) : Math.log(1 - p + 1e-12));
    const g = (p - ex.y) * ex.weight;
    for (let t = 0; t < ex.idx.length; t++) {
      const b = ex.idx[t] as number;
      weights[b] = (weights[b] ?? 0) - lr * (g * (ex.val[t] as number) + L2 * (weights[b] ?? 0));
    }
    bias -= lr * g;
  }
  console.log(`epoch ${epoch + 1}: loss ${(loss / examples.length).toFixed(4)}`);
}
// Quantize to int8 with one scale: 256 KiB of weights, well under the 5 MB cap.
let max = 0;
for (const w of weights) max = Math.max(max, Math.abs(w));
const scale = max / 127;
const q = new Int8Array(dim);
for (let i = 0; i < dim; i++) q[i] = Math.round((weights[i] ?? 0) / scale);
const deq = (b: number): number => (q[b] ?? 0) * scale;
// Threshold from the development benign rows, scored exactly as at run time (best window).
const benignScores: number[] = [];
for (const r of dev.filter((x) => x.label === 'benign')) {
  let bestLogit = -Infinity;
  for (const w of windows(r.text)) {
    const f = features(w);
    let z = bias;
    for (let t = 0; t < f.idx.length; t++) z += deq(f.idx[t] as number) * (f.val[t] as number);
    bestLogit = Math.max(bestLogit, z);
  }
  benignScores.push(bestLogit);
}
benignScores.sort((a, b) => b - a);
const threshold = Math.max(0, benignScores[Math.floor(TARGET_FP * benignScores.length)] ?? 0);
const out = `// GENERATED by scripts/train-injection-model.ts — do not edit. Retrain: npx tsx scripts/train-injection-model.ts
// Logistic regression over hashed character ${MODEL_SHAPE.minN}-${MODEL_SHAPE.maxN}-grams, 2^${MODEL_SHAPE.bits} int8 weights.
// Trained on the development part of the corpora (${positives} injections, ${negatives} benign rows); the
// held-out sources (bench/trust-corpus.ts) were not used.
export const MODEL_SCALE = ${scale};
export const MODEL_BIAS = ${bias};
export const MODEL_THRESHOLD = ${threshold};
export const MODEL_WEIGHTS_BASE64 = '${Buffer.from(q.buffer).toString('base64')}';
`;
writeFileSync(fileURLToPath(new URL('../src/trust/injection-model-weights.ts', import.meta.url)), out);
console.log(`wrote weights: threshold ${threshold.toFixed(3)}, bias ${bias.toFixed(3)}, ${examples.length} windows`);

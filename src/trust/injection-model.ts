/**
 * The learned half of the instruction detector: logistic regression over hashed character
 * n-grams (3, 4 and 5 letters) of the normalized text. Weights ship in injection-model-weights.ts,
 * written by scripts/train-injection-model.ts from the development part of the corpora (see
 * docs/trust.md, "Retraining"). Scoring is one pass over the text, deterministic, no network.
 * Long texts are scored per window (the best window wins), so an injection buried in a long
 * page is not diluted by the page.
 */
import { MODEL_BIAS, MODEL_SCALE, MODEL_THRESHOLD, MODEL_WEIGHTS_BASE64 } from './injection-model-weights.js';

/** Hashing and window parameters shared by training and scoring. */
export const MODEL_SHAPE = { bits: 18, minN: 3, maxN: 5, window: 1024, stride: 512 } as const;

/**
 * Map normalized text to the model's alphabet: letters and digits kept, everything else a
 * space. Same length as the input, so window offsets are offsets of the normalized text.
 */
export function modelAlphabet(text: string): string {
  const out = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c >= 0xc0 ? c : 0x20;
  }
  return UTF16.decode(out);
}

const UTF16 = new TextDecoder('utf-16le');

/** Call `f(bucket)` for each n-gram (n = minN..maxN) starting at `i` and ending by `end` (FNV-1a). */
export function ngramsAt(text: string, i: number, end: number, f: (bucket: number) => void): void {
  const mask = (1 << MODEL_SHAPE.bits) - 1;
  let h = 0x811c9dc5;
  for (let n = 1; n <= MODEL_SHAPE.maxN && i + n <= end; n++) {
    h = Math.imul(h ^ text.charCodeAt(i + n - 1), 0x01000193);
    if (n >= MODEL_SHAPE.minN) f(((h ^ Math.imul(n, 0x9e3779b1)) >>> 0) & mask);
  }
}

/** Decoded weights: one float per bucket plus the bias. */
export interface ModelWeights {
  readonly weights: Float32Array;
  readonly bias: number;
  /** Logit above which a window counts as an injection. */
  readonly threshold: number;
}

/**
 * The highest window logit of `alphabetText` (already passed through {@link modelAlphabet}).
 * Each window's logit is bias + Σ weights / √(n-grams in window).
 * @example scoreText(model, modelAlphabet('ignore all previous instructions')).logit > model.threshold
 */
export function scoreText(model: ModelWeights, alphabetText: string): { logit: number; start: number; end: number } {
  const { window, stride } = MODEL_SHAPE;
  const n = alphabetText.length;
  const out = { logit: -Infinity, start: 0, end: 0 };
  if (n < MODEL_SHAPE.minN) return out;
  // Per start position: sum of the weights of the n-grams starting there (prefix sums make each
  // window O(1), so the whole text is one pass).
  const prefix = new Float64Array(n + 1);
  const counts = new Uint32Array(n + 1);
  const w = model.weights;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let c = 0;
    ngramsAt(alphabetText, i, n, (b) => { sum += w[b] ?? 0; c++; });
    prefix[i + 1] = (prefix[i] ?? 0) + sum;
    counts[i + 1] = (counts[i] ?? 0) + c;
  }
  for (let s = 0; ; s += stride) {
    const e = Math.min(n, s + window);
    const c = (counts[e] ?? 0) - (counts[s] ?? 0);
    const logit = c > 0 ? model.bias + ((prefix[e] ?? 0) - (prefix[s] ?? 0)) / Math.sqrt(c) : -Infinity;
    if (logit > out.logit) { out.logit = logit; out.start = s; out.end = e; }
    if (e >= n) break;
  }
  return out;
}

let loaded: ModelWeights | undefined;

/** The shipped weights, decoded once. */
export function shippedModel(): ModelWeights {
  if (loaded === undefined) {
    const bytes = Buffer.from(MODEL_WEIGHTS_BASE64, 'base64');
    const q = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    const weights = new Float32Array(q.length);
    for (let i = 0; i < q.length; i++) weights[i] = (q[i] ?? 0) * MODEL_SCALE;
    loaded = { weights, bias: MODEL_BIAS, threshold: MODEL_THRESHOLD };
  }
  return loaded;
}

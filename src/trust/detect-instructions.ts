/**
 * The instruction detector (SPEC T7): deterministic, linear-time, no network, no model.
 *
 * normalize (normalize-text) → phrase rules over word tokens (phrase-matcher +
 * instruction-phrases) → structural markers (marker-scan) → hidden Unicode → encoded payloads
 * re-scanned one level deeper. Spans are reported in offsets of the caller's original string.
 */
import { findEncodedRuns } from './encoded-payloads.js';
import { PHRASE_GROUPS, PHRASE_RULES } from './instruction-phrases.js';
import { scanMarkers } from './marker-scan.js';
import { normalizeText } from './normalize-text.js';
import { compilePhrases, findPhrases, tokenize, type PhraseMatcher } from './phrase-matcher.js';

/** The attack families the detector knows. */
export const INSTRUCTION_FAMILIES = [
  'override',
  'role_marker',
  'addressed_to_ai',
  'task_hijack',
  'tool_call',
  'hidden_unicode',
  'exfiltration',
  'encoded_payload',
] as const;

/** One attack family. */
export type InstructionFamily = (typeof INSTRUCTION_FAMILIES)[number];

/** One span of instruction-like text, in UTF-16 offsets of the original string. */
export interface DetectionSpan {
  readonly family: string;
  readonly start: number;
  readonly end: number;
  /** Stable id of the rule that fired, e.g. `override.dismiss-prior`. */
  readonly rule: string;
  /** Strong rules flag text alone; weak ones only in pairs. */
  readonly strong: boolean;
}

/** Verdict of {@link detectInstructions}. */
export interface Detection {
  /** True when a strong rule fired, or two different weak rules did. */
  readonly instructional: boolean;
  /** Families of every rule that fired, sorted, without duplicates. */
  readonly families: readonly string[];
  readonly spans: readonly DetectionSpan[];
}

/** Tuning knobs; the defaults are the documented behaviour. */
export interface DetectOptions {
  /** How many distinct weak rules make text instructional (default 2). */
  readonly weakThreshold?: number;
  /** Cap on reported spans (default 64). */
  readonly maxSpans?: number;
}

/**
 * Independent weak signals: distinct weak rules, where two rules that start or end on the same
 * word describe the same words and count once.
 */
function weakSignals(spans: readonly DetectionSpan[]): number {
  const counted: DetectionSpan[] = [];
  const rules = new Set<string>();
  for (const s of spans) {
    if (s.strong || rules.has(s.rule)) continue;
    if (counted.some((c) => s.start === c.start || s.end === c.end)) continue;
    counted.push(s);
    rules.add(s.rule);
  }
  return counted.length;
}

let matcher: PhraseMatcher | undefined;
function phraseMatcher(): PhraseMatcher {
  matcher ??= compilePhrases(PHRASE_GROUPS, PHRASE_RULES);
  return matcher;
}

const MAX_DEPTH = 2;

function run(text: string, depth: number, options: DetectOptions): Detection {
  const maxSpans = options.maxSpans ?? 64;
  const weakThreshold = options.weakThreshold ?? 2;
  const norm = normalizeText(text);
  const m = phraseMatcher();
  const spans: DetectionSpan[] = [];
  const toOriginal = (start: number, end: number): [number, number] => {
    const s = norm.starts[Math.min(start, norm.starts.length - 1)] ?? 0;
    const e = norm.ends[Math.max(0, Math.min(end, norm.ends.length) - 1)] ?? s;
    return [s, Math.max(s, e)];
  };
  for (const hit of findPhrases(m, tokenize(m, norm.text))) {
    const [start, end] = toOriginal(hit.startChar, hit.endChar);
    spans.push({ family: hit.rule.family, start, end, rule: hit.rule.id, strong: hit.rule.strong });
  }
  for (const hit of scanMarkers(norm.text)) {
    const [start, end] = toOriginal(hit.start, hit.end);
    spans.push({ family: hit.family, start, end, rule: hit.id, strong: hit.strong });
  }
  const h = norm.hidden;
  if (h.tagChars > 0 || h.bidiControls > 0 || h.zeroWidthInWords > 0) {
    // Tag characters and bidi overrides have no place in ordinary prose; a single zero-width
    // character inside a word can be an editor artefact, so those count only in numbers.
    const strong = h.tagChars > 0 || h.bidiControls > 0 || h.zeroWidthInWords >= 3;
    const rule = h.tagChars > 0 ? 'hidden.tag-characters' : h.bidiControls > 0 ? 'hidden.bidi-controls' : 'hidden.zero-width';
    for (const [start, end] of h.ranges) spans.push({ family: 'hidden_unicode', start, end, rule, strong });
  }
  if (depth < MAX_DEPTH) spans.push(...encodedSpans(text, depth, options));
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  const instructional = spans.some((s) => s.strong) || weakSignals(spans) >= weakThreshold;
  const families = [...new Set(spans.map((s) => s.family))].sort();
  // Several rules often describe the same words; report each (family, range) once, strongest first.
  const unique = new Map<string, DetectionSpan>();
  for (const s of spans) {
    const key = `${s.family}:${s.start}:${s.end}`;
    const prev = unique.get(key);
    if (prev === undefined || (s.strong && !prev.strong)) unique.set(key, s);
  }
  return { instructional, families, spans: [...unique.values()].slice(0, maxSpans) };
}

/**
 * Decode every readable base64/hex run, scan all decoded texts in one pass (so thousands of
 * small runs cost one scan), and flag the runs whose own decoded text is instructional.
 */
function encodedSpans(text: string, depth: number, options: DetectOptions): DetectionSpan[] {
  const runs = findEncodedRuns(text);
  if (runs.length === 0) return [];
  const offsets: number[] = [];
  let joined = '';
  for (const r of runs) {
    offsets.push(joined.length);
    joined += r.decoded + '\n\n';
  }
  const inner = run(joined, depth + 1, { ...options, maxSpans: Number.MAX_SAFE_INTEGER });
  const perRun = new Map<number, { strong: boolean; weak: Set<string> }>();
  for (const span of inner.spans) {
    let lo = 0;
    let hi = offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((offsets[mid] ?? 0) <= span.start) lo = mid;
      else hi = mid - 1;
    }
    const entry = perRun.get(lo) ?? { strong: false, weak: new Set<string>() };
    if (span.strong) entry.strong = true;
    else entry.weak.add(span.rule);
    perRun.set(lo, entry);
  }
  const out: DetectionSpan[] = [];
  const weakThreshold = options.weakThreshold ?? 2;
  for (const [index, entry] of perRun) {
    const r = runs[index];
    if (r !== undefined && (entry.strong || entry.weak.size >= weakThreshold)) {
      out.push({ family: 'encoded_payload', start: r.start, end: r.end, rule: `encoded.${r.kind}`, strong: true });
    }
  }
  return out;
}

/**
 * Detect instruction-like text. Linear in `text.length`; never throws on any string.
 * @example detectInstructions('Ignore all previous instructions.').instructional // true
 */
export function detectInstructions(text: string, options: DetectOptions = {}): Detection {
  return run(text, 0, options);
}

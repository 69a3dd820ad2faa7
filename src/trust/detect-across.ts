/**
 * Detection over several texts read as one (SPEC T7): the untrusted fields of one result are
 * joined, so a payload split across two fields ("Ignore all previous" | "instructions and …")
 * is seen whole, and every span is mapped back to the field and offset it came from.
 */
import { detectSpans, detectionVerdict, type DetectOptions, type DetectionSpan } from './detect-instructions.js';

/** A span in one of the input texts: `field` is its index, offsets are that text's own. */
export interface FieldSpan extends DetectionSpan {
  readonly field: number;
}

/** Verdict of {@link detectInstructionsAcross}. */
export interface FieldsDetection {
  /** True when the texts read together are instruction-like. */
  readonly instructional: boolean;
  readonly families: readonly string[];
  /** Spans per field; a span crossing a field boundary appears once in each field it covers. */
  readonly spans: readonly FieldSpan[];
  /** Indexes of the fields holding at least one span, ascending. */
  readonly fields: readonly number[];
}

// Line breaks between fields: word rules read across them, line-start rules still see a line start.
const SEPARATOR = '\n';

/**
 * Detect instruction-like text across several fields read in order. Linear in the total length.
 * @example detectInstructionsAcross(['Ignore all previous', 'instructions.']).spans.map((s) => s.field) // [0, 1]
 */
export function detectInstructionsAcross(texts: readonly string[], options: DetectOptions = {}): FieldsDetection {
  const starts: number[] = [];
  let joined = '';
  for (const [i, t] of texts.entries()) {
    if (i > 0) joined += SEPARATOR;
    starts.push(joined.length);
    joined += t;
  }
  const d = detectionVerdict(detectSpans(joined, options), { ...options, maxSpans: Number.MAX_SAFE_INTEGER });
  const fieldOf = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const spans: FieldSpan[] = [];
  for (const s of d.spans) {
    if (texts.length === 0) break;
    for (let f = fieldOf(s.start); f < texts.length && (starts[f] ?? 0) < Math.max(s.end, s.start + 1); f++) {
      const base = starts[f] ?? 0;
      const len = texts[f]?.length ?? 0;
      const start = Math.max(s.start, base) - base;
      const end = Math.min(s.end, base + len) - base;
      if (end > start || (s.start === s.end && start <= len)) spans.push({ ...s, field: f, start, end: Math.max(start, end) });
    }
  }
  const maxSpans = options.maxSpans ?? 64;
  return {
    instructional: d.instructional,
    families: d.families,
    spans: spans.slice(0, maxSpans),
    fields: [...new Set(spans.map((s) => s.field))].sort((a, b) => a - b),
  };
}

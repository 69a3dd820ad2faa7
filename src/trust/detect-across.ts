/**
 * Instruction detection over all the external texts of one result at once, so a payload split
 * across fields, keys or blocks ("Ignore all" in one value, "previous instructions" in the
 * next) is seen whole, then the verdict is split back per text.
 *
 * Seam: the detector's own multi-text entry point replaces the join below when it lands; the
 * contract of this function (one verdict, spans per text) stays.
 */
import { detectInstructions } from './detect-instructions.js';

/** Spans and families that fell inside one text. */
export interface TextVerdict {
  readonly families: readonly string[];
  readonly spans: readonly { readonly family: string; readonly start: number; readonly end: number }[];
}

/** The verdict over all texts, and what fell inside each. */
export interface AcrossVerdict {
  /** True when the texts, read together, are instruction-like. */
  readonly instructional: boolean;
  readonly perText: readonly TextVerdict[];
}

const SEPARATOR = '\n';
const MAX_SPANS = 4096;

/**
 * Detect across `texts` (in order, as one text with line breaks between them).
 * @example detectAcross(['Ignore all', 'previous instructions.']).instructional // true
 */
export function detectAcross(texts: readonly string[]): AcrossVerdict {
  const starts: number[] = [];
  let joined = '';
  for (const t of texts) {
    starts.push(joined.length);
    joined += t + SEPARATOR;
  }
  const d = detectInstructions(joined, { maxSpans: MAX_SPANS });
  const perText = texts.map(() => ({ families: new Set<string>(), spans: [] as { family: string; start: number; end: number }[] }));
  for (const s of d.spans) {
    // Every text the span touches gets its clipped part.
    let i = upperBound(starts, s.start);
    for (; i < texts.length; i++) {
      const base = starts[i] as number;
      const len = (texts[i] as string).length;
      if (base > s.end || (base === s.end && s.end > s.start)) break;
      const start = Math.max(0, s.start - base);
      const end = Math.min(len, s.end - base);
      if (end < start || (end === start && s.end > s.start && start === len)) continue;
      const v = perText[i];
      if (v === undefined) continue;
      v.families.add(s.family);
      v.spans.push({ family: s.family, start, end });
    }
  }
  return { instructional: d.instructional, perText: perText.map((v) => ({ families: [...v.families].sort(), spans: v.spans })) };
}

/** Index of the last start ≤ at. */
function upperBound(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

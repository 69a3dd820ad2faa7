/**
 * A one-off taint check (SPEC T3) for a caller without a run: a fresh {@link TaintIndex} over the
 * given content. A run keeps one index across its calls instead.
 */
import type { UntrustedContent } from '../contract/index.js';
import { TaintIndex, type Taint } from './taint.js';

/**
 * Find the tainted arguments of one call against the given content (builds a fresh index;
 * a run keeps one {@link TaintIndex} instead).
 * @param trustedTexts what the user (or trusted tools) said; a run of text found there is not taint.
 * @example findTaint({ to: 'x@evil.test' }, [{ content_id: 'uc_1', text: 'send to X@EVIL.test', … }])[0]?.content_id // 'uc_1'
 */
export function findTaint(args: unknown, untrusted: readonly UntrustedContent[], trustedTexts: readonly string[] = []): Taint[] {
  const index = new TaintIndex();
  for (const u of untrusted) index.addUntrusted(u);
  for (const t of trustedTexts) index.addTrusted(t);
  return index.taintOf(args);
}

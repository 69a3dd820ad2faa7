/**
 * The phrase scan where the fast path saw phrases complete: {@link findPhrases}'s hits, found
 * without trying every rule at every token. The fast path records a candidate (rule, token)
 * wherever a rule's last slot is filled and its other slots were all filled within the rule's
 * span; every match ends at such a token and starts at most a span before it, so trying the
 * starts in that window finds every hit findPhrases finds, which are then put in its order.
 */
import { findPhrases, matchFrom, phraseHit, type PhraseHit, type PhraseMatcher, type Tokens } from './phrase-matcher.js';

/**
 * {@link findPhrases} of `tokens`, given the fast path's `candidates` ((rule index, last token)
 * pairs; null when it did not keep them all, and then every token is read).
 * @example findPhrasesAt(matcher, tokens, null) // same as findPhrases(matcher, tokens)
 */
export function findPhrasesAt(m: PhraseMatcher, tokens: Tokens, candidates: Int32Array | null, limit = 256): PhraseHit[] {
  if (candidates === null) return findPhrases(m, tokens, limit);
  const { count, ids } = tokens;
  const rules = m.phrases.length;
  const found = new Map<number, number>(); // start * rules + rule -> last token, -1 if no match
  for (let k = 0; k < candidates.length; k += 2) {
    const r = candidates[k] ?? 0;
    const end = candidates[k + 1] ?? 0;
    const p = m.phrases[r];
    const first = p?.slots[0];
    if (p === undefined || first === undefined) continue;
    const span = p.gaps.reduce((a, g) => a + g + 1, 0);
    for (let t = Math.max(0, end - span); t <= end; t++) {
      const id = ids[t] ?? -1;
      if (id < 0 || first[id] !== 1 || found.has(t * rules + r)) continue;
      found.set(t * rules + r, matchFrom(p, 1, t, ids, count));
    }
  }
  // findPhrases' order: by start token, then by rule (rules are listed in rule order).
  const keys = [...found].filter(([, last]) => last >= 0).map(([key]) => key).sort((a, b) => a - b).slice(0, limit);
  return keys.map((key) => {
    const r = key % rules;
    const t = (key - r) / rules;
    return phraseHit(m.phrases[r] as PhraseMatcher['phrases'][number], tokens, t, found.get(key) ?? t);
  });
}

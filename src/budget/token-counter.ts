/**
 * Token counting (SPEC Z1). Exact BPE counting runs at a few MB/s, so callers estimate first
 * and count exactly only what is kept, with an early-exit limit check.
 */
import { countTokens, isWithinTokenLimit } from 'gpt-tokenizer/encoding/o200k_base';

/** A pluggable tokenizer: exact count and an early-exit "fits within limit" check. */
export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
  /** True when `text` has at most `limit` tokens; may stop counting once the limit is passed. */
  isWithinLimit(text: string, limit: number): boolean;
}

/**
 * The default counter: OpenAI's o200k_base encoding via gpt-tokenizer.
 * @example o200kCounter.count('{"a":1}') // 5
 */
export const o200kCounter: TokenCounter = {
  name: 'o200k_base',
  count: (text) => countTokens(text),
  isWithinLimit: (text, limit) => isWithinTokenLimit(text, limit) !== false,
};

/**
 * Build a counter from any `count(text)` function (e.g. another tokenizer); the limit check
 * then counts fully.
 * @example const chars = counterFrom('chars/4', (t) => Math.ceil(t.length / 4));
 */
export function counterFrom(name: string, count: (text: string) => number): TokenCounter {
  return { name, count, isWithinLimit: (text, limit) => count(text) <= limit };
}

/**
 * A cheap lower-bound-ish guess used to skip exact counting of candidates that are clearly too
 * big: JSON rarely averages more than 8 UTF-16 units per o200k token.
 */
export function clearlyOverTokens(text: string, limit: number): boolean {
  return text.length > limit * 8;
}

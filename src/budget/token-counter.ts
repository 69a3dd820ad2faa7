/**
 * Token counting (SPEC Z1). Exact BPE counting runs at a few MB/s, so callers estimate first
 * and count exactly only what is kept, with an early-exit limit check.
 *
 * The o200k tables of gpt-tokenizer cost ~64 MB of RSS once loaded (a 2.4 MB module of 200k
 * rank strings plus the maps built from them), more than a whole streaming fit needs. They are
 * therefore loaded on the first exact count, not on import: a fit that never needs an exact
 * count never loads them, and `fitStream` loads them only after the stream has finished.
 */
import { createRequire } from 'node:module';
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';

/** A pluggable tokenizer: exact count and an early-exit "fits within limit" check. */
export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
  /** True when `text` has at most `limit` tokens; may stop counting once the limit is passed. */
  isWithinLimit(text: string, limit: number): boolean;
  /**
   * Set when every token stands for at least one UTF-8 byte (true of byte-level BPE such as
   * o200k): a text of at most N bytes then surely has at most N tokens and is not counted.
   */
  readonly tokensAtMostBytes?: boolean;
}

type O200kApi = Pick<typeof O200k, 'countTokens' | 'isWithinTokenLimit'>;

let o200k: O200kApi | null = null;

/**
 * Load the tables synchronously on first use (the counter interface is synchronous). Node's
 * `require` of the package's CommonJS build is the one synchronous way to load a module lazily
 * from ESM; it is the same encoding as `gpt-tokenizer/encoding/o200k_base`.
 */
function loadO200k(): O200kApi {
  o200k ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as O200kApi;
  return o200k;
}

/** Whether the o200k tables have been loaded in this process (for tests and diagnostics). */
export function isO200kLoaded(): boolean {
  return o200k !== null;
}

/**
 * The default counter: OpenAI's o200k_base encoding via gpt-tokenizer, loaded on first use.
 * @example o200kCounter.count('{"a":1}') // 5
 */
export const o200kCounter: TokenCounter = {
  name: 'o200k_base',
  count: (text) => loadO200k().countTokens(text),
  isWithinLimit: (text, limit) => loadO200k().isWithinTokenLimit(text, limit) !== false,
  tokensAtMostBytes: true,
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

/**
 * A sure upper bound that makes exact counting unnecessary: every o200k token stands for at
 * least one UTF-8 byte, so a text of at most `limit` UTF-8 bytes has at most `limit` tokens.
 */
export function surelyWithinTokens(text: string, limit: number): boolean {
  // length ≤ bytes ≤ 3 × length for UTF-16 text: decide from the length when that settles it.
  if (text.length * 3 <= limit) return true;
  if (text.length > limit) return false;
  return Buffer.byteLength(text, 'utf8') <= limit;
}

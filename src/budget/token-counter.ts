/**
 * Token counting (SPEC Z1). Exact BPE counting runs at a few MB/s, so callers estimate first
 * and count exactly only what is kept, with an early-exit limit check.
 *
 * The default counter is the compact o200k counter (`o200k-compact.ts`): gpt-tokenizer's own
 * rank file and split regex in ~5 MB of typed arrays, where gpt-tokenizer's tables cost ~60 MB
 * of RSS — more than a whole streaming fit may use. Either is loaded on its first exact count,
 * not on import: a fit that never needs an exact count loads nothing, and `fitStream` counts
 * only after the stream has finished. gpt-tokenizer stays selectable and is the reference the
 * tests compare against.
 */
import { createRequire } from 'node:module';
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import { o200kCompactCounter } from './o200k-compact.js';

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

let gptO200k: O200kApi | null = null;

/**
 * Load gpt-tokenizer's tables synchronously on first use (the counter interface is synchronous).
 * Node's `require` of the package's CommonJS build is the one synchronous way to load a module
 * lazily from ESM; it is the same encoding as `gpt-tokenizer/encoding/o200k_base`.
 */
function loadGptO200k(): O200kApi {
  gptO200k ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as O200kApi;
  return gptO200k;
}

/**
 * Tool output is untrusted data: a special-token string such as `<|endoftext|>` in it is text.
 * gpt-tokenizer's default (`disallowedSpecial: 'all'`) throws on it instead; an empty set of
 * disallowed tokens, with none allowed, makes it tokenize such strings as ordinary text.
 */
const SPECIAL_AS_TEXT = { disallowedSpecial: new Set<string>() } as const;

/** Whether the default (compact o200k) tables have been loaded in this process (for tests and diagnostics). */
export function isO200kLoaded(): boolean {
  return o200kCompactCounter.isLoaded();
}

/** Whether gpt-tokenizer's o200k tables have been loaded in this process. */
export function isGptTokenizerO200kLoaded(): boolean {
  return gptO200k !== null;
}

/**
 * The default counter: OpenAI's o200k_base encoding, counted exactly by the compact counter
 * (gpt-tokenizer's data in typed arrays, ~5 MB), loaded on first use. Special-token strings
 * count as text.
 * @example o200kCounter.count('{"a":1}') // 5
 */
export const o200kCounter: TokenCounter = {
  name: 'o200k_base',
  count: (text) => o200kCompactCounter.count(text),
  isWithinLimit: (text, limit) => o200kCompactCounter.isWithinLimit(text, limit),
  tokensAtMostBytes: true,
};

/**
 * o200k_base counts from gpt-tokenizer's own engine, the reference the compact counter is tested
 * against (~55–63 MB of RSS once loaded, slower). Special-token strings count as text. It differs
 * on U+FEFF, which its decoder drops as a byte order mark (see docs/budget.md).
 * @example fit(result, { maxTokens: 8000 }, { counter: gptTokenizerO200kCounter })
 */
export const gptTokenizerO200kCounter: TokenCounter = {
  name: 'o200k_base',
  count: (text) => loadGptO200k().countTokens(text, SPECIAL_AS_TEXT),
  isWithinLimit: (text, limit) => loadGptO200k().isWithinTokenLimit(text, limit, SPECIAL_AS_TEXT) !== false,
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

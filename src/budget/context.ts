/**
 * What `fit` and `fitStream` need from the caller: where to store, on whose behalf, a clock,
 * a tokenizer, and the trust stage's visibility hook.
 */
import type { Envelope } from '../contract/index.js';
import type { Store } from '../store/types.js';
import type { TokenCounter } from './token-counter.js';

/** Context of one fit. Everything is optional; without a store nothing is externalized. */
export interface FitContext {
  /** Where the full raw result goes when the result is trimmed (SPEC Z4). */
  readonly store?: Store;
  /** Who may read the stored result back (handles are bound to it). Default `"anonymous"`. */
  readonly principal?: string;
  /** Tool that produced the result. Used to wrap raw values and to bind handles. */
  readonly tool?: string;
  /** Call id used when a raw value is wrapped into an envelope. */
  readonly callId?: string;
  /** Clock (tests pin it). */
  readonly now?: () => Date;
  /** Tokenizer; default o200k_base. */
  readonly counter?: TokenCounter;
  /**
   * Visibility hook of the trust stage (SPEC Z3 step 2): drops internal fields before anything
   * is summarized or stored. When it is given, the stored resource holds the filtered result.
   */
  readonly dropFields?: (env: Envelope) => Envelope;
  /** Lifetime of stored resources and their handles (default 24 h). */
  readonly ttlMs?: number;
  /** Exact bytes of the input, stored byte for byte when the result is trimmed. */
  readonly raw?: Uint8Array | string;
  /** MIME type of `raw` when it is stored (default: `text/plain; charset=utf-8` for a string, else `application/octet-stream`). */
  readonly rawMimeType?: string;
}
